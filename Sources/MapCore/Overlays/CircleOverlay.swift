import FoundationEssentials
import Glibc
import Platform
import MapGeometry

/// How a circle is painted. The pulse's opacity multiplies all of it.
public struct CircleStyle: Hashable, Sendable {
    public var fill: Color
    public var stroke: Color
    /// Rim width in points.
    public var lineWidth: Double

    public init(fill: Color, stroke: Color, lineWidth: Double = 1.5) {
        self.fill = fill; self.stroke = stroke; self.lineWidth = lineWidth
    }

    /// A translucent fill and a solid rim of one colour.
    public init(color: Color) {
        self.init(fill: Color(r: color.r, g: color.g, b: color.b, a: 0.55), stroke: color)
    }
}

/// A circle on the map: an estimated region whose radius is in meters (so it grows and
/// shrinks with zoom), or a fixed size in points. It may pulse.
public struct CircleOverlay: Hashable, Sendable {
    public var center: Coordinate
    public var radiusMeters: Double
    /// When set, the circle keeps this on-screen radius at every zoom.
    public var fixedRadiusPoints: Double?
    public var style: CircleStyle
    /// Nil: a still circle.
    public var pulse: CirclePulse?
    /// When its pulse started (clock time).
    public var start: Double

    public init(center: Coordinate, radiusMeters: Double, color: Color = .systemBlue, style: CircleStyle? = nil,
                pulse: CirclePulse? = CirclePulse(), fixedRadiusPoints: Double? = nil, start: Double = 0) {
        self.center = center
        self.radiusMeters = radiusMeters
        self.style = style ?? CircleStyle(color: color)
        self.pulse = pulse
        self.fixedRadiusPoints = fixedRadiusPoints
        self.start = start
    }

    /// The radius in points at a camera's zoom: meters × points per meter at the circle's latitude.
    public func radiusPoints(camera: Camera) -> Double {
        fixedRadiusPoints ?? Camera.points(forMeters: radiusMeters, atLatitude: center.latitude, zoom: camera.zoom)
    }
}

extension Camera {
    /// On-screen points spanned by `meters` at a latitude and zoom.
    public static func points(forMeters meters: Double, atLatitude lat: Double, zoom: Double) -> Double {
        // Mercator ends at ±85.05°: nearer the poles a meter would span unboundedly many points.
        let shown = min(max(lat, -Coordinate.maxMercatorLatitude), Coordinate.maxMercatorLatitude)
        return WebMercator.mapPoints(forMeters: meters, atLatitude: shown) * pow(2, zoom)
    }
}

extension Color {
    /// iOS's system blue (0, 122, 255), the location dot's default.
    public static let systemBlue = Color(r: 0, g: 122.0 / 255, b: 1)

    /// "#RRGGBB", "RRGGBB" or a few names, as typed on a command line.
    public init?(parsing text: String) {
        let named: [String: UInt32] = ["blue": 0x007AFF, "red": 0xFF3B30, "green": 0x34C759, "orange": 0xFF9500,
                                       "purple": 0xAF52DE, "pink": 0xFF2D55, "teal": 0x30B0C7, "yellow": 0xFFCC00,
                                       "gray": 0x8E8E93, "grey": 0x8E8E93, "black": 0x000000]
        let t = text.lowercased().trimmed
        if let hex = named[t] { self.init(hex: hex); return }
        let digits = t.hasPrefix("#") ? String(t.dropFirst()) : t
        guard digits.count == 6, let v = UInt32(digits, radix: 16) else { return nil }
        self.init(hex: v)
    }

    /// "#RRGGBB" (alpha left out): what `init?(parsing:)` reads back.
    public var hexString: String {
        String(cFormat: "#%02X%02X%02X", Color.byte(r), Color.byte(g), Color.byte(b))
    }
}
