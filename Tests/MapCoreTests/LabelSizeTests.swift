import Foundation
import MapCore
import MapGeometry
import Testing

/// A text sprite as wide as its letters at its look's size (0.6 em each, plus its halo's
/// padding), 1.3 ems high, in whole pixels as a rasterizer makes them: a label's size shows in
/// its box, with the rounding that steps between sizes.
struct SizedSprites: SpriteAvailability {
    func size(of sprite: SpriteKey) -> ScreenSize? {
        guard case let .text(s, .styled(look))? = sprite.spec(as: LabelSprite.self) else { return ScreenSize(width: 10, height: 10) }
        let pad = (look.haloWidth.rounded(.up) + 1) * 2
        return ScreenSize(width: (Double(s.count) * 0.6 * look.size).rounded(.up) + pad, height: (1.3 * look.size).rounded(.up) + pad)
    }
}

/// Text sizes follow the zoom continuously: a style's text-size that changes with the zoom is
/// drawn at the camera's zoom, not at its tile's, so that labels do not jump in size when the
/// view's tiles switch zoom.
struct LabelSizeTests {
    /// The style's text-size: 10 points at Meridian zoom 14, 20 at 18, in a straight line.
    static func textSize(_ z: Double) -> Double { min(max(10 + (z - 14) * 2.5, 10), 20) }

    let centre = Coordinate(latitude: 60.17, longitude: 24.94)
    func camera(_ zoom: Double) -> Camera { Camera(center: centre, zoom: zoom, viewportSize: ScreenSize(width: 800, height: 600)) }
    func at(_ dx: Double, _ dy: Double) -> MapPoint { camera(15).mapPoint(for: ScreenPoint(x: 400 + dx, y: 300 + dy)) }

    /// The labels a tile of zoom `z` gives: looks evaluated at its zoom (as a painter makes
    /// them, their text measured), with the style's sizes over the zoom when `curve`.
    func candidates(tileZoom z: Int, curve: Bool) -> [PlaceLabel] {
        let look = LabelLook(size: Self.textSize(Double(z)), haloWidth: 1)
        let sizes = curve ? TextSizeCurve(zoom: Double(z), size: Self.textSize) : nil
        var out: [PlaceLabel] = []
        for (i, name) in ["Kamppi", "Punavuori", "Kaartinkaupunki", "Ullanlinna", "Eira", "Kruununhaka"].enumerated() {
            let measured = ScreenSize(width: Double(name.count) * 0.6 * look.size, height: 1.2 * look.size)
            out.append(PlaceLabel(name: name, point: at(Double(i % 3) * 150 - 150, Double(i / 3) * 120 - 60), rank: 1, style: .styled(look),
                                  placement: .point(anchor: .top, offset: ScreenPoint(x: 0, y: 0.8 * look.size)), sizes: sizes,
                                  textBox: measured))
        }
        let path = [at(-400, 150), at(400, 170)]
        out.append(PlaceLabel(name: "Bulevardi", point: path[0], rank: 0, style: .styled(look), placement: .line(path, spacing: 250), sizes: sizes,
                              textBox: ScreenSize(width: 9 * 0.6 * look.size, height: 1.2 * look.size)))
        return out
    }

    /// A label's size as drawn: its text's box, or along a line, the span of its letters and
    /// their height.
    static func size(_ p: PlacedLabel, _ sprites: SpriteAvailability) -> ScreenSize {
        guard let a = p.glyphs.first, let b = p.glyphs.last else { return ScreenSize(width: p.text.width, height: p.text.height) }
        let h = (sprites.size(of: a.key)?.height ?? 0) * p.scale
        return ScreenSize(width: hypot(b.center.x - a.center.x, b.center.y - a.center.y), height: h)
    }

    /// The zoom script with labels: 14.3 → 16.7 → 14.3 in steps of 0.02, the view's tiles at
    /// the nearest whole zoom (they switch at 14.5, 15.5 and 16.5), labels held frame to frame.
    /// Returns the largest change of any label's width or height between two frames, and how
    /// many changes were over 2 points.
    func zoomScript(curve: Bool) -> (largest: Double, over2: Int, frames: Int) {
        let sprites = SizedSprites()
        var zooms = stride(from: 14.3, through: 16.7, by: 0.02).map { $0 }
        zooms += zooms.reversed().dropFirst()
        var memory = LabelMemory()
        var last: [String: ScreenSize] = [:]
        var largest = 0.0, over2 = 0
        for z in zooms {
            let cam = camera(z)
            let tileZoom = Int((z).rounded())
            let placed = LabelPlacer().place(candidates(tileZoom: tileZoom, curve: curve), camera: cam, sprites: sprites, previous: memory)
            memory = LabelMemory(placed, camera: cam)
            var now: [String: ScreenSize] = [:]
            for p in placed where now[p.place.name] == nil { now[p.place.name] = Self.size(p, sprites) }
            for (name, s) in now {
                guard let before = last[name] else { continue }
                let change = max(abs(s.width - before.width), abs(s.height - before.height))
                largest = max(largest, change)
                if change > 2 { over2 += 1 }
            }
            last = now
        }
        return (largest, over2, zooms.count)
    }

    @Test func labelsResizeSmoothlyThroughAZoom() {
        let smooth = zoomScript(curve: true)
        #expect(smooth.over2 == 0, "\(smooth.over2) changes over 2 pt, the largest \(smooth.largest) pt")
        // (What remains is a sprite's height rounded to whole pixels: about a point.)
        #expect(smooth.largest < 1.5, "largest change \(smooth.largest) pt")
        // Sized at their tiles' zoom, they jump where the tiles switch (40 times over 2 points
        // in the 241 frames, by up to 23).
        let stepped = zoomScript(curve: false)
        #expect(stepped.over2 > 0 && stepped.largest > 10, "\(stepped)")
    }

    /// At the zoom its look was made for a label is drawn at its sprite's own size (no
    /// resampling at rest); between whole zooms its size is the style's, in a straight line.
    @Test func theCurveIsExactAtItsOwnZoomAndLinearBetween() {
        let curve = TextSizeCurve(zoom: 15.3, size: { z in z < 15 ? 10 : 10 * pow(1.2, z - 15) })
        #expect(curve.scale(at: 15.3) == 1)
        #expect(abs(curve.size(at: 15.5) - (10 + 12) / 2) < 1e-9)
        #expect(abs(curve.scale(at: 16) * curve.size(at: 15.3) - 12) < 1e-9)
        #expect(curve.size(at: -3) == 10 && curve.size(at: 40) == curve.sizes.last)
        // Hostile sizes are bounded as a look's are.
        let wild = TextSizeCurve(zoom: 3, size: { z in z < 5 ? .nan : 1e9 })
        #expect(wild.sizes.allSatisfy { $0 >= 1 && $0 <= 64 } && wild.scale(at: 10).isFinite)
    }
}
