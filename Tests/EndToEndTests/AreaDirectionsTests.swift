import Foundation
import Testing
import TestSupport

/// "Directions offline too" for a saved area, end to end against the loopback server standing
/// in for Geofabrik: its index of extracts (regions nested as Geofabrik's are), the smallest
/// region holding the area downloaded in pieces with the app's User-Agent, cut to the area by
/// osmium, built by Routino beside the area, the download deleted; then a route offline from
/// the saved area alone.
@Suite(.serialized) struct AreaDirectionsTests {
    static let helsinki = StreetMapRenderTests.fixtures.appendingPathComponent("osm/helsinki.osm.pbf").path
    static let andorra = StreetMapRenderTests.fixtures.appendingPathComponent("osm/andorra.osm.pbf").path

    /// A region of the index: its outline a box (west, south, east, north).
    static func region(_ id: String, _ name: String, parent: String?, _ box: [Double], pbf: String) -> String {
        let (w, s, e, n) = (box[0], box[1], box[2], box[3])
        let ring = "[[\(w),\(s)],[\(e),\(s)],[\(e),\(n)],[\(w),\(n)],[\(w),\(s)]]"
        let p = parent.map { #","parent":"\#($0)""# } ?? ""
        return #"{"type":"Feature","properties":{"id":"\#(id)"\#(p),"name":"\#(name)","urls":{"pbf":"\#(pbf)","bz2":"\#(pbf).bz2"}},"geometry":{"type":"MultiPolygon","coordinates":[[\#(ring)]]}}"#
    }

    @Test func aSavedAreaGetsItsRoutingDataFromTheSmallestRegion() throws {
        let dir = temporaryDirectory("area-directions")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        // Europe and Finland hold the area too, but are larger: their files are Andorra's,
        // on which no route in Helsinki could be found.
        let index = #"{"type":"FeatureCollection","features":["#
            + [Self.region("europe", "Europe", parent: nil, [-25, 34, 45, 72], pbf: server.url("/file" + Self.andorra)),
               Self.region("finland", "Finland", parent: "europe", [19, 59.5, 32, 70.1], pbf: server.url("/file" + Self.andorra)),
               Self.region("uusimaa", "Uusimaa", parent: "finland", [24.90, 60.15, 24.97, 60.19], pbf: server.url("/file" + Self.helsinki)),
               Self.region("andorra", "Andorra", parent: "europe", [1.4, 42.4, 1.8, 42.7], pbf: server.url("/file" + Self.andorra))].joined(separator: ",")
            + "]}"
        let indexFile = dir.appendingPathComponent("index-v1.json")
        try Data(index.utf8).write(to: indexFile)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("meridian/areas"), withIntermediateDirectories: true)
        try Data(#"{"enabled": false, "extracts": "\#(server.url("/file" + indexFile.path))"}"#.utf8)
            .write(to: dir.appendingPathComponent("meridian/routing.json"))
        let env = ["XDG_CACHE_HOME": dir.path, "XDG_CONFIG_HOME": dir.path, "XDG_DATA_HOME": dir.path]
        let out = dir.appendingPathComponent("meridian/areas/kluuvi.pmtiles").path
        let r = try run(meridianBinary, ["extract", "--from", StreetMapRenderTests.pmtiles, "--bbox", "24.935,60.164,24.951,60.176", "--maxzoom", "13",
                                         "--out", out, "--title", "Kluuvi", "--directions"], env: env, timeout: 120)
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stdout.contains("Downloading Uusimaa"), "\(r.stdout)")
        #expect(r.stdout.contains("Directions offline: \(out).routing"), "\(r.stdout)")
        #expect(FileManager.default.fileExists(atPath: out + ".routing/meridian-routing.json"))
        // The download is gone once the area's data is built; nothing half-written is left.
        let downloads = (try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("meridian/downloads").path)) ?? []
        #expect(downloads.isEmpty, "\(downloads)")

        // A route offline, from the saved area's data alone (no --osm).
        let route = try run(meridianBinary, ["route", "60.1700,24.9390", "60.1690,24.9460", "--offline", "--json"], env: env)
        #expect(route.status == 0, "\(route.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(route.stdout.utf8)) as? [String: Any])
        #expect(json["engine"] as? String == "Routino")
        #expect((json["distance_m"] as? Double ?? 0) > 300)

        // An area no region holds is said, and the tiles are saved all the same.
        let far = dir.appendingPathComponent("meridian/areas/far.pmtiles").path
        let none = try run(meridianBinary, ["extract", "--from", StreetMapRenderTests.pmtiles, "--bbox", "140,-40,141,-39", "--maxzoom", "3",
                                            "--out", far, "--directions"], env: env, timeout: 120)
        #expect(none.status == 1 && none.stderr.contains("no extract of the index holds this area whole"), "\(none.stderr)")
        #expect(FileManager.default.fileExists(atPath: far) && !FileManager.default.fileExists(atPath: far + ".routing"))
    }
}
