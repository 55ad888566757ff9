import FoundationEssentials
import Glibc

/// Douglas–Peucker line simplification: drops points that lie within `tolerance` of the
/// line through their neighbours. Iterative (no recursion depth limit on long coastlines).
public enum Simplify {
    public static func douglasPeucker(_ points: [MapPoint], tolerance: Double) -> [MapPoint] {
        guard points.count > 2, tolerance > 0 else { return points }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var stack = [(0, points.count - 1)]
        let t2 = tolerance * tolerance
        while let (a, b) = stack.popLast() {
            guard b > a + 1 else { continue }
            var worst = -1.0, index = a
            let chord = Chord(points[a], points[b])
            for i in (a + 1)..<b {
                let d = chord.distanceSquared(points[i])
                if d > worst { worst = d; index = i }
            }
            if worst > t2 {
                keep[index] = true
                stack.append((a, index))
                stack.append((index, b))
            }
        }
        var out: [MapPoint] = []
        out.reserveCapacity(points.count / 4)
        for (i, p) in points.enumerated() where keep[i] { out.append(p) }
        return out
    }

    /// Squared distance from p to the segment ab.
    public static func segmentDistanceSquared(_ p: MapPoint, _ a: MapPoint, _ b: MapPoint) -> Double {
        Chord(a, b).distanceSquared(p)
    }

    /// The segment from `a` to `b`, made once to measure many points from it: a split of a
    /// million-point track measures twenty million, and a division each was a third of it.
    public struct Chord {
        let a: MapPoint, dx: Double, dy: Double, inverse: Double

        public init(_ a: MapPoint, _ b: MapPoint) {
            self.a = a
            dx = b.x - a.x
            dy = b.y - a.y
            let len2 = dx * dx + dy * dy
            inverse = len2 > 0 ? 1 / len2 : 0
        }

        /// Squared distance from `p` to the segment.
        @inline(__always)
        public func distanceSquared(_ p: MapPoint) -> Double {
            let u = ((p.x - a.x) * dx + (p.y - a.y) * dy) * inverse
            // Onto the segment (NaN, from a point without coordinates, stays NaN: never the worst).
            let t = u < 0 ? 0 : u > 1 ? 1 : u
            let ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y
            return ex * ex + ey * ey
        }
    }

    /// Twice the signed area of a ring (shoelace). Positive for clockwise rings on a y-down
    /// plane, which is how MVT wants exterior rings.
    public static func signedArea2(_ ring: [MapPoint]) -> Double {
        guard ring.count > 2 else { return 0 }
        var s = 0.0
        var j = ring.count - 1
        for i in 0..<ring.count {
            s += (ring[j].x * ring[i].y) - (ring[i].x * ring[j].y)
            j = i
        }
        return s
    }
}
