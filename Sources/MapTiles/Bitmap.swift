import FoundationEssentials
import Glibc
import Platform

/// Pixels in memory: 32-bit words, row after row with no padding. Cairo draws ARGB words
/// (0xAARRGGBB in native order, as SDL's ARGB8888); OpenGL keeps textures as RGBA bytes
/// (ABGR words) and converts anything else pixel by pixel on upload, so pictures bound for
/// such a texture are converted once on a worker (`convert(to:)`), not on the frame thread.
public struct Bitmap: Sendable {
    public enum ChannelOrder: Sendable {
        /// 0xAARRGGBB words: Cairo's ARGB32, SDL's ARGB8888.
        case argb
        /// 0xAABBGGRR words, R G B A in memory: SDL's ABGR8888, OpenGL's RGBA.
        case abgr
    }

    public let width: Int
    public let height: Int
    public var pixels: [UInt32]
    /// Cairo premultiplies colour by alpha; SDL's blending wants straight alpha.
    public var premultiplied: Bool
    public private(set) var order: ChannelOrder
    /// The same picture as drawing operations (a Cairo recording), when it was drawn for a
    /// page (PDF, SVG) rather than a screen; then `pixels` is empty.
    public var recording: (AnyObject & Sendable)?
    public var isRecording: Bool { recording != nil }

    /// A picture held as drawing operations only, `width`×`height` points.
    public init(width: Int, height: Int, recording: AnyObject & Sendable) {
        self.width = width
        self.height = height
        pixels = []
        premultiplied = true
        order = .argb
        self.recording = recording
    }

    public init(width: Int, height: Int, pixels: [UInt32], premultiplied: Bool, order: ChannelOrder = .argb) {
        precondition(pixels.count == width * height, "bitmap size mismatch")
        self.width = width
        self.height = height
        self.pixels = pixels
        self.premultiplied = premultiplied
        self.order = order
    }

    /// Swaps red and blue when `order` differs (the two orders are each other's mirror).
    public mutating func convert(to target: ChannelOrder) {
        guard target != order else { return }
        pixels.withUnsafeMutableBufferPointer { buf in
            for i in buf.indices {
                let p = buf[i]
                buf[i] = (p & 0xFF00_FF00) | ((p >> 16) & 0xFF) | ((p & 0xFF) << 16)
            }
        }
        order = target
    }

    public var byteCount: Int { width * height * 4 }

    public func pixel(x: Int, y: Int) -> UInt32 { pixels[y * width + x] }

    /// Multiplies straight-alpha colours by their alpha (what Cairo draws from).
    public mutating func premultiply() {
        guard !premultiplied else { return }
        pixels.withUnsafeMutableBufferPointer { buf in
            for i in buf.indices {
                let p = buf[i], a = p >> 24
                guard a < 255 else { continue }
                func ch(_ shift: UInt32) -> UInt32 { ((((p >> shift) & 0xFF) * a + 127) / 255) << shift }
                buf[i] = a << 24 | ch(16) | ch(8) | ch(0)
            }
        }
        premultiplied = true
    }

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

extension Bitmap {
    /// Lays the picture over an opaque `background` (0xRRGGBB), leaving every pixel opaque:
    /// tiles are the bottom of the map, so they are copied to the screen without blending.
    public mutating func flatten(over background: UInt32) {
        let br = (background >> 16) & 0xFF, bg = (background >> 8) & 0xFF, bb = background & 0xFF
        // Channels as stored: the high one is red in ARGB, blue in ABGR.
        let (bh, bl) = order == .abgr ? (bb, br) : (br, bb)
        let premultiplied = self.premultiplied
        pixels.withUnsafeMutableBufferPointer { buf in
            for i in buf.indices {
                let p = buf[i]
                let a = p >> 24
                if a == 255 { continue }
                func ch(_ shift: UInt32, _ under: UInt32) -> UInt32 {
                    let c = (p >> shift) & 0xFF
                    let top = premultiplied ? c * 255 : c * a
                    return (top + under * (255 - a) + 127) / 255
                }
                buf[i] = 0xFF00_0000 | (min(ch(16, bh), 255) << 16) | (min(ch(8, bg), 255) << 8) | min(ch(0, bl), 255)
            }
        }
        self.premultiplied = false
    }
}
