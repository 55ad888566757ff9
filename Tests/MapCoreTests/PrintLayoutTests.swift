import Foundation
import MapCore
import MapGeometry
import Testing

/// The printed page's arithmetic: papers in points, the frame inside the margins, the zoom
/// that gives a scale (and back), and the scale as the footer states it.
struct PrintLayoutTests {
    @Test("Papers", arguments: [
        ("a4", 595.276, 841.890), ("A4,landscape", 841.890, 595.276), ("a3", 841.890, 1190.551), ("a5", 419.528, 595.276),
        ("letter", 612.0, 792.0), ("legal,portrait", 612.0, 1008.0),
    ])
    func papers(name: String, width: Double, height: Double) throws {
        let page = try PrintLayout(paper: name)
        #expect(abs(page.width - width) < 0.01 && abs(page.height - height) < 0.01)
        // 10 mm margins; the footer under the map; no title band without a title.
        let f = page.mapFrame
        #expect(abs(f.x - 28.3465) < 0.01 && abs(f.y - 28.3465) < 0.01)
        #expect(abs(f.y + f.height + PrintLayout.footerBand + 28.3465 - height) < 0.01)
    }

    @Test("Not papers", arguments: ["a6", "a4,sideways", "a4,landscape,twice", "", "letter;landscape"])
    func notPapers(name: String) {
        #expect(throws: PrintLayout.Invalid.self) { try PrintLayout(paper: name) }
    }

    @Test func aTitleTakesItsBandAndASizeIsAllMap() throws {
        let titled = try PrintLayout(paper: "a4", title: "Walk")
        #expect(titled.mapFrame.y == titled.margin + PrintLayout.titleBand)
        let plain = PrintLayout(width: 500, height: 400)
        #expect(plain.mapFrame == ScreenRect(x: 0, y: 0, width: 500, height: 400) && !plain.furnished)
    }

    @Test("Scales", arguments: [(60.17, 25_000.0), (0.0, 10_000.0), (48.85, 1_000_000.0), (-33.9, 5_000.0)])
    func zoomForAScaleGivesThatScale(latitude: Double, scale: Double) {
        let z = PrintLayout.zoom(forScale: scale, latitude: latitude)
        #expect(abs(PrintLayout.scale(zoom: z, latitude: latitude) / scale - 1) < 1e-12)
        // 1 mm of paper (2.8346 points) is `scale` mm of ground.
        let metresPerMillimetre = PrintLayout.groundMetresPerPoint(zoom: z, latitude: latitude) * 72 / 25.4
        #expect(abs(metresPerMillimetre - scale / 1000) < 1e-9 * scale)
    }

    @Test func aKnownZoom() {
        // At the equator a point of zoom 0 is 40,075,016.686 / 256 = 156,543.03 m; at
        // 1:10 000 a point of paper (0.0254 / 72 m) is 3.52778 m: 2^z = 44,374.6, z = 15.4374.
        let z = PrintLayout.zoom(forScale: 10_000, latitude: 0)
        #expect(abs(z - 15.4374) < 0.0001, "\(z)")
    }

    @Test("Stated scales", arguments: [(25_000.0, "1:25 000"), (24_987.0, "1:25 000"), (5_000.0, "1:5 000"), (1_234_567.0, "1:1 230 000"),
                                       (500.0, "1:500"), (10_000_000.0, "1:10 000 000")])
    func statedScales(n: Double, text: String) {
        #expect(PrintLayout.statedScale(n) == text)
    }
}
