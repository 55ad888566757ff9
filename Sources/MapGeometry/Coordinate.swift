import FoundationEssentials
import Glibc

/// A WGS84 position in degrees.
public struct Coordinate: Hashable, Sendable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Web Mercator cannot show the poles; this is where its square world ends.
    public static let maxMercatorLatitude = 85.05112877980659

    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    /// Latitude clamped to the Mercator range, longitude wrapped into [-180, 180).
    public var normalized: Coordinate {
        Coordinate(latitude: min(max(latitude, -Self.maxMercatorLatitude), Self.maxMercatorLatitude),
                   longitude: Coordinate.wrapLongitude(longitude))
    }

    public static func wrapLongitude(_ lon: Double) -> Double {
        var l = (lon + 180).truncatingRemainder(dividingBy: 360)
        if l < 0 { l += 360 }
        return l - 180
    }

    /// "LAT,LON" with six decimals (about 10 cm), as printf's %.6f writes them.
    public var description: String {
        // Two doubles of any size fit: %.6f of the largest is 316 characters.
        var buffer = [CChar](repeating: 0, count: 1024)
        _ = withVaList([latitude, longitude]) { vsnprintf(&buffer, buffer.count, "%.6f,%.6f", $0) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Parses "LAT,LON" as typed on a command line; spaces around each number are allowed.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(Self.withoutSpaces)
        guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) else { return nil }
        let c = Coordinate(latitude: lat, longitude: lon)
        guard c.isValid else { return nil }
        self = c
    }

    private static func withoutSpaces(_ s: Substring) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0.isNewline }
        var t = s.drop(while: isSpace)
        while let last = t.last, isSpace(last) { t = t.dropLast() }
        return t
    }
}

/// A latitude/longitude box, the unit in which people describe "show me this area".
public struct CoordinateRegion: Hashable, Sendable {
    public var center: Coordinate
    public var latitudeDelta: Double
    public var longitudeDelta: Double

    public init(center: Coordinate, latitudeDelta: Double, longitudeDelta: Double) {
        self.center = center
        self.latitudeDelta = latitudeDelta
        self.longitudeDelta = longitudeDelta
    }
}
