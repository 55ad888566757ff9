import Foundation
import MapCore
import MapGraphics
import MapTiles
import Testing
import TestSupport

/// Sprite sheets from files: a real PNG is cut into icons; a picture that says it is larger
/// than 8192 a side, or is not a PNG, is refused with the file and the reason.
struct SpriteSheetTests {
    func sheet(_ picture: Data, named name: String) throws -> (SpriteSheet, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sprites-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let base = dir.appendingPathComponent("sprite").path
        try Data(#"{"dot": {"x": 2, "y": 1, "width": 8, "height": 6, "pixelRatio": 1}}"#.utf8).write(to: URL(fileURLWithPath: base + ".json"))
        try picture.write(to: URL(fileURLWithPath: base + ".png"))
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

    @Test func aBombSheetIsRefusedBeforeItIsDecoded() throws {
        let (sheet, dir) = try sheet(ImageFixture.blackPNG(width: 9000, height: 16), named: "bomb")
        defer { try? FileManager.default.removeItem(at: dir) }
        let icon = try #require(sheet.icon("dot", scale: 1))
        let error = #expect(throws: CairoError.self) { try IconPainter.paint(icon, pixelRatio: 1) }
        #expect(error?.description == "\(sheet.picture): sprite sheet: PNG picture is 9000×16 pixels, more than 8192×8192")
    }

    @Test func aSheetThatIsNotAPNGIsRefused() throws {
        let (sheet, dir) = try sheet(try ImageFixture.data("baseline-7x3.jpg"), named: "jpeg")
        defer { try? FileManager.default.removeItem(at: dir) }
        let icon = try #require(sheet.icon("dot", scale: 1))
        let error = #expect(throws: CairoError.self) { try IconPainter.paint(icon, pixelRatio: 1) }
        #expect(error?.description == "\(sheet.picture): sprite sheet is JPEG, not PNG")
    }
}
