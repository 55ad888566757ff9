import FoundationEssentials
import Platform

/// The format and pixel size of an encoded picture, read from its first bytes in plain Swift,
/// before any decoder sees it. A decoder allocates what the header declares: a 1 MB PNG may
/// say it is 16000×16000 and cost a gigabyte once decoded (a decompression bomb). Reading the
/// header first lets a reader refuse such a picture for the price of a few dozen bytes.
///
/// Only the three formats tiles and sprite sheets come in are known (PNG, JPEG, WebP); the
/// format read here also picks the decoder, so no other decoder ever sees hostile bytes.
public struct ImageHeader: Sendable, Equatable {
    public enum Format: String, Sendable, CaseIterable {
        case png = "PNG", jpeg = "JPEG", webp = "WebP"
    }

    public let format: Format
    public let width: Int
    public let height: Int

    /// The largest side of a raster tile: 4096 is a 1024-pixel tile at 4× (real tiles are 256
    /// or 512), and 4096² ARGB pixels are 64 MiB, a bound a tile worker can afford.
    public static let maxTileSide = 4096

    public init(format: Format, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// Reads the header of `data`; throws when the format is none of the three, the header is
    /// cut short or malformed, a side is 0, or a side is more than `maxSide`. The reason is a
    /// sentence, as "PNG picture is 16000×16000 pixels, more than 4096×4096".
    public init(_ data: Data, maxSide: Int = .max) throws {
        let header = try data.withUnsafeBytes { try Self.read(Bytes(raw: $0)) }
        guard header.width > 0, header.height > 0 else {
            // TRANSLATORS: %1$@ is a picture format (PNG, JPEG, WebP), %2$@×%3$@ its width and height.
            throw TileSourceError(tr("%1$@ picture is %2$@×%3$@ pixels: nothing to draw", header.format.rawValue, header.width, header.height))
        }
        guard header.width <= maxSide, header.height <= maxSide else {
            // TRANSLATORS: %1$@ is a picture format (PNG, JPEG, WebP), %2$@×%3$@ its width and height, %4$@ the largest side allowed.
            throw TileSourceError(tr("%1$@ picture is %2$@×%3$@ pixels, more than %4$@×%4$@", header.format.rawValue, header.width, header.height, maxSide))
        }
        self = header
    }

    /// Bounds-checked reads: every integer is read through these, so a short header is an
    /// error naming what was cut, never an index out of range.
    struct Bytes {
        let raw: UnsafeRawBufferPointer
        var count: Int { raw.count }

        /// `cutShort`: the whole sentence said when the bytes are not there.
        func has(_ offset: Int, _ length: Int, _ cutShort: @autoclosure () -> String) throws {
            guard offset >= 0, length >= 0, offset <= raw.count - length else { throw TileSourceError(cutShort()) }
        }
        func byte(_ i: Int) -> UInt8 { raw[i] }
        func matches(_ offset: Int, _ text: [UInt8]) -> Bool {
            offset >= 0 && offset <= raw.count - text.count && text.indices.allSatisfy { raw[offset + $0] == text[$0] }
        }
        func bigEndian(_ offset: Int, _ length: Int) -> Int {
            (0..<length).reduce(0) { $0 << 8 | Int(raw[offset + $1]) }
        }
        func littleEndian(_ offset: Int, _ length: Int) -> Int {
            (0..<length).reversed().reduce(0) { $0 << 8 | Int(raw[offset + $1]) }
        }
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func read(_ b: Bytes) throws -> ImageHeader {
        if b.matches(0, pngSignature) { return try png(b) }
        if b.matches(0, [0xFF, 0xD8, 0xFF]) { return try jpeg(b) }
        if b.matches(0, Array("RIFF".utf8)), b.matches(8, Array("WEBP".utf8)) { return try webp(b) }
        // The start of a signature, cut short, is a truncated picture, not an unknown format.
        let head = (0..<min(b.count, 12)).map(b.byte)
        // TRANSLATORS: %@ is a picture format (PNG, JPEG, WebP).
        if !head.isEmpty, let format = cutShort(head) { throw TileSourceError(tr("%@ header is cut short", format.rawValue)) }
        guard b.count > 0 else { throw TileSourceError(tr("not a PNG, JPEG or WebP picture (%@ bytes, none)", b.count)) }
        // TRANSLATORS: %1$@ is a number of bytes, %2$@ the first of them in hexadecimal ("3c 21 44 4f").
        throw TileSourceError(tr("not a PNG, JPEG or WebP picture (%1$@ bytes, starting %2$@)", b.count, prefixHex(b)))
    }

    /// The format whose signature `head` begins but stops inside (WebP's is "RIFF", its
    /// size and "WEBP": 12 bytes).
    static func cutShort(_ head: [UInt8]) -> Format? {
        if head.count < 8, pngSignature.starts(with: head) { return .png }
        if head.count < 3, [0xFF, 0xD8, 0xFF].starts(with: head) { return .jpeg }
        let riff = Array("RIFF".utf8)
        if head.count < 12, riff.starts(with: head) || head.starts(with: riff) { return .webp }
        return nil
    }

    /// The first bytes in hex, so that an error shows what came instead (HTML from a proxy,
    /// a GIF, a gzip stream).
    static func prefixHex(_ b: Bytes) -> String {
        let hex = Array("0123456789abcdef")
        return (0..<min(b.count, 8)).map { i in String([hex[Int(b.byte(i) >> 4)], hex[Int(b.byte(i) & 15)]]) }.joined(separator: " ")
    }

    /// PNG: the signature, then the IHDR chunk, which the specification puts first (libpng
    /// refuses a file where it is not): length 13, "IHDR", width and height as 31-bit numbers.
    static func png(_ b: Bytes) throws -> ImageHeader {
        try b.has(0, 24, tr("PNG header is cut short"))
        guard b.bigEndian(8, 4) == 13, b.matches(12, Array("IHDR".utf8)) else {
            throw TileSourceError(tr("PNG does not begin with its IHDR chunk"))
        }
        let w = b.bigEndian(16, 4), h = b.bigEndian(20, 4)
        guard w < 1 << 31, h < 1 << 31 else { throw TileSourceError(tr("PNG size %@×%@ is past the format's 2³¹ − 1", w, h)) }
        return ImageHeader(format: .png, width: w, height: h)
    }

    /// Whether every chunk of the PNG `data` lies inside it, up to IEND. libpng believes a
    /// chunk's declared length and asks for that many bytes, so a 1 KB picture whose IDAT
    /// claims 28 MB keeps a decoder busy for seconds on bytes that are not there: refused here.
    public static func checkPNGChunks(_ data: Data) throws {
        try data.withUnsafeBytes { raw in
            let b = Bytes(raw: raw)
            var at = 8
            while true {
                try b.has(at, 8, tr("PNG chunk header is cut short"))
                let length = b.bigEndian(at, 4)
                guard length <= b.count - at - 12 else {
                    // TRANSLATORS: %1$@ is a byte offset, %2$@ and %3$@ numbers of bytes.
                    throw TileSourceError(tr("PNG is cut short: its chunk at byte %1$@ claims %2$@ bytes, and the picture has %3$@", at, length, b.count))
                }
                if b.matches(at + 4, Array("IEND".utf8)) { return }
                at += 12 + length
            }
        }
    }

    /// JPEG: markers from SOI to the first frame header (SOF0…SOF15 but DHT, JPG and DAC, which
    /// share the range), skipping other segments by their length; the frame header holds
    /// precision, height, width. Bytes between segments are skipped up to the next 0xFF, as
    /// libjpeg does, so that the size found here is the one libjpeg will use.
    static func jpeg(_ b: Bytes) throws -> ImageHeader {
        var i = 2
        while true {
            while i < b.count, b.byte(i) != 0xFF { i += 1 }
            while i < b.count, b.byte(i) == 0xFF { i += 1 }  // fill bytes
            guard i < b.count else { throw TileSourceError(tr("JPEG ends before its frame header (cut short)")) }
            let marker = b.byte(i)
            i += 1
            switch marker {
            case 0x00, 0x01, 0xD0...0xD7: continue  // stuffed zero, TEM, restarts: no length
            case 0xD8: throw TileSourceError(tr("JPEG has a second start of image before its frame header"))
            case 0xDA: throw TileSourceError(tr("JPEG has no frame header before its scan"))
            case 0xD9: throw TileSourceError(tr("JPEG has no frame header before its end"))
            default: break
            }
            try b.has(i, 2, tr("JPEG segment length is cut short"))
            let length = b.bigEndian(i, 2)
            guard length >= 2 else { throw TileSourceError(tr("JPEG segment of length %1$@ at byte %2$@", length, i)) }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                // length(2) precision(1) height(2) width(2)
                guard length >= 7 else { throw TileSourceError(tr("JPEG frame header of %@ bytes", length)) }
                try b.has(i, 7, tr("JPEG frame header is cut short"))
                return ImageHeader(format: .jpeg, width: b.bigEndian(i + 5, 2), height: b.bigEndian(i + 3, 2))
            }
            i += length
        }
    }

    /// WebP: "RIFF", size, "WEBP", then the first chunk: VP8X (extended: the canvas, which
    /// libwebp requires the image inside to match), VP8L (lossless) or "VP8 " (lossy key frame).
    static func webp(_ b: Bytes) throws -> ImageHeader {
        try b.has(12, 8, tr("WebP chunk header is cut short"))
        let chunk = 20
        if b.matches(12, Array("VP8X".utf8)) {
            // flags(4) canvas width − 1 (24 bits) canvas height − 1 (24 bits)
            try b.has(chunk, 10, tr("WebP VP8X chunk is cut short"))
            return ImageHeader(format: .webp, width: b.littleEndian(chunk + 4, 3) + 1, height: b.littleEndian(chunk + 7, 3) + 1)
        }
        if b.matches(12, Array("VP8L".utf8)) {
            // signature 0x2F, then 14 bits width − 1 and 14 bits height − 1, least significant first
            try b.has(chunk, 5, tr("WebP VP8L header is cut short"))
            guard b.byte(chunk) == 0x2F else { throw TileSourceError(tr("WebP VP8L chunk lacks its signature")) }
            let bits = b.littleEndian(chunk + 1, 4)
            return ImageHeader(format: .webp, width: (bits & 0x3FFF) + 1, height: (bits >> 14 & 0x3FFF) + 1)
        }
        if b.matches(12, Array("VP8 ".utf8)) {
            // frame tag(3) start code 9D 01 2A, then 14-bit width and height (2 bits of scale above)
            try b.has(chunk, 10, tr("WebP VP8 header is cut short"))
            guard b.byte(chunk) & 1 == 0 else { throw TileSourceError(tr("WebP VP8 chunk does not start with a key frame")) }
            guard b.matches(chunk + 3, [0x9D, 0x01, 0x2A]) else { throw TileSourceError(tr("WebP VP8 chunk lacks its start code")) }
            return ImageHeader(format: .webp, width: b.littleEndian(chunk + 6, 2) & 0x3FFF, height: b.littleEndian(chunk + 8, 2) & 0x3FFF)
        }
        throw TileSourceError(tr("WebP begins with an unknown chunk, not VP8, VP8L or VP8X"))
    }
}
