import Foundation
import MapTiles
@testable import MapRender
import Testing
import TestSupport

/// libpng (PNG) and SDL2_image (JPEG, WebP) behind the header check: real files decode at their size and colour; the bomb,
/// other formats and broken bodies are errors with a reason, before or by the decoder.
struct ImageDecoderTests {
    @Test("Real files decode at their size", arguments: [
        ("rgb-3x5.png", 3, 5), ("gradient-300x200.png", 300, 200), ("baseline-7x3.jpg", 7, 3), ("progressive-9x4.jpg", 9, 4),
        ("lossy-5x6.webp", 5, 6), ("lossless-6x7.webp", 6, 7), ("alpha-4x3.webp", 4, 3),
    ])
    func realFilesDecode(name: String, width: Int, height: Int) throws {
        let b = try ImageDecoder.decode(try ImageFixture.data(name))
        #expect(b.width == width && b.height == height && b.pixels.count == width * height)
    }

    @Test func coloursSurviveTheDecode() throws {
        // ARGB words, straight alpha: #336699 opaque; lossless purple #800080; red at half alpha.
        #expect(try ImageDecoder.decode(try ImageFixture.data("rgb-3x5.png")).pixel(x: 2, y: 4) == 0xFF33_6699)
        #expect(try ImageDecoder.decode(try ImageFixture.data("lossless-6x7.webp")).pixel(x: 0, y: 0) == 0xFF80_0080)
        let alpha = try ImageDecoder.decode(try ImageFixture.data("alpha-4x3.webp")).pixel(x: 1, y: 1)
        #expect(abs(Int(alpha >> 24) - 128) <= 2 && alpha >> 16 & 0xFF > 0xF0, "\(String(alpha, radix: 16))")
    }

    /// Every kind of PNG a tile server or an .mbtiles writes comes out as straight-alpha ARGB.
    @Test func everyPNGColourTypeDecodesToItsColours() throws {
        // Palette with transparency: rgba(0, 128, 255, 0.25).
        #expect(try ImageDecoder.decode(try ImageFixture.data("rgba-4x4.png")).pixel(x: 3, y: 3) == 0x4000_80FF)
        // Interlaced (Adam7) palette: #c08040 everywhere, the last pass's pixels too.
        let interlaced = try ImageDecoder.decode(try ImageFixture.data("interlaced-5x5.png"))
        #expect(interlaced.pixels.allSatisfy { $0 == 0xFFC0_8040 })
        // 16-bit RGB, red to blue from top to bottom.
        let gradient = try ImageDecoder.decode(try ImageFixture.data("gradient-300x200.png"))
        #expect(gradient.pixel(x: 0, y: 0) == 0xFFFF_0000 && gradient.pixel(x: 299, y: 199) == 0xFF00_00FF)
        // 16-bit grey with alpha: 50 % grey at half opacity.
        let grey = try ImageDecoder.decode(try ImageFixture.data("graya-2x2.png")).pixel(x: 1, y: 1)
        for channel in [24, 16, 8, 0] { #expect(abs(Int(grey >> UInt32(channel) & 0xFF) - 127) <= 1, "\(String(grey, radix: 16))") }
    }

    @Test func theBombIsRefusedBeforeItIsDecoded() throws {
        let bomb = ImageFixture.blackPNG(width: 16000, height: 16000)
        let error = #expect(throws: TileSourceError.self) { try ImageDecoder.decode(bomb) }
        #expect(error?.description == "PNG picture is 16000×16000 pixels, more than 4096×4096")
        // The same file within a larger bound is a real picture: the refusal was the size alone.
        let small = ImageFixture.blackPNG(width: 300, height: 20)
        #expect(try ImageDecoder.decode(small).pixel(x: 299, y: 19) == 0xFF00_0000)
        #expect(throws: TileSourceError.self) { try ImageDecoder.decode(small, maxSide: 256) }
    }

    @Test func aFormatSDLImageKnowsButTilesDoNotIsRefused() throws {
        // A 1×1 GIF: SDL2_image would decode it; no tile format is GIF.
        let gif: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0, 0x3B]
        let error = #expect(throws: TileSourceError.self) { try ImageDecoder.decode(Data(gif)) }
        #expect(error?.description.hasPrefix("not a PNG, JPEG or WebP picture") == true)
    }

    @Test("A body cut short is the decoder's error, not a crash", arguments: ["gradient-300x200.png", "baseline-7x3.jpg", "lossy-5x6.webp", "lossless-6x7.webp"])
    func aBodyCutShortIsAnError(name: String) throws {
        let data = try ImageFixture.data(name)
        // A small picture cut short may lose part of its header (the header reader says so),
        // a larger one part of its pixels (the decoder does).
        let error = #expect(throws: (any Error).self) { try ImageDecoder.decode(data.prefix(data.count * 2 / 3)) }
        let said = error.map { "\($0)" } ?? ""
        #expect(said.hasPrefix("not a decodable") || said.contains("cut short"), "\(said)")
    }

    /// The fuzzer's find: 844 bytes whose IDAT claims 28 MB kept libpng reading for seconds.
    /// Refused from the chunk lengths, before the decoder.
    @Test func aChunkLongerThanThePictureIsRefusedBeforeDecoding() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/Regressions/fuzz-image/idat-claims-28mb.png")
        let data = try Data(contentsOf: file)
        let error = #expect(throws: TileSourceError.self) { try ImageDecoder.decode(data) }
        #expect(error?.description.contains("claims 28509331 bytes") == true, "\(String(describing: error))")
    }
}
