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
        let data: Data
        do { data = try FileIO.read(url.path) } catch let e as FileReadError {
            throw GeoFileError(file: url.path, line: nil, reason: "cannot be read (\(e.reason))")
        }
        let ext = url.pathExtension.lowercased()
        let looksXML = data.prefix(64).contains(UInt8(ascii: "<"))
        let doc: GeoDocument
        if ext == "csv" || ext == "tsv" {
            doc = try CSVTrackReader(file: url.path).read(data)
        } else if ext == "kml" {
            doc = try KMLReader(file: url.path).read(data)
        } else if ext == "gpx" || (ext != "geojson" && ext != "json" && looksXML) {
            doc = try GPXReader(file: url.path).read(data)
        } else {
            doc = try GeoJSONReader(file: url.path).read(data)
        }
        var points = Accumulator()
        for t in doc.tracks { for k in 0..<t.points.count { _ = points.add(t.points.latitude[k], t.points.longitude[k]) } }
        for a in doc.areas { for ring in a.rings { for c in ring { _ = points.add(c.latitude, c.longitude) } } }
        for w in doc.waypoints { _ = points.add(w.latitude, w.longitude) }
        let problems = doc.problems
        guard var extent = points.extent else { throw problems.first ?? GeoFileError(file: url.path, line: nil, reason: "holds no points") }
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
