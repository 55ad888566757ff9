import CPixels
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

    var mp: mp_target { mp_target(pixels: pixels, width: Int32(width), height: Int32(height), stride: Int32(stride)) }
    var whole: PixelBox { PixelBox(x0: 0, y0: 0, x1: Int32(width), y1: Int32(height)) }
}
