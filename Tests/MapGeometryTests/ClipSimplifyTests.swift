import Foundation
import MapGeometry
import Testing

struct ClipSimplifyTests {
    let box = MapRect(x: 0, y: 0, width: 10, height: 10)

    @Test func ringInsideIsUntouchedOutsideIsGone() {
        let inside = [MapPoint(x: 1, y: 1), MapPoint(x: 5, y: 1), MapPoint(x: 5, y: 5)]
        #expect(Clip.ring(inside, to: box) == inside)
        #expect(Clip.ring(inside.map { MapPoint(x: $0.x + 20, y: $0.y) }, to: box).isEmpty)
    }

    @Test func ringCoveringTheBoxBecomesTheBox() {
        let big = [MapPoint(x: -5, y: -5), MapPoint(x: 15, y: -5), MapPoint(x: 15, y: 15), MapPoint(x: -5, y: 15)]
        let c = Clip.ring(big, to: box)
        #expect(abs(abs(Simplify.signedArea2(c)) / 2 - 100) < 1e-9)
        #expect(c.allSatisfy { box.insetBy(dx: -1e-9, dy: -1e-9).contains($0) || $0.x == 10 || $0.y == 10 })
    }

    @Test func clippedAreaIsTheIntersection() {
        // A triangle half in the box: area inside computed by hand = 12.5.
        let tri = [MapPoint(x: 5, y: 0), MapPoint(x: 15, y: 0), MapPoint(x: 5, y: 10)]
        #expect(abs(abs(Simplify.signedArea2(Clip.ring(tri, to: box))) / 2 - 37.5) < 1e-9)
    }

    @Test func linesAreCutIntoTheirInsideParts() {
        let zigzag = [MapPoint(x: -5, y: 5), MapPoint(x: 5, y: 5), MapPoint(x: 15, y: 5), MapPoint(x: 15, y: 8), MapPoint(x: 5, y: 8)]
        let parts = Clip.line(zigzag, to: box)
        #expect(parts.count == 2)
        #expect(parts[0] == [MapPoint(x: 0, y: 5), MapPoint(x: 5, y: 5), MapPoint(x: 10, y: 5)])
        #expect(parts[1] == [MapPoint(x: 10, y: 8), MapPoint(x: 5, y: 8)])
        #expect(Clip.line([MapPoint(x: 20, y: 20), MapPoint(x: 30, y: 30)], to: box).isEmpty)
    }

    @Test func douglasPeuckerKeepsCornersDropsNoise() {
        var pts: [MapPoint] = []
        for i in 0...100 { pts.append(MapPoint(x: Double(i), y: (i % 2 == 0 ? 0.01 : -0.01))) }
        pts.append(MapPoint(x: 100, y: 50))
        let s = Simplify.douglasPeucker(pts, tolerance: 0.1)
        #expect(s == [pts[0], pts[100], pts[101]])
        // Every dropped point is within tolerance of the simplified line.
        let s2 = Simplify.douglasPeucker(pts, tolerance: 0.005)
        #expect(s2.count == pts.count)
    }

    @Test func ringOrientation() {
        let clockwiseOnScreen = [MapPoint(x: 0, y: 0), MapPoint(x: 1, y: 0), MapPoint(x: 1, y: 1), MapPoint(x: 0, y: 1)]
        #expect(Simplify.signedArea2(clockwiseOnScreen) == 2)
        #expect(Simplify.signedArea2(clockwiseOnScreen.reversed()) == -2)
    }
}
