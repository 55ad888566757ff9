import CSDL2
import FoundationEssentials
import Glibc
import MapCore
import MapRender
import Platform

/// Owns the SDL_Window itself; the renderer holds it so the window outlives the renderer.
final class WindowHandle {
    let raw: OpaquePointer
    init(_ raw: OpaquePointer) { self.raw = raw }
    deinit { SDL_DestroyWindow(raw) }
}

/// The application window: drawn by an OpenGL renderer, vsynced, or in software into the
/// window's own surface (see `RendererChoice`), which on X11 is shared memory the server
/// copies from: a frame presents only the boxes it changed.
public final class SDLWindow {
    public let raw: OpaquePointer
    /// The GPU renderer; nil when frames are drawn in software: by the X server (`serverFrame`)
    /// or into `surface()`.
    public let renderer: SDLRenderer?
    /// The frame the X server draws (RENDER), for the software path on X11.
    public let serverFrame: XRenderFrame?
    /// Above this many device pixels the app draws the frames itself (into `surface()`), not
    /// the X server: on two cores, a 2560×1440 zoom cost the app and the server 15 + 12 ms of
    /// CPU a frame and missed vsyncs, where the app's own compositor (22 + 2.7 ms, on both
    /// cores) missed none. A 1920×1200 window stays with the server.
    public var serverDrawnLimit = 2_400_000
    private let handle: WindowHandle
    public private(set) var isFullscreen = false

