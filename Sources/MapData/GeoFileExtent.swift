import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MapGeometry

/// Where the points of a GPX or GeoJSON file lie: enough to show the user the right part of
/// the map when the desktop opens such a file. Bad files are errors that name the file, the
/// line when known, and the reason.
public struct GeoFileExtent: Sendable, Equatable {
    public var south: Double, west: Double, north: Double, east: Double
    public var pointCount: Int

    public init(south: Double, west: Double, north: Double, east: Double, pointCount: Int) {
        self.south = south; self.west = west; self.north = north; self.east = east
        self.pointCount = pointCount
    }

    public var mapRect: MapRect {
        let a = WebMercator.project(Coordinate(latitude: north, longitude: west))
        let b = WebMercator.project(Coordinate(latitude: south, longitude: east))
        return MapRect(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y)
    }

    public static func read(_ url: URL) throws -> GeoFileExtent {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw GeoFileError(file: url.path, line: nil, reason: "cannot be read (\(error.localizedDescription))")
        }
        let ext = url.pathExtension.lowercased()
        let looksXML = data.prefix(64).contains(UInt8(ascii: "<"))
        var points = Accumulator()
        if ext == "gpx" || (ext != "geojson" && ext != "json" && looksXML) {
            try readGPX(data, url, into: &points)
        } else {
            try readGeoJSON(data, url, into: &points)
        }
        guard let extent = points.extent else { throw GeoFileError(file: url.path, line: nil, reason: "holds no points") }
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

    private static func readGPX(_ data: Data, _ url: URL, into points: inout Accumulator) throws {
        let reader = GPXPoints()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        if !parser.parse() || reader.problem != nil {
            let line = reader.problem?.line ?? parser.lineNumber
            let reason = reader.problem?.reason ?? "not well-formed XML (\(parser.parserError?.localizedDescription ?? "parse error"))"
            throw GeoFileError(file: url.path, line: line, reason: reason)
        }
        guard reader.sawGPX else { throw GeoFileError(file: url.path, line: 1, reason: "not a GPX document (no <gpx> element)") }
        for (lat, lon, line) in reader.points where !points.add(lat, lon) {
            throw GeoFileError(file: url.path, line: line, reason: "coordinates out of range (lat \(lat), lon \(lon))")
        }
    }

    private static func readGeoJSON(_ data: Data, _ url: URL, into points: inout Accumulator) throws {
        let root: Any
        do { root = try JSONSerialization.jsonObject(with: data) } catch {
            throw GeoFileError(file: url.path, line: nil, reason: "not valid JSON (\(error.localizedDescription))")
        }
        guard let obj = root as? [String: Any], obj["type"] is String else {
            throw GeoFileError(file: url.path, line: nil, reason: "not a GeoJSON object (no \"type\")")
        }
        // Every position in every geometry: arrays whose first two members are numbers.
        func walk(_ any: Any) throws {
            if let a = any as? [Any] {
                if a.count >= 2, let lon = (a[0] as? NSNumber)?.doubleValue, let lat = (a[1] as? NSNumber)?.doubleValue,
                   !(a[0] is [Any]) {
                    guard points.add(lat, lon) else {
                        throw GeoFileError(file: url.path, line: nil, reason: "coordinates out of range (\(lon), \(lat))")
                    }
                } else {
                    for x in a { try walk(x) }
                }
            } else if let d = any as? [String: Any] {
                for key in ["coordinates", "geometry", "geometries", "features"] { if let v = d[key] { try walk(v) } }
            }
        }
        try walk(obj)
    }
}

public struct GeoFileError: Error, CustomStringConvertible, Sendable {
    public let file: String
    public let line: Int?
    public let reason: String
    public var description: String { line.map { "\(file):\($0): \(reason)" } ?? "\(file): \(reason)" }
}

/// Collects the lat/lon of GPX track, route and way points (GPX 1.0 and 1.1).
private final class GPXPoints: NSObject, XMLParserDelegate {
    var points: [(Double, Double, Int)] = []
    var sawGPX = false
    var problem: (line: Int, reason: String)?

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        let local = name.split(separator: ":").last.map(String.init) ?? name
        if local == "gpx" { sawGPX = true }
        guard ["trkpt", "rtept", "wpt"].contains(local), problem == nil else { return }
        guard let lat = attributes["lat"].flatMap(Double.init), let lon = attributes["lon"].flatMap(Double.init) else {
            problem = (parser.lineNumber, "<\(local)> without numeric lat and lon")
            parser.abortParsing()
            return
        }
        points.append((lat, lon, parser.lineNumber))
    }
}
