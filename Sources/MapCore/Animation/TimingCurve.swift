import FoundationEssentials
import Glibc
import Platform

/// A timing function as Core Animation defines them: a cubic Bézier from (0,0) to (1,1)
/// with control points (x1,y1) and (x2,y2), mapping elapsed fraction to progress.
public struct TimingCurve: Hashable, Sendable {
    public let x1: Double, y1: Double, x2: Double, y2: Double

    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
    }

    public static let linear = TimingCurve(0, 0, 1, 1)
    public static let easeIn = TimingCurve(0.42, 0, 1, 1)
    public static let easeOut = TimingCurve(0, 0, 0.58, 1)
    public static let easeInEaseOut = TimingCurve(0.42, 0, 0.58, 1)

    /// Progress at elapsed fraction `t` (clamped to 0…1).
    public func value(at t: Double) -> Double {
        let t = min(max(t, 0), 1)
        if x1 == y1 && x2 == y2 { return t }
        let s = solveParameter(forX: t)
        return Self.bezier(s, y1, y2)
    }

    /// The elapsed fraction at which the curve reaches `progress` (curves here are monotonic).
    public func time(forProgress progress: Double) -> Double {
        var lo = 0.0, hi = 1.0
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if value(at: mid) < progress { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }

    // B(s) for one axis with end points 0 and 1.
    private static func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
    }

    private static func derivative(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * p1 + 6 * u * s * (p2 - p1) + 3 * s * s * (1 - p2)
    }

    /// Finds s with x(s) = x: Newton's method, falling back to bisection where the slope is flat.
    private func solveParameter(forX x: Double) -> Double {
        var s = x
        for _ in 0..<8 {
            let err = Self.bezier(s, x1, x2) - x
            if abs(err) < 1e-9 { return s }
            let d = Self.derivative(s, x1, x2)
            if abs(d) < 1e-6 { break }
            s -= err / d
        }
        var lo = 0.0, hi = 1.0
        s = x
        for _ in 0..<60 {
            let v = Self.bezier(s, x1, x2)
            if abs(v - x) < 1e-10 { break }
            if v < x { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return s
    }
}
