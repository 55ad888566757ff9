import FoundationEssentials
import Glibc
import Platform
import MapGeometry

/// The scale bar: the longest round distance (1, 2 or 5 × 10ⁿ) that fits in `maxWidth`
/// points at the centre of the view, in metric or imperial units.
public struct ScaleBar: Hashable, Sendable {
    public var width: Double
    public var label: String

    public static func make(camera: Camera, imperial: Bool, maxWidth: Double = 110) -> ScaleBar {
        let s = span(camera: camera, imperial: imperial, maxWidth: maxWidth)
        return ScaleBar(width: s.width, label: s.label)
    }

    /// The bar's length in a unit, without its label: a pan changes the width a little with
    /// each frame, the label only when the round length does (`ChromeLayer` keeps it).
    struct Span: Equatable {
        enum Unit { case metres, kilometres, feet, miles }
        var width: Double, amount: Double, unit: Unit

        var label: String {
            switch unit {
            case .miles: return tr("%@ mi", format(amount))
            case .feet: return tr("%@ ft", format(amount))
            // TRANSLATORS: the scale bar's length; %@ is the number ("500", "0.5").
            case .kilometres: return tr("%@ km", format(amount))
            case .metres: return tr("%@ m", format(amount))
            }
        }

        func sameLength(as other: Span) -> Bool { amount == other.amount && unit == other.unit }
    }

    static func span(camera: Camera, imperial: Bool, maxWidth: Double = 110) -> Span {
        let metersPerPoint = WebMercator.metersPerMapPoint(atLatitude: camera.centerCoordinate.latitude) / camera.scale
        let maxMeters = metersPerPoint * maxWidth
        if imperial {
            let feet = maxMeters * 3.280839895
            if feet >= 5280 {
                let miles = nice(feet / 5280)
                return Span(width: miles * 1609.344 / metersPerPoint, amount: miles, unit: .miles)
            }
            let f = nice(feet)
            return Span(width: f * 0.3048 / metersPerPoint, amount: f, unit: .feet)
        }
        let m = nice(maxMeters)
        return m >= 1000 ? Span(width: m / metersPerPoint, amount: m / 1000, unit: .kilometres) : Span(width: m / metersPerPoint, amount: m, unit: .metres)
    }

    /// The largest 1, 2 or 5 × 10ⁿ not above v.
    static func nice(_ v: Double) -> Double {
        guard v > 0 else { return 0 }
        let p = pow(10, floor(log10(v)))
        for k in [5.0, 2, 1] where k * p <= v * (1 + 1e-12) { return k * p }
        return p
    }

    /// The number as the reader writes it ("0.5", "0,5").
    static func format(_ v: Double) -> String {
        Localization.numbers.localized(v == v.rounded() ? String(Int(saturating: v)) : String(cFormat: "%g", v))
    }
}
