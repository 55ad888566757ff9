import FoundationEssentials
import Glibc

/// Pixels in memory: 32-bit ARGB words (0xAARRGGBB in native order, as Cairo's ARGB32 and
/// SDL's ARGB8888 both lay them out), row after row with no padding.
public struct Bitmap: Sendable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt32]
    /// Cairo premultiplies colour by alpha; SDL's blending wants straight alpha.
    public var premultiplied: Bool

    public init(width: Int, height: Int, pixels: [UInt32], premultiplied: Bool) {
        precondition(pixels.count == width * height, "bitmap size mismatch")
        self.width = width
        self.height = height
        self.pixels = pixels
        self.premultiplied = premultiplied
    }

    public var byteCount: Int { width * height * 4 }

    public func pixel(x: Int, y: Int) -> UInt32 { pixels[y * width + x] }

    /// Converts premultiplied pixels to straight alpha, once, before upload.
    public mutating func unpremultiply() {
        guard premultiplied else { return }
        pixels.withUnsafeMutableBufferPointer { buf in
            for i in buf.indices {
                let p = buf[i]
                let a = p >> 24
                if a == 255 || a == 0 { continue }
                func ch(_ shift: UInt32) -> UInt32 { min(255, (((p >> shift) & 0xff) * 255 + a / 2) / a) }
                buf[i] = (a << 24) | (ch(16) << 16) | (ch(8) << 8) | ch(0)
            }
        }
        premultiplied = false
    }
}
