import FoundationEssentials
import Glibc
import Platform
import MapGeometry

/// Where the points of a GPX, KML, GeoJSON or CSV file lie: enough to show the user the
/// right part of the map when the desktop opens such a file. A file with nothing usable is an
/// error naming the file, the line when known, and the reason; bad points in a usable file
/// are listed in `problems`.
public struct GeoFileExtent: Sendable, Equatable {
    public var south: Double, west: Double, north: Double, east: Double
    public var pointCount: Int
    /// What was skipped (bad points, unreadable values), with lines: the rest is in the extent.
    public var problems: [GeoFileError]

    public init(south: Double, west: Double, north: Double, east: Double, pointCount: Int, problems: [GeoFileError] = []) {
        self.south = south; self.west = west; self.north = north; self.east = east
        self.pointCount = pointCount
        self.problems = problems
    }

    public var mapRect: MapRect {
        let a = WebMercator.project(Coordinate(latitude: north, longitude: west))
        let b = WebMercator.project(Coordinate(latitude: south, longitude: east))
        return MapRect(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y)
    }

    public static func read(_ url: URL) throws -> GeoFileExtent {
        let doc = try GeoDocument.read(url)
        var points = Accumulator()
        for t in doc.tracks { for k in 0..<t.points.count { _ = points.add(t.points.latitude[k], t.points.longitude[k]) } }
        for a in doc.areas { for ring in a.rings { for c in ring { _ = points.add(c.latitude, c.longitude) } } }
        for w in doc.waypoints { _ = points.add(w.latitude, w.longitude) }
        let problems = doc.problems
        guard var extent = points.extent else { throw problems.first ?? GeoDocument.noPoints(url) }
        extent.problems = problems
        return extent
    }

    struct Accumulator {
        var extent: GeoFileExtent?
        mutating func add(_ lat: Double, _ lon: Double) -> Bool {
            guard Coordinate(latitude: lat, longitude: lon).isValid else { return false }
            if var e = extent {
                e.south = min(e.south, lat); e.north = max(e.north, lat)
                e.west = min(e.west, lon); e.east = max(e.east, lon)
                e.pointCount += 1
                extent = e
            } else {
                extent = GeoFileExtent(south: lat, west: lon, north: lat, east: lon, pointCount: 1)
            }
            return true
        }
    }
}

public struct GeoFileError: Error, CustomStringConvertible, Sendable, Equatable {
    public let file: String
    public let line: Int?
    public let reason: String
    public var description: String { line.map { "\(file):\($0): \(reason)" } ?? "\(file): \(reason)" }
}
