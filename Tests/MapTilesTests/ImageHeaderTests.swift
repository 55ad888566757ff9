import Foundation
import MapTiles
import Testing
import TestSupport

/// The header reader on real files from real encoders, on every cut of their headers, and on
/// crafted headers: the bomb, the limits, the markers that look like a frame header but are not.
struct ImageHeaderTests {
    static let files: [(name: String, format: ImageHeader.Format, width: Int, height: Int, headerBytes: Int)] = [
        ("rgb-3x5.png", .png, 3, 5, 24),
        ("gradient-300x200.png", .png, 300, 200, 24),
        ("baseline-7x3.jpg", .jpeg, 7, 3, 158 + 9),  // SOF0 at byte 158, after APP0 and two DQT
        ("progressive-9x4.jpg", .jpeg, 9, 4, 89 + 9),  // SOF2 at byte 89
        ("lossy-5x6.webp", .webp, 5, 6, 30),
        ("lossless-6x7.webp", .webp, 6, 7, 25),
        ("alpha-4x3.webp", .webp, 4, 3, 30),
    ]

    @Test(arguments: files)
    func readsTheSizeOfRealFiles(file: (name: String, format: ImageHeader.Format, width: Int, height: Int, headerBytes: Int)) throws {
        let data = try ImageFixture.data(file.name)
        #expect(try ImageHeader(data) == ImageHeader(format: file.format, width: file.width, height: file.height))
        // The header alone is enough: nothing past it is read.
        #expect(try ImageHeader(data.prefix(file.headerBytes)).width == file.width)
        // A slice of a larger buffer (Data whose indices do not start at 0) reads the same.
        var padded = Data([1, 2, 3])
        padded.append(data)
        #expect(try ImageHeader(padded[3...]).height == file.height)
    }

    @Test(arguments: files)
    func everyCutOfARealHeaderIsRefusedAsCutShort(file: (name: String, format: ImageHeader.Format, width: Int, height: Int, headerBytes: Int)) throws {
        let data = try ImageFixture.data(file.name)
        for n in 1..<file.headerBytes {
            let error = #expect(throws: TileSourceError.self) { try ImageHeader(data.prefix(n)) }
            #expect(error?.description.contains("cut short") == true, "\(file.name) cut at \(n): \(error?.description ?? "")")
            #expect(error?.description.contains(file.format.rawValue) == true, "\(file.name) cut at \(n): \(error?.description ?? "")")
        }
    }

    @Test func theBombIsRefusedWithItsSize() throws {
        let bomb = ImageFixture.blackPNG(width: 16000, height: 16000)
        #expect(bomb.count < 400_000)
        #expect(try ImageHeader(bomb) == ImageHeader(format: .png, width: 16000, height: 16000))
        let error = #expect(throws: TileSourceError.self) { try ImageHeader(bomb, maxSide: ImageHeader.maxTileSide) }
        #expect(error?.description == "PNG picture is 16000×16000 pixels, more than 4096×4096")
    }

    @Test("Each side is bounded, not the area", arguments: [
        (4096, 4096, true), (4097, 1, false), (1, 4097, false), (4096, 1, true), (0, 10, false), (10, 0, false),
        (0x7FFF_FFFF, 1, false),
    ])
    func theLimitIsEachSide(width: UInt32, height: UInt32, accepted: Bool) throws {
        let header = Data(ImageFixture.pngHeader(width: width, height: height))
        if accepted {
            #expect(try ImageHeader(header, maxSide: 4096).width == Int(width))
        } else {
            #expect(throws: TileSourceError.self) { try ImageHeader(header, maxSide: 4096) }
        }
    }

    @Test func aPNGSizeBeyondTheFormatIsRefused() {
        let error = #expect(throws: TileSourceError.self) { try ImageHeader(Data(ImageFixture.pngHeader(width: 0xFFFF_FFFF, height: 1))) }
        #expect(error?.description.contains("4294967295×1") == true, "\(error?.description ?? "")")
    }

    @Test func aPNGWhoseFirstChunkIsNotIHDRIsRefused() {
        var bytes = ImageFixture.pngHeader(width: 10, height: 10)
        bytes[12...15] = [0x43, 0x67, 0x42, 0x49]  // "CgBI", Apple's crushed PNG
        let error = #expect(throws: TileSourceError.self) { try ImageHeader(Data(bytes)) }
        #expect(error?.description == "PNG does not begin with its IHDR chunk")
    }

    /// SOI, then `segments`, each a marker and its body (the length is written here), with
    /// `between` before each but the first (a JPEG's first bytes are always FF D8 FF).
    static func jpeg(_ segments: [(marker: UInt8, body: [UInt8])], between: [UInt8] = []) -> Data {
        var out: [UInt8] = [0xFF, 0xD8]
        for (i, s) in segments.enumerated() {
            out += (i == 0 ? [] : between) + [0xFF, s.marker, UInt8((s.body.count + 2) >> 8), UInt8((s.body.count + 2) & 0xFF)] + s.body
        }
        return Data(out)
    }

