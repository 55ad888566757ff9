import CCairo
import FoundationEssentials
import Glibc
import MapCore
import MapTiles
import Platform

public struct CairoError: Error, CustomStringConvertible {
    public var description: String
}

/// A Cairo recording surface: a picture kept as drawing operations, replayed as vectors (and
/// text as text) onto a PDF or SVG page.
public final class CairoRecording: @unchecked Sendable { // drawn into by one thread, then only replayed
    public let surface: OpaquePointer
    init(_ surface: OpaquePointer) { self.surface = surface }
    deinit { cairo_surface_destroy(surface) }
}

/// An ARGB32 Cairo image surface with its drawing context. Owns both; frees them in deinit.
/// On a thread drawing for a page (`CairoCanvas.forPage`), it is a recording surface instead,
/// and `bitmap()` hands back the recording: every painter draws for paper without knowing.
public final class CairoCanvas {
    private static let pageMode = ThreadFlag()

    /// Runs `body` with every canvas made on this thread a recording (vectors, real text).
    public static func forPage<T>(_ body: () throws -> T) rethrows -> T { try pageMode.with(body) }

    public var isRecording: Bool { cairo_surface_get_type(surface) == CAIRO_SURFACE_TYPE_RECORDING }

    public let width: Int
    public let height: Int
    public let surface: OpaquePointer
    public let context: OpaquePointer

    public init(width: Int, height: Int) throws {
        guard width > 0, height > 0, width <= 16384, height <= 16384 else {
            // TRANSLATORS: a picture's width and height in pixels.
            throw CairoError(description: tr("canvas size %@×%@ out of range", width, height))
        }
        var extents = cairo_rectangle_t(x: 0, y: 0, width: Double(width), height: Double(height))
        let s = Self.pageMode.isSet ? cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &extents)!
            : cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        guard cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else {
            let msg = String(cString: cairo_status_to_string(cairo_surface_status(s)))
            cairo_surface_destroy(s)
            throw CairoError(description: "cairo surface: \(msg)")
        }
        self.width = width
        self.height = height
        surface = s
        context = cairo_create(s)
    }

    /// A canvas drawing into `pixels` (ARGB32, premultiplied, rows packed), which the caller
    /// owns and keeps alive while the canvas lives. Nil when Cairo refuses the size.
    public init?(wrapping pixels: UnsafeMutableRawPointer, width: Int, height: Int) {
        guard width > 0, height > 0, width <= 16384, height <= 16384 else { return nil }
        let s = cairo_image_surface_create_for_data(pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                    Int32(width), Int32(height), Int32(width * 4))!
        guard cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else { cairo_surface_destroy(s); return nil }
        self.width = width
        self.height = height
        surface = s
        context = cairo_create(s)
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    public func setColor(_ c: Color) { cairo_set_source_rgba(context, c.r, c.g, c.b, c.a) }

    public func fill(_ c: Color) {
        setColor(c)
        cairo_paint(context)
    }

    /// The pixels as a premultiplied bitmap (Cairo's stride may pad rows; copied out packed).
    public func bitmap() -> Bitmap {
        cairo_surface_flush(surface)
        if isRecording { return Bitmap(width: width, height: height, recording: CairoRecording(cairo_surface_reference(surface))) }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        var pixels = [UInt32](repeating: 0, count: width * height)
        pixels.withUnsafeMutableBytes { dst in
            for row in 0..<height {
                memcpy(dst.baseAddress! + row * width * 4, data + row * stride, width * 4)
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels, premultiplied: true)
    }
}

extension Bitmap {
    /// Its pixels as a Cairo image surface for `body` to paint from: ARGB32 and premultiplied,
    /// as Cairo reads them (converted first when they are not). Nil when Cairo refuses it.
    @discardableResult
    public func withCairoSurface<T>(_ body: (OpaquePointer) throws -> T) rethrows -> T? {
        guard width > 0, height > 0, width <= 16384, height <= 16384 else { return nil }
        var argb = self
        argb.convert(to: .argb)
        argb.premultiply()
        return try argb.pixels.withUnsafeMutableBytes { raw -> T? in
            let s = cairo_image_surface_create_for_data(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                        Int32(width), Int32(height), Int32(width * 4))!
            defer {
                cairo_surface_finish(s)
                cairo_surface_destroy(s)
            }
            guard cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else { return nil }
            return try body(s)
        }
    }
}