    public init(title: String, width: Int, height: Int, renderer choice: RendererChoice = .auto) throws {
        try SDL.initVideo()
        let centered = Int32(bitPattern: 0x2FFF_0000) // SDL_WINDOWPOS_CENTERED
        let accelerated = SDL_RENDERER_ACCELERATED.rawValue | SDL_RENDERER_PRESENTVSYNC.rawValue
        let driver = SDL.videoDriver
        let inSoftware = choice.drawsInSoftware(videoDriver: driver, hasRenderNode: RendererChoice.hasRenderNode)
        // The window is made for its renderer and shown once it is set up: SDL's OpenGL
        // renderer would otherwise destroy and re-create a plain window (a second X window,
        // a flash), and setting the minimum size on X11 moves a shown window back to where
        // SDL first put it.
        var flags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue | SDL_WINDOW_HIDDEN.rawValue
        if !inSoftware { flags |= SDL_WINDOW_OPENGL.rawValue }
        guard let w = SDL_CreateWindow(title, centered, centered, Int32(width), Int32(height), flags) else {
            throw SDLError("SDL_CreateWindow")
        }
        raw = w
        handle = WindowHandle(w)
        // Else SDL would show the software picture through an OpenGL texture.
        if inSoftware, driver == "x11" { SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0") }
        let serverDrawn = inSoftware && driver == "x11" && choice != .pixels ? Self.serverFrame(of: w) : nil
        serverFrame = serverDrawn
        if serverDrawn != nil || (inSoftware && SDL_GetWindowSurface(w) != nil) {
            renderer = nil
        } else {
            guard let r = SDL_CreateRenderer(w, -1, accelerated) else { throw SDLError("SDL_CreateRenderer") }
            renderer = SDLRenderer(raw: r, target: handle)
        }
        SDL_SetWindowMinimumSize(w, 320, 240)
        SDL_ShowWindow(w)
    }

    /// Size in logical points.
    public var size: ScreenSize {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetWindowSize(raw, &w, &h)
        return ScreenSize(width: Double(w), height: Double(h))
    }

    /// Device pixels per point: the renderer's output over the window's size.
    public var pixelRatio: Double {
        let s = size
        guard s.width > 0 else { return 1 }
        return Double(outputSize.width) / s.width
    }

    /// The X server draws this frame: there is a server frame that has not failed, and the
    /// window is not larger than `serverDrawnLimit`.
    public var serverDraws: Bool {
        guard let serverFrame, !serverFrame.failed else { return false }
        let (w, h) = outputSize
        return w * h <= serverDrawnLimit
    }

    /// The size of a frame in device pixels.
    public var outputSize: (width: Int, height: Int) {
        if let renderer { return renderer.outputSize }
        if serverFrame != nil {
            var w: Int32 = 0, h: Int32 = 0
            SDL_GetWindowSizeInPixels(raw, &w, &h)
            return (Int(w), Int(h))
        }
        guard let s = SDL_GetWindowSurface(raw) else { return (0, 0) }
        return (Int(s.pointee.w), Int(s.pointee.h))
    }

    /// Pixels the software compositor draws in, when the window's own are not 32-bit
    /// 0x··RRGGBB words (a 16-bit X visual): SDL converts what changed at each present.
    private var shadow: SurfaceHandle?

    /// The window's own pixels (or its shadow's), for the software compositor; nil on the GPU
    /// path, or when SDL cannot make them now. A resized window has new ones.
    public func surface() -> PixelTarget? {
        guard renderer == nil, !serverDraws, let s = SDL_GetWindowSurface(raw) else { return nil }
        if let own = PixelTarget(surface: s) { shadow = nil; return own }
        if shadow == nil || shadow!.raw.pointee.w != s.pointee.w || shadow!.raw.pointee.h != s.pointee.h {
            shadow = SDL_CreateRGBSurfaceWithFormat(0, s.pointee.w, s.pointee.h, 32, SDL_PIXELFORMAT_ARGB8888.rawValue).map(SurfaceHandle.init)
        }
        return shadow.flatMap { PixelTarget(surface: $0.raw) }
    }

    /// Shows the frame: the GPU's, or the `boxes` of the surface that changed.
    /// `byServer`: the X server drew the frame (`serverDraws`, as the frame found it).
    func present(_ boxes: [PixelBox], byServer: Bool = false) {
        if let renderer {
            SDL_RenderPresent(renderer.raw)
            return
        }
        guard !boxes.isEmpty else { return }
        if byServer, let serverFrame { return serverFrame.present(boxes) }
        let rects = boxes.map(\.sdl)
        if let shadow, let s = SDL_GetWindowSurface(raw) {
            for r in rects {
                var from = r, to = r // the blit clips the rectangles it is given
                SDL_UpperBlit(shadow.raw, &from, s, &to)
            }
        }
        _ = rects.withUnsafeBufferPointer { SDL_UpdateWindowSurfaceRects(raw, $0.baseAddress, Int32($0.count)) }
    }

    /// What draws the window, for logs.
    public var rendererName: String { renderer?.name ?? (serverDraws ? "software (X server)" : "software") }

    /// Frames are drawn in software, and a frame in motion is followed by a filtered one at rest.
    public var drawsInSoftware: Bool { renderer == nil }

    /// Refresh rate the display reports, 0 when unknown (Xvfb says 0).
    public var refreshRateHint: Double {
        var mode = SDL_DisplayMode()
        let index = SDL_GetWindowDisplayIndex(raw)
        guard index >= 0, SDL_GetCurrentDisplayMode(index, &mode) == 0 else { return 0 }
        return Double(mode.refresh_rate)
    }

    /// The most device pixels the window can cover: its display's size (fullscreen), or the
    /// window's own if that is larger.
    public var largestPixelSize: (width: Int, height: Int) {
        var r = SDL_Rect()
        let k = pixelRatio, s = size
        let index = SDL_GetWindowDisplayIndex(raw)
        if index < 0 || SDL_GetDisplayBounds(index, &r) != 0 { r = SDL_Rect(x: 0, y: 0, w: 1920, h: 1080) }
        return (Int(saturating: max(Double(r.w), s.width) * k), Int(saturating: max(Double(r.h), s.height) * k))
    }

    public var isHiddenOrMinimized: Bool {
        let f = SDL_GetWindowFlags(raw)
        return f & (SDL_WINDOW_HIDDEN.rawValue | SDL_WINDOW_MINIMIZED.rawValue) != 0
    }

    public func toggleFullscreen() {
        isFullscreen.toggle()
        SDL_SetWindowFullscreen(raw, isFullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue : 0)
    }

    /// The X server's frame for an X11 window (RENDER), found through SDL's window-manager
    /// information: nil for another kind of window, or a server without RENDER 0.10.
    private static func serverFrame(of window: OpaquePointer) -> XRenderFrame? {
        var info = SDL_SysWMinfo()
        SDL_GetVersion(&info.version)
        guard SDL_GetWindowWMInfo(window, &info) == SDL_TRUE, info.subsystem == SDL_SYSWM_X11,
              let display = info.info.x11.display else { return nil }
        return XRenderFrame(display: display, window: UInt(info.info.x11.window))
    }
}
