import FoundationEssentials
import Glibc
import Platform

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

    public var description: String { String(cFormat: "%.6f,%.6f", latitude, longitude) }

    /// Parses "LAT,LON" as typed on a command line.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map(\.trimmed)
        guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) else { return nil }
        let c = Coordinate(latitude: lat, longitude: lon)
        guard c.isValid else { return nil }
        self = c
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
