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
        let metersPerPoint = WebMercator.metersPerMapPoint(atLatitude: camera.centerCoordinate.latitude) / camera.scale
        let maxMeters = metersPerPoint * maxWidth
        if imperial {
            let feet = maxMeters * 3.280839895
            if feet >= 5280 {
                let miles = nice(feet / 5280)
                return ScaleBar(width: miles * 1609.344 / metersPerPoint, label: tr("%@ mi", format(miles)))
            }
            let f = nice(feet)
            return ScaleBar(width: f * 0.3048 / metersPerPoint, label: tr("%@ ft", format(f)))
        }
        let m = nice(maxMeters)
        // TRANSLATORS: the scale bar's length; %@ is the number ("500", "0.5").
        return m >= 1000 ? ScaleBar(width: m / metersPerPoint, label: tr("%@ km", format(m / 1000)))
                         : ScaleBar(width: m / metersPerPoint, label: tr("%@ m", format(m)))
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
