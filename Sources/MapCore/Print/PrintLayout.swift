import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// A printed map's page: the paper (or a size of one's own), its margins, and where on it go
/// the title, the map's frame and the footer (stated scale, north arrow). In points (1/72 in),
/// what PDF and SVG measure in.
public struct PrintLayout: Sendable, Equatable {
    public let width: Double, height: Double
    /// Blank paper around everything (none for a size given as `--size`: the picture is all).
    public let margin: Double
    public let title: String?
    /// Whether there is a footer (paper) or the map fills the size.
    public let furnished: Bool

    /// Papers by name, portrait, in points.
    public static let papers: [String: (Double, Double)] = [
        "a5": (419.528, 595.276), "a4": (595.276, 841.890), "a3": (841.890, 1190.551),
        "letter": (612, 792), "legal": (612, 1008),
    ]
    public static let millimetre = 72 / 25.4

    public struct Invalid: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// `paper`: "a4", "a4,landscape", "letter"…; margins of 10 mm, a title band when titled.
    public init(paper: String, title: String? = nil) throws {
        let parts = paper.lowercased().split(separator: ",").map { $0.trimmed }
        guard let name = parts.first, let (w, h) = Self.papers[name], parts.count <= 2,
              parts.count == 1 || ["landscape", "portrait"].contains(parts[1]) else {
            // TRANSLATORS: %@ is the paper asked for; the paper names and ",landscape" are typed as they are.
            throw Invalid(description: tr("paper \"%@\": one of a5, a4, a3, letter, legal, optionally with ,landscape", paper.prefix(40)))
        }
        let landscape = parts.count == 2 && parts[1] == "landscape"
        (width, height) = landscape ? (h, w) : (w, h)
        margin = 10 * Self.millimetre
        self.title = title.flatMap { $0.isEmpty ? nil : $0 }
        furnished = true
    }

    /// A page of exactly `width`×`height` points holding only the map (what `--size` gives).
    public init(width: Double, height: Double, title: String? = nil) {
        self.width = width
        self.height = height
        margin = 0
        self.title = title.flatMap { $0.isEmpty ? nil : $0 }
        furnished = false
    }

    public static let titleBand = 30.0
    public static let footerBand = 26.0

    /// Where the map goes on the page.
    public var mapFrame: ScreenRect {
        let top = margin + (title != nil && furnished ? Self.titleBand : 0)
        let bottom = margin + (furnished ? Self.footerBand : 0)
        return ScreenRect(x: margin, y: top, width: width - 2 * margin, height: height - top - bottom)
    }

    /// The footer's band under the map.
    public var footer: ScreenRect {
        let f = mapFrame
        return ScreenRect(x: f.x, y: f.y + f.height, width: f.width, height: furnished ? Self.footerBand : 0)
    }

    /// Metres on the ground per point on paper at zoom `zoom` and latitude `latitude`.
    public static func groundMetresPerPoint(zoom: Double, latitude: Double) -> Double {
        WebMercator.metersPerMapPoint(atLatitude: latitude) / pow(2, zoom)
    }

    /// The zoom at which the page shows `1:scale` at `latitude`: one point of paper (0.3528
    /// mm) is `scale` times as much ground.
    public static func zoom(forScale scale: Double, latitude: Double) -> Double {
        let paperMetresPerPoint = 0.0254 / 72
        return log2(WebMercator.metersPerMapPoint(atLatitude: latitude) / (scale * paperMetresPerPoint))
    }

    /// The scale 1:N the page has at `zoom` and `latitude`.
    public static func scale(zoom: Double, latitude: Double) -> Double {
        groundMetresPerPoint(zoom: zoom, latitude: latitude) / (0.0254 / 72)
    }

    /// "1:25 000": the denominator rounded to three significant figures, in groups of three.
    public static func statedScale(_ n: Double) -> String {
        guard n.isFinite, n >= 1 else { return "" }
        let digits = Int(saturating: floor(log10(n))) + 1
        let unit = digits > 3 ? pow(10, Double(digits - 3)) : 1
        let rounded = Int(saturating: (n / unit).rounded() * unit)
        var text = String(rounded), grouped = ""
        while text.count > 3 { grouped = " " + text.suffix(3) + grouped; text = String(text.dropLast(3)) }
        return "1:" + text + grouped
    }
}
