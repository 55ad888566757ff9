import CXlib
import Platform

/// An X11 window's frame drawn by the X server with RENDER (see XRender.h): the window's
/// software path when the server has the extension. Shared by the window, which presents it,
/// and the compositor that draws into it.
public final class XRenderFrame {
    let raw: OpaquePointer

    /// The frame of the X11 window `window` on the Xlib `display`; nil when its server lacks
    /// RENDER 0.10.
    package init?(display: OpaquePointer, window: UInt) {
        guard let r = mx_render_open(UnsafeMutableRawPointer(display), window) else { return nil }
        raw = r
        Self.open.removeAll { $0.frame == nil }
        Self.open.append(Weak(self))
    }

    deinit { mx_render_free(raw) }

    /// Lets go of what the server holds; drawing and presenting do nothing after.
    func close() { mx_render_close(raw) }

    /// The server refused a request of this path (out of memory: BadAlloc): the app draws
    /// the frames from then on.
    public var failed: Bool { meridian_server_frames_failed() != 0 }

    /// Waits until the server has drawn all that was sent; false if it refused some of it.
    @discardableResult
    package func sync() -> Bool { mx_render_sync(raw) != 0 }

    /// Copies the boxes of the frame onto the window, once the server has drawn them.
    package func present(_ boxes: [PixelBox]) {
        let mp = boxes.map(\.mp)
        mp.withUnsafeBufferPointer { mx_render_present(raw, $0.baseAddress, Int32($0.count)) }
    }

    private struct Weak { weak var frame: XRenderFrame?; init(_ f: XRenderFrame) { frame = f } }
    nonisolated(unsafe) private static var open: [Weak] = [] // the window's thread only: frames are opened and all closed there

    /// Before SDL closes its display: every frame still open lets go of what the server holds
    /// (after, its pixmaps would be freed on a closed connection).
    package static func closeAll() {
        for w in open { w.frame?.close() }
        open.removeAll()
    }
}
