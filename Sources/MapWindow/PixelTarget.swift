import CPixels
import CSDL2
import Platform

/// 32-bit pixels to draw into: the window's own surface (X11 shared memory), or a picture
/// in memory for `render`. Borrowed, not owned: valid until its surface changes.
public struct PixelTarget: Equatable {
    public let pixels: UnsafeMutablePointer<UInt32>
    public let width: Int
    public let height: Int
    /// Pixels from one row to the next.
    public let stride: Int

    public init(pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int, stride: Int) {
        self.pixels = pixels
        self.width = width
        self.height = height
        self.stride = stride
    }

    /// A 32-bit surface whose words are 0x··RRGGBB (SDL's RGB888 or ARGB8888); nil otherwise.
    init?(surface s: UnsafeMutablePointer<SDL_Surface>) {
        let format = s.pointee.format.pointee.format
        guard format == SDL_PIXELFORMAT_RGB888.rawValue || format == SDL_PIXELFORMAT_ARGB8888.rawValue,
              let p = s.pointee.pixels, s.pointee.pitch % 4 == 0 else { return nil }
        self.init(pixels: p.assumingMemoryBound(to: UInt32.self), width: Int(s.pointee.w), height: Int(s.pointee.h),
                  stride: Int(s.pointee.pitch) / 4)
    }

    var mp: mp_target { mp_target(pixels: pixels, width: Int32(width), height: Int32(height), stride: Int32(stride)) }
    var whole: PixelBox { PixelBox(x0: 0, y0: 0, x1: Int32(width), y1: Int32(height)) }
}
