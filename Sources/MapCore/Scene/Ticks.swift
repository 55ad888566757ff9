import FoundationEssentials
import Platform

/// The round values an axis or a grid marks.
public enum Ticks {
    /// The multiples of `step` from `lo` through `hi`, at most `limit` of them. None when a
    /// number is not finite, and no more once adding `step` no longer moves past the last:
    /// heights of 1e20 m a metre apart must not loop forever (`x += step` would stand still).
    public static func multiples(of step: Double, from lo: Double, through hi: Double, limit: Int = 64) -> [Double] {
        guard lo.isFinite, hi.isFinite, step.isFinite, step > 0, lo <= hi else { return [] }
        let first = (lo / step).rounded(.up)
        var out: [Double] = []
        for k in 0..<max(limit, 0) {
            let v = (first + Double(k)) * step
            guard v <= hi else { break }
            if let last = out.last, v <= last { break }
            out.append(v)
        }
        return out
    }
}
