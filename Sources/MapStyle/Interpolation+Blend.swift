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
            t = TimingCurve(x1, y1, x2, y2).value(at: progress / difference)  // the animations' curve
        }
        return t.isNaN ? 0 : min(1, max(0, t))
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
