import Foundation
import MapCore
import MapGraphics
import MapTiles
import Testing
import TestSupport

/// Sprite sheets from files: a real PNG is cut into icons; a picture that says it is larger
/// than 8192 a side, or is not a PNG, is refused with the file and the reason.
struct SpriteSheetTests {
    /// The folder and the sheet's base path, its index naming one icon, "dot".
    func files(_ picture: Data, named name: String) throws -> (base: String, dir: URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sprites-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let base = dir.appendingPathComponent("sprite").path
        try Data(#"{"dot": {"x": 2, "y": 1, "width": 8, "height": 6, "pixelRatio": 1}}"#.utf8).write(to: URL(fileURLWithPath: base + ".json"))
        try picture.write(to: URL(fileURLWithPath: base + ".png"))
        return (base, dir)
    }

    func sheet(_ picture: Data, named name: String) throws -> (SpriteSheet, URL) {
        let (base, dir) = try files(picture, named: name)
        return (try SpriteSheet(base: base), dir)
    }

    @Test func aRealSheetIsCutIntoIcons() throws {
        let (sheet, dir) = try sheet(try ImageFixture.data("gradient-300x200.png"), named: "real")
        defer { try? FileManager.default.removeItem(at: dir) }
        let icon = try #require(sheet.icon("dot", scale: 1))
        let b = try IconPainter.paint(icon, pixelRatio: 1)
        #expect(b.width == 8 && b.height == 6)
        // The gradient runs from red at the top to blue at the bottom: near the top, red.
        #expect(b.pixel(x: 4, y: 0) >> 16 & 0xFF > 0xE0, "\(String(b.pixel(x: 4, y: 0), radix: 16))")
    }

    /// Refused when the sheet is read, before any icon is asked for (an icon that could never
    /// be cut would have its label wait for it on every frame).
    @Test func aBombSheetIsRefusedBeforeItIsDecoded() throws {
        let (base, dir) = try files(ImageFixture.blackPNG(width: 9000, height: 16), named: "bomb")
        defer { try? FileManager.default.removeItem(at: dir) }
        let error = #expect(throws: TileSourceError.self) { try SpriteSheet(base: base) }
        #expect(error?.description == "\(base).png: sprite sheet: PNG picture is 9000×16 pixels, more than 8192×8192")
    }

    @Test func aSheetThatIsNotAPNGIsRefused() throws {
        let (base, dir) = try files(try ImageFixture.data("baseline-7x3.jpg"), named: "jpeg")
        defer { try? FileManager.default.removeItem(at: dir) }
        let error = #expect(throws: TileSourceError.self) { try SpriteSheet(base: base) }
        #expect(error?.description == "\(base).png: sprite sheet is JPEG, not PNG")
    }

    /// An icon the index places beyond the picture is left out; the others are kept.
    @Test func iconsOutsideThePictureAreLeftOut() throws {
        let (base, dir) = try files(try ImageFixture.data("gradient-300x200.png"), named: "outside")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(#"{"dot": {"x": 2, "y": 1, "width": 8, "height": 6}, "far": {"x": 296, "y": 0, "width": 8, "height": 6}}"#.utf8)
            .write(to: URL(fileURLWithPath: base + ".json"))
        let sheet = try SpriteSheet(base: base)
        #expect(sheet.icon("dot", scale: 1) != nil && sheet.icon("far", scale: 1) == nil && sheet.count == 1)
    }

    /// No icon is larger than 256 points, whatever icon-size says — a NaN or infinite one
    /// included (fuzz-sprites found a NaN drawing a 1024-pixel icon at a ratio of ½ 2048 wide).
    @Test func noIconIsLargerThan256Points() throws {
        let header = ImageHeader(format: .png, width: 1024, height: 1024)
        let sheet = try SpriteSheet(index: Data(#"{"big": {"x": 0, "y": 0, "width": 1024, "height": 1024, "pixelRatio": 0.5}}"#.utf8),
                                    named: "big.json", picture: "big.png", header: header)
        for scale in [1.0, 8, .nan, .infinity, -.infinity, 0] {
            let size = try #require(sheet.icon("big", scale: scale)).size
            #expect(size.width <= 256 + 1e-9 && size.height <= 256 + 1e-9, "icon-size \(scale): \(size)")
        }
    }
}
