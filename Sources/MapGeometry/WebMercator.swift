import FoundationEssentials
import Glibc

/// The spherical Web Mercator projection (EPSG:3857) used by every slippy map.
public enum WebMercator {
    /// World units across the whole world (zoom 0 tile size).
    public static let worldSize = 256.0
    /// WGS84 equatorial radius, the sphere EPSG:3857 uses.
    public static let earthRadius = 6_378_137.0
    public static var earthCircumference: Double { 2 * .pi * earthRadius }

    public static func project(_ c: Coordinate) -> MapPoint {
        let lat = min(max(c.latitude, -Coordinate.maxMercatorLatitude), Coordinate.maxMercatorLatitude)
        let x = (c.longitude + 180) / 360 * worldSize
        let s = sin(lat * .pi / 180)
        let y = (0.5 - log((1 + s) / (1 - s)) / (4 * .pi)) * worldSize
        return MapPoint(x: x, y: y)
    }

    /// Inverse of `project`. X outside the world is kept (longitudes beyond ±180) so that
    /// callers can wrap when they choose to.
    public static func unproject(_ p: MapPoint) -> Coordinate {
        let lon = p.x / worldSize * 360 - 180
        let n = .pi - 2 * .pi * p.y / worldSize
        let lat = atan(sinh(n)) * 180 / .pi
        return Coordinate(latitude: lat, longitude: lon)
    }

    /// Meters on the ground covered by one world unit at a latitude (cosine law).
    public static func metersPerMapPoint(atLatitude lat: Double) -> Double {
        earthCircumference * cos(lat * .pi / 180) / worldSize
    }

    /// World units spanned by `meters` at a latitude.
    public static func mapPoints(forMeters meters: Double, atLatitude lat: Double) -> Double {
        meters / metersPerMapPoint(atLatitude: lat)
    }

    public static func mapRect(for region: CoordinateRegion) -> MapRect {
        let nw = project(Coordinate(latitude: region.center.latitude + region.latitudeDelta / 2,
                                    longitude: region.center.longitude - region.longitudeDelta / 2))
        let se = project(Coordinate(latitude: region.center.latitude - region.latitudeDelta / 2,
                                    longitude: region.center.longitude + region.longitudeDelta / 2))
        return MapRect(x: nw.x, y: nw.y, width: se.x - nw.x, height: se.y - nw.y)
    }

    public static func region(for rect: MapRect) -> CoordinateRegion {
        let nw = unproject(rect.origin)
        let se = unproject(MapPoint(x: rect.maxX, y: rect.maxY))
        let center = unproject(rect.center)
        return CoordinateRegion(center: center, latitudeDelta: nw.latitude - se.latitude,
                                longitudeDelta: se.longitude - nw.longitude)
    }

    /// X wrapped into [0, worldSize).
    public static func wrapX(_ x: Double) -> Double {
        var w = x.truncatingRemainder(dividingBy: worldSize)
        if w < 0 { w += worldSize }
        return w
    }
}
