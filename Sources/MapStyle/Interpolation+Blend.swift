import Glibc
import MapCore
import Platform

extension Interpolation {
    /// How far x is from `lower` to `upper`, 0...1, shaped by the curve. Never NaN: a base
    /// so large that its powers overflow behaves as a step at the upper stop.
    func factor(_ x: Double, from lower: Double, to upper: Double) -> Double {
        let difference = upper - lower, progress = x - lower
        guard difference > 0, difference.isFinite else { return 0 }
        var t: Double
        switch self {
        case .linear: t = progress / difference
        case let .exponential(base):
            if base == 1 || base <= 0 {
                t = progress / difference
            } else {
                // MapLibre's exponentialInterpolation.
                t = (pow(base, progress) - 1) / (pow(base, difference) - 1)
                if !t.isFinite { t = base > 1 ? (progress >= difference ? 1 : 0) : progress / difference }
            }
        case let .cubicBezier(x1, y1, x2, y2):
            t = UnitBezier(x1, y1, x2, y2).solve(progress / difference)
        }
        return t.isNaN ? 0 : min(1, max(0, t))
    }
}

/// A cubic Bézier easing from (0,0) to (1,1), as WebKit's UnitBezier solves it: a few Newton
/// steps, then bisection, both bounded.
struct UnitBezier {
    let ax, bx, cx, ay, by, cy: Double

    init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        cx = 3 * x1; bx = 3 * (x2 - x1) - cx; ax = 1 - cx - bx
        cy = 3 * y1; by = 3 * (y2 - y1) - cy; ay = 1 - cy - by
    }

    private func x(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    private func y(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    private func dx(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    func solve(_ target: Double) -> Double {
        let target = min(1, max(0, target))
        var t = target
        for _ in 0..<8 {
            let err = x(t) - target
            if abs(err) < 1e-7 { return y(t) }
            let d = dx(t)
            if abs(d) < 1e-6 { break }
            t -= err / d
        }
        var lo = 0.0, hi = 1.0
        t = target
        for _ in 0..<40 {
            let v = x(t)
            if abs(v - target) < 1e-7 { break }
            if target > v { lo = t } else { hi = t }
            t = (lo + hi) / 2
        }
        return y(t)
    }
}

enum Interpolate {
    /// a blended toward b by t: numbers, colours (premultiplied, as MapLibre blends them;
    /// colour strings are parsed first) and arrays of numbers of one length; else null.
    static func between(_ a: StyleValue, _ b: StyleValue, _ t: Double) -> StyleValue {
        switch (a, b) {
        case let (.number(x), .number(y)): return .number(x + (y - x) * t)
        case let (.array(xs), .array(ys)) where xs.count == ys.count:
            var out: [StyleValue] = []
            for (x, y) in zip(xs, ys) {
                guard case let .number(p) = x, case let .number(q) = y else { return .null }
                out.append(.number(p + (q - p) * t))
            }
            return .array(out)
        default:
            guard let c = color(a), let d = color(b) else { return .null }
            let alpha = c.a + (d.a - c.a) * t
            guard alpha > 0 else { return .color(Color(r: 0, g: 0, b: 0, a: 0)) }
            func mix(_ p: Double, _ q: Double) -> Double { CSSColor.clamp((p * c.a + (q * d.a - p * c.a) * t) / alpha) }
            return .color(Color(r: mix(c.r, d.r), g: mix(c.g, d.g), b: mix(c.b, d.b), a: CSSColor.clamp(alpha)))
        }
    }

    static func color(_ v: StyleValue) -> Color? {
        switch v {
        case let .color(c): return c
        case let .string(s): return CSSColor.parse(s)
        default: return nil
        }
    }
}
