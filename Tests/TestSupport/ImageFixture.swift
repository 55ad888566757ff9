import CZlib
import Foundation

/// Pictures for tests: the tiny real PNG, JPEG and WebP files in Tests/Fixtures/images (made
/// with ImageMagick, see the README there), and PNGs written here with zlib, among them the
/// decompression bomb: a valid file of a few hundred kilobytes whose IHDR says 16000×16000.
public enum ImageFixture {
    public static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/images")

    /// The bytes of Tests/Fixtures/images/`name`.
    public static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    public static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The signature and an IHDR chunk (8-bit grey) declaring `width`×`height`, nothing more.
    public static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        pngSignature + chunk("IHDR", bigEndian(width) + bigEndian(height) + [8, 0, 0, 0, 0])
    }

    /// A complete, valid 8-bit grey PNG of `width`×`height` black pixels. The rows are deflated
    /// as they are made, so a 16000×16000 picture (256 MB of pixels) is a 250 KB file made
    /// without holding its pixels.
    public static func blackPNG(width: Int, height: Int) -> Data {
        var s = z_stream()
        deflateInit_(&s, Z_BEST_COMPRESSION, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&s) }
        var idat: [UInt8] = []
        var row = [UInt8](repeating: 0, count: width + 1)  // filter byte 0, then the pixels
        var out = [UInt8](repeating: 0, count: 64 << 10)
        func pump(_ flush: Int32) {
            repeat {
                let produced: Int = out.withUnsafeMutableBufferPointer { o in
                    s.next_out = o.baseAddress
                    s.avail_out = UInt32(o.count)
                    deflate(&s, flush)
                    return o.count - Int(s.avail_out)
                }
                idat += out[0..<produced]
            } while s.avail_out == 0
        }
        for _ in 0..<height {
            row.withUnsafeMutableBufferPointer { r in
                s.next_in = r.baseAddress
                s.avail_in = UInt32(r.count)
                pump(Z_NO_FLUSH)
            }
        }
        s.next_in = nil
        s.avail_in = 0
        pump(Z_FINISH)
        return Data(pngHeader(width: UInt32(width), height: UInt32(height)) + chunk("IDAT", idat) + chunk("IEND", []))
    }

    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        let crc = typed.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
        return bigEndian(UInt32(body.count)) + typed + bigEndian(crc)
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
}
