import Foundation
import MapCore
import MapData
import MapGeometry
import Testing

/// Files as the window opens them (`TrackFile.read`): where their points lie, how many, what
/// was skipped, and the errors that name file, line and reason.
struct GeoFileReadTests {
    struct Extent: Equatable {
        var south: Double, west: Double, north: Double, east: Double
        var pointCount: Int
        var problems: [GeoFileError] = []
        static func == (a: Extent, b: Extent) -> Bool {
            abs(a.south - b.south) < 1e-9 && abs(a.west - b.west) < 1e-9 && abs(a.north - b.north) < 1e-9
                && abs(a.east - b.east) < 1e-9 && a.pointCount == b.pointCount
        }
    }

    /// The file's extent in degrees and its number of points, as the window reads it.
    func read(_ url: URL) throws -> Extent {
        let (file, problems) = try TrackFile.read(url, color: TrackStyle.palette[0])
        let b = try #require(file.bounds)
        let nw = WebMercator.unproject(MapPoint(x: b.minX, y: b.minY)), se = WebMercator.unproject(MapPoint(x: b.maxX, y: b.maxY))
        let count = file.lines.reduce(0) { $0 + $1.track.points.count } + file.waypoints.count
            + file.areas.reduce(0) { $0 + $1.area.rings.reduce(0) { $0 + $1.count } }
        return Extent(south: se.latitude, west: nw.longitude, north: nw.latitude, east: se.longitude, pointCount: count, problems: problems)
    }

    func file(_ name: String, _ text: String) throws -> URL {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("extent-\(UUID())")
        try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        let u = d.appendingPathComponent(name)
        try Data(text.utf8).write(to: u)
        return u
    }

    @Test func gpxTrackRouteAndWayPointsAllCount() throws {
        let u = try file("walk.gpx", """
        <?xml version="1.0"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
          <wpt lat="48.85" lon="2.29"><name>Eiffel</name></wpt>
          <rte><rtept lat="48.80" lon="2.40"/></rte>
          <trk><trkseg><trkpt lat="48.86" lon="2.35"/><trkpt lat="48.90" lon="2.30"/></trkseg></trk>
        </gpx>
        """)
        #expect(try read(u) == Extent(south: 48.80, west: 2.29, north: 48.90, east: 2.40, pointCount: 4))
    }

    @Test("Bad GPX is an error naming the file, the line and the reason", arguments: [
        ("<gpx>\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"/>\n</trkseg></trk>\n<wpt lat=\"1\" lon=\"2\" <\n</gpx>", 5, "not well-formed"),
        ("<gpx>\n<trk><trkseg>\n<trkpt lat=\"x\" lon=\"2\"/>\n</trkseg></trk></gpx>", 3, "not a number"),
        ("<gpx>\n<wpt lat=\"95\" lon=\"2\"/>\n</gpx>", 2, "out of range"),
        ("<kml>\n</kml>", 1, "not a GPX document"),
        // Entities are how billion-laughs and external-entity attacks arrive: no DTD at all
        // (reported on the line where the declaration starts).
        ("<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [<!ENTITY a \"1\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\">]>\n<gpx><wpt lat=\"&b;\" lon=\"2\"/></gpx>", 2, "DTD"),
        ("<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n<gpx>&x;</gpx>", 2, "DTD"),
    ])
    func badGPX(text: String, line: Int, reason: String) throws {
        let u = try file("bad.gpx", text)
        do {
            _ = try read(u)
            Issue.record("no error for \(text)")
        } catch let e as GeoFileError {
            #expect(e.file == u.path && e.line == line && e.reason.contains(reason), "\(e)")
            #expect(e.description.hasPrefix("\(u.path):\(line): "))
        }
    }

    /// A partly valid file: the good points make the extent, the bad ones are listed with lines.
    @Test func aPartlyValidFileLoadsWhatIsValidAndSaysWhatWasSkipped() throws {
        let u = try file("partial.gpx", "<gpx><trk><trkseg>\n<trkpt lat=\"10\" lon=\"20\"/>\n<trkpt lat=\"abc\" lon=\"1\"/>\n<trkpt lat=\"11\" lon=\"21\"/>\n</trkseg></trk></gpx>")
        let e = try read(u)
        #expect(e == Extent(south: 10, west: 20, north: 11, east: 21, pointCount: 2))
        #expect(e.problems.map(\.line) == [3] && e.problems[0].file == u.path && e.problems[0].reason.contains("not a number"))
        let c = try read(try file("partial.csv", "lat,lon\n10,20\nx,1\n11,21\n"))
        #expect(c.pointCount == 2 && c.problems.map(\.line) == [3])
    }

    @Test func geoJSONPositionsInEveryGeometry() throws {
        let u = try file("shapes.geojson", """
        {"type":"FeatureCollection","features":[
          {"type":"Feature","geometry":{"type":"LineString","coordinates":[[10,50],[11,51]]},"properties":{}},
          {"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[-3,40],[-2,40],[-2,41],[-3,40]]]},"properties":{}},
          {"type":"Feature","geometry":{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[5,45,120]}]}}
        ]}
        """)
        #expect(try read(u) == Extent(south: 40, west: -3, north: 51, east: 11, pointCount: 7))
    }

    @Test("Bad GeoJSON is an error that says why", arguments: [
        ("{\"type\": \"FeatureCollection\", \"features\": [", "not valid JSON"),
        ("[1, 2]", "not a GeoJSON object"),
        ("{\"type\":\"Point\",\"coordinates\":[200,10]}", "out of range"),
        ("{\"type\":\"FeatureCollection\",\"features\":[]}", "holds no points"),
    ])
    func badGeoJSON(text: String, reason: String) throws {
        let u = try file("bad.geojson", text)
        #expect(throws: GeoFileError.self) { try read(u) }
        do { _ = try read(u) } catch { #expect("\(error)".hasPrefix(u.path + ": ") && "\(error)".contains(reason), "\(error)") }
    }

    @Test func aMissingFileSaysSo() {
        #expect(throws: GeoFileError.self) { try read(URL(fileURLWithPath: "/nonexistent/x.gpx")) }
    }
}
