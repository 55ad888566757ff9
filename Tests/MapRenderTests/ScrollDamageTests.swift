import MapCore
import MapGeometry
@testable import MapRender
import Testing

/// A sliding map's frame is the last one scrolled, with the uncovered edges and what did not
/// slide drawn again, and nothing else.
struct ScrollDamageTests {
    let size = (w: 800, h: 600)
    let full = UnitRect(x: 0, y: 0, width: 1, height: 1)

    /// A map of 4×3 tiles seen with its corner at (x, y), a label on it, and the chrome (a
    /// scale bar) fixed on the window.
    func frame(at x: Double, _ y: Double, label: String = "Paris", more: [DrawCommand] = []) -> [DrawCommand] {
        var c: [DrawCommand] = [.clear(.noMap)]
        for ty in 0..<3 {
            for tx in 0..<4 {
                c.append(.tile(TileID(z: 3, x: tx, y: ty), layer: 0, source: full,
                               destination: ScreenRect(x: x + Double(tx) * 256, y: y + Double(ty) * 256, width: 256, height: 256), opacity: 1))
            }
        }
        c.append(.sprite(.text(label, .capital), destination: ScreenRect(x: x + 300.25, y: y + 200.5, width: 60, height: 14), opacity: 1))
        c += more
        c.append(.fillRect(ScreenRect(x: 10, y: 570, width: 120, height: 20), Color(hex: 0xFFFFFF)))
        return c
    }

    func covers(_ d: [PixelBox], _ x: Int32, _ y: Int32) -> Bool { d.contains { $0.x0 <= x && x < $0.x1 && $0.y0 <= y && y < $0.y1 } }