    /// A frame header body: precision 8, height, width, one component.
    static func frame(width: Int, height: Int) -> [UInt8] {
        [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 1, 1, 0x11, 0]
    }

    @Test func jpegMarkersThatShareTheFrameRangeAreSkipped() throws {
        // DHT (C4), JPG (C8) and DAC (CC) sit among SOF0…SOF15 but are not frame headers.
        let data = Self.jpeg([(0xC4, [0, 1, 2, 3, 4, 5, 6]), (0xC8, [9, 9, 9, 9, 9, 9, 9]), (0xCC, [1, 2]), (0xC1, Self.frame(width: 640, height: 480))])
        #expect(try ImageHeader(data) == ImageHeader(format: .jpeg, width: 640, height: 480))
    }

    @Test func jpegBytesBetweenSegmentsAreSkippedAsLibjpegDoes() throws {
        let data = Self.jpeg([(0xE0, Array("JFIF\0".utf8)), (0xC0, Self.frame(width: 20000, height: 30000))], between: [0x00, 0x12, 0xFF])
        #expect(try ImageHeader(data) == ImageHeader(format: .jpeg, width: 20000, height: 30000))
        let error = #expect(throws: TileSourceError.self) { try ImageHeader(data, maxSide: 4096) }
        #expect(error?.description == "JPEG picture is 20000×30000 pixels, more than 4096×4096")
    }

    /// One JPEG segment (its marker and body) and the reason it is refused.
    static let jpegFaultCases: [(marker: UInt8, body: [UInt8], reason: String)] = [
        (0xDA, [UInt8](repeating: 0, count: 8), "no frame header before its scan"),
        (0xC0, [8, 0, 0, 0, 10, 1, 1, 0x11, 0], "JPEG picture is 10×0 pixels: nothing to draw"),
        (0xC0, [8, 0, 10], "JPEG frame header of 5 bytes"),
    ]

    @Test("JPEG faults", arguments: jpegFaultCases.indices)
    func jpegFaults(_ i: Int) {
        let (marker, body, reason) = Self.jpegFaultCases[i]
        let error = #expect(throws: TileSourceError.self) { try ImageHeader(Self.jpeg([(marker, body)])) }
        #expect(error?.description.contains(reason) == true, "\(error?.description ?? "")")
    }

    @Test func aJPEGSegmentLengthBelowTwoIsRefused() {
        let error = #expect(throws: TileSourceError.self) { try ImageHeader(Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01, 0, 0, 0])) }
        #expect(error?.description.contains("segment of length 1") == true, "\(error?.description ?? "")")
    }

    @Test func aWebPCanvasBombIsRefused() throws {
        // VP8X with a 16384×16384 canvas (sizes stored less one, 24 bits each).
        let bytes: [UInt8] = Array("RIFF".utf8) + [22, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0] + [0, 0, 0, 0]
            + [0xFF, 0x3F, 0x00] + [0xFF, 0x3F, 0x00]
        #expect(try ImageHeader(Data(bytes)) == ImageHeader(format: .webp, width: 16384, height: 16384))
        let error = #expect(throws: TileSourceError.self) { try ImageHeader(Data(bytes), maxSide: 4096) }
        #expect(error?.description == "WebP picture is 16384×16384 pixels, more than 4096×4096")
    }

    static let malformed: [(bytes: [UInt8], reason: String)] = [
        (Array("GIF89a\u{1}\0\u{1}\0".utf8), "not a PNG, JPEG or WebP picture (10 bytes, starting 47 49 46 38 39 61 01 00)"),
        (Array("<html>".utf8), "not a PNG, JPEG or WebP picture (6 bytes, starting 3c 68 74 6d 6c 3e)"),
        ([], "not a PNG, JPEG or WebP picture (0 bytes, none)"),
        (Array("RIFF\0\0\0\0WAVEfmt ".utf8), "not a PNG, JPEG or WebP picture (16 bytes, starting 52 49 46 46 00 00 00 00)"),
        (Array("RIFF\0\0\0\0WEBPALPH\0\0\0\0".utf8), "WebP begins with an unknown chunk, not VP8, VP8L or VP8X"),
        (Array("RIFF\0\0\0\0WEBPVP8L\0\0\0\0".utf8) + [0x2E, 0, 0, 0, 0], "WebP VP8L chunk lacks its signature"),
        (Array("RIFF\0\0\0\0WEBPVP8 \0\0\0\0".utf8) + [1, 0, 0, 0x9D, 1, 0x2A, 1, 0, 1, 0], "WebP VP8 chunk does not start with a key frame"),
        (Array("RIFF\0\0\0\0WEBPVP8 \0\0\0\0".utf8) + [0, 0, 0, 0x9D, 1, 0x2B, 1, 0, 1, 0], "WebP VP8 chunk lacks its start code"),
    ]

    @Test("Not a picture, or not one of the three", arguments: malformed.indices)
    func unknownAndMalformed(_ i: Int) {
        let (bytes, reason) = Self.malformed[i]
        let error = #expect(throws: TileSourceError.self) { try ImageHeader(Data(bytes)) }
        #expect(error?.description == reason)
    }
}
