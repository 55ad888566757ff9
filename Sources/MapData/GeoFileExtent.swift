import FoundationEssentials
import Glibc
import Platform
import MapGeometry

/// Where the points of a GPX or GeoJSON file lie: enough to show the user the right part of
/// the map when the desktop opens such a file. Bad files are errors that name the file, the
/// line when known, and the reason.
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
        var points = Accumulator()
        var problems: [GeoFileError] = []
        if ext == "csv" || ext == "tsv" {
            let doc = try CSVTrackReader(file: url.path).read(data)
            problems = doc.problems
            for t in doc.tracks { for k in 0..<t.points.count { _ = points.add(t.points.latitude[k], t.points.longitude[k]) } }
        } else if ext == "gpx" || (ext != "geojson" && ext != "json" && looksXML) {
            problems = try readGPX(data, url, into: &points)
        } else {
            try readGeoJSON(data, url, into: &points)
        }
        guard var extent = points.extent else { throw problems.first ?? GeoFileError(file: url.path, line: nil, reason: "holds no points") }
        extent.problems = problems
        return extent
    }

    struct Accumulator {
        var extent: GeoFileExtent?
        mutating func add(_ lat: Double, _ lon: Double) -> Bool {
            guard lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else { return false }
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

    /// Returns what the reader skipped.
    private static func readGPX(_ data: Data, _ url: URL, into points: inout Accumulator) throws -> [GeoFileError] {
        let doc = try GPXReader(file: url.path).read(data)
        for t in doc.tracks {
            for k in 0..<t.points.count { _ = points.add(t.points.latitude[k], t.points.longitude[k]) }
        }
        for w in doc.waypoints { _ = points.add(w.latitude, w.longitude) }
        return doc.problems
    }

    private static func readGeoJSON(_ data: Data, _ url: URL, into points: inout Accumulator) throws {
        let root: JSONValue
        do { root = try JSONValue.parse(data) } catch {
            throw GeoFileError(file: url.path, line: nil, reason: "\(error)")
        }
        guard root["type"]?.string != nil else {
            throw GeoFileError(file: url.path, line: nil, reason: "not a GeoJSON object (no \"type\")")
        }
        // Every position in every geometry: arrays whose first two members are numbers.
        func walk(_ v: JSONValue, depth: Int) throws {
            // Nesting deeper than any geometry needs is a hostile file, not a map.
            guard depth < 64 else { throw GeoFileError(file: url.path, line: nil, reason: "nested deeper than 64 levels") }
            if let a = v.array {
                if a.count >= 2, let lon = a[0].number, let lat = a[1].number {
                    guard points.add(lat, lon) else {
                        throw GeoFileError(file: url.path, line: nil, reason: "coordinates out of range (\(lon), \(lat))")
                    }
                } else {
                    for x in a { try walk(x, depth: depth + 1) }
                }
            } else if v.object != nil {
                for key in ["coordinates", "geometry", "geometries", "features"] { if let x = v[key] { try walk(x, depth: depth + 1) } }
            }
        }
        try walk(root, depth: 0)
    }
}

public struct GeoFileError: Error, CustomStringConvertible, Sendable, Equatable {
    public let file: String
    public let line: Int?
    public let reason: String
    public var description: String { line.map { "\(file):\($0): \(reason)" } ?? "\(file): \(reason)" }
}