    @Test func aSlideScrollsAndDrawsOnlyTheUncoveredEdgesAndTheChrome() throws {
        // The map slid 30 points right and 20 up (a drag), at one pixel a point; the floats
        // of a camera that moved are not exactly those of the last frame plus the slide.
        let s = try #require(ScrollDamage(from: frame(at: -100, -50), to: frame(at: -70.000000001, -70), 1, width: size.w, height: size.h))
        #expect(s.dx == 30 && s.dy == -20)
        let d = s.boxes
        #expect(covers(d, 0, 300) && covers(d, 29, 300) && covers(d, 400, 599) && covers(d, 400, 580))   // the strips
        #expect(covers(d, 50, 580) && covers(d, 50, 560))               // the scale bar, where it is and where the copy put it
        #expect(!covers(d, 400, 300) && !covers(d, 240, 140))           // the map and its label slid: not drawn again
        #expect(d.reduce(0) { $0 + $1.area } < size.w * size.h / 4)
        // The scale bar lies across both strips: no pixel is in two boxes (the server draws a
        // turned tile box by box).
        for (i, a) in d.enumerated() { for b in d[(i + 1)...] { #expect(!a.intersects(b), "\(a) and \(b) overlap") } }
    }

    @Test func whatDidNotSlideWithTheMapIsDrawnAgain() throws {
        // A label that came in, and a label that went (a new placement).
        let s = try #require(ScrollDamage(from: frame(at: 0, 0), to: frame(at: 10, 0, label: "Lutèce"), 1, width: size.w, height: size.h))
        #expect(covers(s.boxes, 315, 205) && covers(s.boxes, 365, 205))
        // At two pixels a point, the slide is in pixels.
        let hi = try #require(ScrollDamage(from: frame(at: 0, 0), to: frame(at: 10, 5), 2, width: 1600, height: 1200))
        #expect(hi.dx == 20 && hi.dy == 10)
    }

    /// A picture taken in since the last frame (a tile drawn anew under the same command) is
    /// drawn again where it now is; the rest still slides.
    @Test func aRenewedPictureIsDrawnAgainAndTheRestSlides() throws {
        let tile = PixelBox(x0: 266, y0: 0, x1: 522, y1: 256)   // the tile (1, 0) after the slide
        let s = try #require(ScrollDamage(from: frame(at: 0, 0), to: frame(at: 10, 0), 1, width: size.w, height: size.h, renewed: [tile]))
        #expect(s.dx == 10 && covers(s.boxes, 300, 100) && covers(s.boxes, 521, 255))
        #expect(!covers(s.boxes, 600, 100) && !covers(s.boxes, 300, 400), "the other tiles slid")
        let plain = try #require(ScrollDamage(from: frame(at: 0, 0), to: frame(at: 10, 0), 1, width: size.w, height: size.h))
        #expect(!covers(plain.boxes, 300, 100))
    }

    /// Commands are matched one to one, however the frames order them: two alike (the same
    /// dot twice at one place) pair in their order, and one with no twin stays unmatched.
    @Test func commandsMatchOneToOneWhateverTheirOrder() {
        let dot = DrawCommand.sprite(.placeDot(capital: false), destination: ScreenRect(x: 5, y: 5, width: 4, height: 4), opacity: 1)
        let bar = DrawCommand.fillRect(ScreenRect(x: 10, y: 570, width: 120, height: 20), Color(hex: 0xFFFFFF))
        let tile = DrawCommand.tile(TileID(z: 3, x: 1, y: 1), layer: 0, source: full,
                                    destination: ScreenRect(x: 0, y: 0, width: 256, height: 256), opacity: 1)
        let old = [dot, bar, dot, tile], new = [tile, dot, dot, .clear(.noMap), bar]
        let (o, n) = ScrollDamage.match(ScrollDamage.placed(old, 1, width: size.w, height: size.h),
                                        ScrollDamage.placed(new, 1, width: size.w, height: size.h))
        #expect(o == [1, 4, 2, 0])
        #expect(n == [3, 0, 2, nil, 1])
        // Frames of a map drawn twice over with every command (hundreds) all match.
        let big = frame(at: 3, 4) + frame(at: 3, 4)
        let (bo, bn) = ScrollDamage.match(ScrollDamage.placed(big, 1, width: size.w, height: size.h),
                                          ScrollDamage.placed(big.reversed(), 1, width: size.w, height: size.h))
        #expect(!bo.contains(nil) && !bn.contains(nil))
        #expect(Set(bo.compactMap { $0 }).count == big.count)
    }

    @Test func noScrollForAFractionOfAPixelOrPaintOrderThatChanged() {
        #expect(ScrollDamage(from: frame(at: 0, 0), to: frame(at: 10.5, 0), 1, width: size.w, height: size.h) == nil)
        // Two sprites that overlap, swapped: what is in both is painted in another order.
        let a = DrawCommand.sprite(.text("A", .place), destination: ScreenRect(x: 400, y: 400, width: 40, height: 14), opacity: 1)
        let b = DrawCommand.sprite(.text("B", .place), destination: ScreenRect(x: 410, y: 400, width: 40, height: 14), opacity: 1)
        let shift = { (c: DrawCommand) -> DrawCommand in
            guard case let .sprite(k, r, o) = c else { return c }
            return .sprite(k, destination: ScreenRect(x: r.x + 10, y: r.y, width: r.width, height: r.height), opacity: o)
        }
        #expect(ScrollDamage(from: frame(at: 0, 0, more: [a, b]), to: frame(at: 10, 0, more: [shift(b), shift(a)]), 1, width: size.w, height: size.h) == nil)
        // A whole screen's slide, or more: nothing to keep.
        #expect(ScrollDamage(from: frame(at: 0, 0), to: frame(at: 900, 0), 1, width: size.w, height: size.h) == nil)
    }

    /// A turned map's tiles overlap only by their bounds: sorted by their distance to the
    /// centre, which a pan changes, they come in another order and still scroll. A tile of
    /// another zoom over them (a parent standing in) keeps its order.
    @Test func aTurnedMapScrollsWhateverTheOrderOfItsTiles() throws {
        func turned(at x: Double, reversed: Bool = false, parentFirst: Bool? = nil) -> [DrawCommand] {
            var tiles: [DrawCommand] = []
            for ty in 0..<3 {
                for tx in 0..<4 {
                    tiles.append(.tile(TileID(z: 3, x: tx, y: ty), layer: 0, source: full,
                                       destination: ScreenRect(x: x + Double(tx) * 256, y: Double(ty) * 256, width: 256, height: 256), opacity: 1, degrees: 30))
                }
            }
            if reversed { tiles.reverse() }
            let parent = DrawCommand.tile(TileID(z: 2, x: 0, y: 0), layer: 0, source: full,
                                          destination: ScreenRect(x: x + 100, y: 100, width: 512, height: 512), opacity: 1, degrees: 30)
            if let parentFirst { tiles.insert(parent, at: parentFirst ? 0 : tiles.count) }
            return [.clear(.noMap)] + tiles
        }
        #expect(ScrollDamage(from: turned(at: 0), to: turned(at: 10), 1, width: size.w, height: size.h) != nil)
        #expect(ScrollDamage(from: turned(at: 0), to: turned(at: 10, reversed: true), 1, width: size.w, height: size.h) != nil)
        #expect(ScrollDamage(from: turned(at: 0, parentFirst: true), to: turned(at: 10, parentFirst: false), 1, width: size.w, height: size.h) == nil)
    }
}
