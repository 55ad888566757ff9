import FoundationEssentials
import Glibc

extension Simplify {
    /// Each point's Douglas–Peucker importance, computed once for every tolerance: keeping
    /// the points whose importance exceeds ε gives exactly `douglasPeucker(points, ε)`. A
    /// point's importance is its distance from the chord that split it off, capped by the
    /// importance of every split above it (a split the tolerance stops also stops those
    /// below it). Ends are infinitely important. Splits below `floor` are not pursued: their
    /// points get importance 0 (shown only when no simplification is asked for).
    ///
    /// A map then picks per zoom the points above half a pixel there, without simplifying
    /// anew: one pass of O(n log n) for a GPS track, instead of a Douglas–Peucker per zoom.
    public static func importance(_ points: [MapPoint], floor: Double = 0) -> [Double] {
        var out = [Double](repeating: 0, count: points.count)
        guard !points.isEmpty else { return out }
        out[0] = .infinity
        out[points.count - 1] = .infinity
        points.withUnsafeBufferPointer { p in out.withUnsafeMutableBufferPointer { importance(p, floor: floor, into: $0) } }
        return out
    }

    /// The same for a stretch of a larger array, written into `out` (as many as `points`,
    /// zeros) except at the two ends, which are the caller's: stretches that share an end can
    /// then be worked on by different threads.
    public static func importance(_ points: UnsafeBufferPointer<MapPoint>, floor: Double = 0, into out: UnsafeMutableBufferPointer<Double>) {
        guard points.count > 2 else { return }
        // (first, last, cap): the span between two kept points and the importance above it.
        var stack: [(Int, Int, Double)] = [(0, points.count - 1, .infinity)]
        let floor2 = floor * floor
        while let (a, b, cap) = stack.popLast() {
            guard b > a + 1 else { continue }
            var worst = -1.0, index = a
            let chord = Chord(points[a], points[b])
            for i in (a + 1)..<b {
                let d = chord.distanceSquared(points[i])
                if d > worst { worst = d; index = i }
            }
            guard worst > floor2 else { continue }
            let value = min(worst.squareRoot(), cap)
            out[index] = value
            stack.append((a, index, value))
            stack.append((index, b, value))
        }
    }
}
