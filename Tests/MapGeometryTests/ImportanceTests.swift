import Foundation
import MapGeometry
import Testing

struct ImportanceTests {
    /// A wandering walk, like a GPS track with turns and jitter.
    func walk(_ n: Int, seed: UInt64) -> [MapPoint] {
        var s = seed
        func r() -> Double { s = s &* 6364136223846793005 &+ 1442695040888963407; return Double(s >> 11) / Double(1 << 53) - 0.5 }
        var x = 100.0, y = 100.0, heading = 0.0
        return (0..<n).map { _ in
            heading += r() * 0.8
            x += cos(heading) * 0.01 + r() * 0.002
            y += sin(heading) * 0.01 + r() * 0.002
            return MapPoint(x: x, y: y)
        }
    }

    @Test func keepingWhatExceedsAToleranceIsDouglasPeuckerAtThatTolerance() {
        for seed in 1...5 as ClosedRange<UInt64> {
            let pts = walk(3000, seed: seed)
            let imp = Simplify.importance(pts)
            for eps in [0.0005, 0.002, 0.01, 0.05, 0.3] {
                let kept = pts.indices.filter { imp[$0] > eps }.map { pts[$0] }
                #expect(kept == Simplify.douglasPeucker(pts, tolerance: eps), "seed \(seed) ε \(eps)")
            }
        }
    }

    /// The property the map relies on: every dropped point lies within the tolerance of the
    /// kept line between its kept neighbours.
    @Test func everyDroppedPointIsWithinTheToleranceOfTheKeptLine() {
        let pts = walk(5000, seed: 42)
        let imp = Simplify.importance(pts)
        for eps in [0.001, 0.01, 0.1] {
            var last = 0
            for i in 1..<pts.count where imp[i] > eps {
                for j in (last + 1)..<i {
                    let d = Simplify.segmentDistanceSquared(pts[j], pts[last], pts[i]).squareRoot()
                    #expect(d <= eps + 1e-12, "point \(j) is \(d) from the kept line at ε \(eps)")
                }
                last = i
            }
            #expect(last == pts.count - 1)
        }
    }

    @Test func endsAlwaysStayAndAFloorStopsTheDeepSplits() {
        let pts = walk(1000, seed: 9)
        let imp = Simplify.importance(pts, floor: 0.01)
        #expect(imp.first == .infinity && imp.last == .infinity)
        #expect(imp.allSatisfy { $0 == 0 || $0 > 0.01 })
        #expect(Simplify.importance([]).isEmpty)
        #expect(Simplify.importance([MapPoint(x: 1, y: 1)]) == [.infinity])
    }
}
