import MapCore
import MapGraphics
import MapTiles
import Testing

/// An app's own kind of sprite, drawn by a painter it registers (MeridianKit: a layer of an
/// app's own with pictures of its own).
struct SpritePaintersTests {
    struct Stamp: SpriteSpec { var side: Int }
    enum StampPainter: SpritePainter {
        static func paint(_ spec: Stamp, pixelRatio: Double) throws -> Bitmap {
            Bitmap(width: spec.side, height: spec.side, pixels: Array(repeating: 0xFF00_80FF, count: spec.side * spec.side), premultiplied: true)
        }
    }
    struct Unregistered: SpriteSpec {}

    @Test func aRegisteredPainterDrawsItsKindAndTheOthersStayDrawn() throws {
        #expect(throws: UnknownSpriteError.self) { try SpritePainters.paint(SpriteKey(Unregistered()), pixelRatio: 1) }
        SpritePainters.register(StampPainter.self)
        let stamp = try SpritePainters.paint(SpriteKey(Stamp(side: 5)), pixelRatio: 1)
        #expect(stamp.width == 5 && stamp.height == 5)
        let text = try SpritePainters.paint(.text("Helsinki", .chrome), pixelRatio: 1)
        #expect(text.width > 10)
    }
}
