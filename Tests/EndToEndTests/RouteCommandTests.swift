import Foundation
import MapNetwork
import MapTiles
import Testing
import TestSupport

/// `meridian route` as a script runs it: the real binary, Routino's real programs over the
/// Helsinki extract, the online path against the loopback OSRM stand-in; what it prints and
/// its exit status.
@Suite struct RouteCommandTests {
    static let extract = StreetMapRenderTests.fixtures.appendingPathComponent("osm/helsinki.osm.pbf").path
    static let names = StreetMapRenderTests.fixtures.appendingPathComponent("vector/helsinki-names.mbtiles").path

    /// A folder of the test's own for the caches and settings, online routing off.
    static func home(_ name: String, routing: String = #"{"enabled": false}"#) throws -> URL {
        let dir = temporaryDirectory(name)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("meridian"), withIntermediateDirectories: true)
        try Data(routing.utf8).write(to: dir.appendingPathComponent("meridian/routing.json"))
        return dir
    }

    static func env(_ dir: URL) -> [String: String] {
        ["XDG_CACHE_HOME": dir.path, "XDG_CONFIG_HOME": dir.path, "XDG_DATA_HOME": dir.path]
    }

    @Test func jsonHasTheLineTheStepsAndTheTotals() throws {
        let dir = try Self.home("route-json")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try run(meridianBinary, ["route", "60.1700,24.9390", "60.17398,24.94889", "--osm", Self.extract, "--json"], env: Self.env(dir))
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let distance = try #require(json["distance_m"] as? Double), duration = try #require(json["duration_s"] as? Double)
        #expect(distance > 800 && distance < 1100)
        #expect(duration > 60 && duration < 200)
        #expect(json["engine"] as? String == "Routino")
        let line = try #require(json["geometry"] as? [[Double]])
        #expect(line.count > 20 && line.allSatisfy { $0.count == 2 && abs($0[0] - 60.17) < 0.01 && abs($0[1] - 24.945) < 0.01 })
        let steps = try #require(json["steps"] as? [[String: Any]])
        #expect(steps.first?["maneuver"] as? String == "depart" && steps.last?["maneuver"] as? String == "arrive")
        #expect(steps.allSatisfy { $0["text"] is String && $0["distance_m"] is Double && $0["duration_s"] is Double && ($0["at"] as? [Double])?.count == 2 })
        let summed = steps.compactMap { $0["distance_m"] as? Double }.reduce(0, +)
        #expect(abs(summed - distance) < 5)
        // The database is kept: a second route builds nothing.
        let again = try run(meridianBinary, ["route", "60.1700,24.9390", "60.17398,24.94889", "--osm", Self.extract], env: Self.env(dir))
        #expect(again.status == 0 && !again.stderr.contains("building"))
        #expect(again.stdout.hasPrefix(String(format: "%.0f m", distance)) || again.stdout.contains(" m · "))
    }

    @Test func gpxOpensAsATrackAndNamesAreFoundOffline() throws {
        let dir = try Self.home("route-gpx")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Names, as the search box finds them in the street map.
        let r = try run(meridianBinary, ["route", "Kaivokatu", "Unioninkatu", "--by", "foot", "--osm", Self.extract, "--tiles", Self.names, "--gpx"],
                        env: Self.env(dir))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("\"Kaivokatu\": taking Kaivokatu"), "\(r.stderr)")
        #expect(r.stdout.contains("<rte>") && r.stdout.contains("<trkseg>") && r.stdout.contains("<type>depart</type>"))
        let file = dir.appendingPathComponent("route.gpx")
        try Data(r.stdout.utf8).write(to: file)
        // The GPX is drawn as a track by render (what the window opens it as).
        let png = dir.appendingPathComponent("route.png").path
        let drawn = try run(meridianBinary, ["render", "--size", "256x256", "--out", png, file.path], env: Self.env(dir))
        #expect(drawn.status == 0, "\(drawn.stderr)")
        #expect(!drawn.stderr.contains("skipped"))
    }

    @Test func badInputIsSaidWithAStatus() throws {
        let dir = try Self.home("route-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cases: [([String], Int32, String)] = [
            (["route", "0,0", "60.17,24.94", "--osm", Self.extract, "--offline"], 1, "no offline routing data holds these points"),
            (["route", "60.1650,24.9360", "60.17,24.94", "--osm", Self.extract, "--offline", "--by", "plane"], 64, "unknown mode \"plane\""),
            (["route", "60.17,24.94", "60.171,24.941", "--osm", "/nonexistent.osm.pbf"], 64, "--osm /nonexistent.osm.pbf: no such file"),
            (["route", "60.17,24.94", "60.171,24.941", "--offline"], 1, "no offline routing data: give an extract with --osm"),
            (["route", "95,24.94", "60.171,24.941", "--offline"], 64, "95,24.94"),
            (["route", "Nowhere-at-all-xyz", "60.171,24.941", "--offline"], 64, "no place of that name is known offline"),
            (["route", "60.17,24.94", "60.171,24.941", "--online"], 1, "online routing is off"),
        ]
        for (args, status, said) in cases {
            let r = try run(meridianBinary, args, env: Self.env(dir))
            #expect(r.status == status, "\(args): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains(said), "\(args): \(r.stderr)")
            #expect(r.stdout.isEmpty, "\(args): \(r.stdout)")
        }
        // Routino missing: said, not a trap.
        let missing = try run(meridianBinary, ["route", "60.17,24.94", "60.171,24.941", "--osm", Self.extract, "--offline"],
                              env: Self.env(dir).merging(["PATH": "/nonexistent"]) { $1 })
        #expect(missing.status == 1 && missing.stderr.contains("routino-router is not installed"), "\(missing.stderr)")
    }

    /// An extract named in sources.json routes as --osm does; the maps listed beside it still
    /// open, and a broken extract entry is said, naming it.
    @Test func sourcesJSONNamesAnExtract() throws {
        let dir = try Self.home("route-sources")
        defer { try? FileManager.default.removeItem(at: dir) }
        let sources = #"""
        {"sources": [
          {"name": "helsinki", "type": "osm", "path": "\#(Self.extract)"},
          {"name": "broken", "type": "osm", "path": "relative/file.osm.pbf"},
          {"name": "names", "type": "vector", "url": "http://127.0.0.1:9/{z}/{x}/{y}.pbf"}
        ]}
        """#
        try Data(sources.utf8).write(to: dir.appendingPathComponent("meridian/sources.json"))
        let r = try run(meridianBinary, ["route", "60.1700,24.9390", "60.17398,24.94889", "--offline", "--json"], env: Self.env(dir))
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(json["engine"] as? String == "Routino")
        #expect(r.stderr.contains("sources[1].path: relative/file.osm.pbf is not an absolute path"), "\(r.stderr)")
        // The map entry beside the extracts is still a map; the extracts are no map's problem.
        let maps = try run(meridianBinary, ["render", "--tiles", "names", "--offline", "--size", "64x64", "--out", dir.appendingPathComponent("m.png").path],
                           env: Self.env(dir))
        #expect(!maps.stderr.contains("sources[0]") && !maps.stderr.contains("sources[1]"), "\(maps.stderr)")
        #expect(!maps.stderr.contains("unknown source"), "\(maps.stderr)")
    }

    @Test func onlineAsksTheConfiguredServiceOnceWithTheAppsName() throws {
        let server = try TileServer(script: "routing-server.py")
        let dir = try Self.home("route-online", routing: #"{"url": "\#(server.url(""))", "minimumInterval": 0}"#)
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try run(meridianBinary, ["route", "60.169,24.946", "60.1735,24.947", "--online", "--json"], env: Self.env(dir))
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(json["engine"] as? String == "OSRM")
        let client = HTTPClient(options: .init(userAgent: "tests"))
        guard case let .response(log) = client.get(server.url("/log")) else { Issue.record("no log"); return }
        let seen = try #require(try JSONSerialization.jsonObject(with: log.body) as? [[String: Any]])
        #expect(seen.count == 1)
        #expect((seen.first?["ua"] as? String)?.hasPrefix("Meridian/") == true)
        // The text names the engine and links to where map errors are reported.
        let text = try run(meridianBinary, ["route", "60.169,24.946", "60.1735,24.947", "--online"], env: Self.env(dir))
        #expect(text.stdout.contains("OSRM") && text.stdout.contains("openstreetmap.org/fixthemap"))
        // A service that is down: said, status 1.
        _ = client.get(server.url("/mode?set=broken&times=5"))
        let broken = try run(meridianBinary, ["route", "60.169,24.946", "60.1736,24.947", "--online"], env: Self.env(dir))
        #expect(broken.status == 1 && broken.stderr.contains("HTTP 500"), "\(broken.stderr)")
    }
}
