import CSDL2
import MapCore
import MapRender
import Platform

// The SDL forms of the render target's pixels and rectangles, for the window's surface and
// SDL's renderer.

extension PixelTarget {
    /// A 32-bit surface whose words are 0x··RRGGBB (SDL's RGB888 or ARGB8888); nil otherwise.
    init?(surface s: UnsafeMutablePointer<SDL_Surface>) {
        let format = s.pointee.format.pointee.format
        guard format == SDL_PIXELFORMAT_RGB888.rawValue || format == SDL_PIXELFORMAT_ARGB8888.rawValue,
              let p = s.pointee.pixels, s.pointee.pitch % 4 == 0 else { return nil }
        self.init(pixels: p.assumingMemoryBound(to: UInt32.self), width: Int(s.pointee.w), height: Int(s.pointee.h),
                  stride: Int(s.pointee.pitch) / 4)
    }
}

extension DeviceRect {
    var sdl: SDL_Rect {
        SDL_Rect(x: Int32(saturating: x0), y: Int32(saturating: y0), w: Int32(saturating: x1 - x0), h: Int32(saturating: y1 - y0))
    }
}

extension PixelBox {
    var sdl: SDL_Rect { SDL_Rect(x: x0, y: y0, w: x1 - x0, h: y1 - y0) }
}

extension TextureRect {
    var sdl: SDL_Rect { SDL_Rect(x: x, y: y, w: w, h: h) }
}

/// Owns an SDL surface (the window's shadow pixels).
final class SurfaceHandle {
    let raw: UnsafeMutablePointer<SDL_Surface>
    init(_ raw: UnsafeMutablePointer<SDL_Surface>) { self.raw = raw }
    deinit { SDL_FreeSurface(raw) }
}
