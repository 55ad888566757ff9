import Foundation
import MapNetwork
import Testing
import MapTiles
import TestSupport

/// `meridian search` for scripts: street maps named with --tiles and saved areas indexed and
/// searched with the built-in places, as text or JSON; bad input refused clearly.
@Suite(.serialized) struct SearchCommandTests {
    static let fixtures = StreetMapRenderTests.fixtures.appendingPathComponent("vector")

    func env(_ dir: URL) -> [String: String] {
        ["XDG_CACHE_HOME": dir.appendingPathComponent("cache").path, "XDG_DATA_HOME": dir.appendingPathComponent("data").path,
         "XDG_CONFIG_HOME": dir.appendingPathComponent("config").path, "HOME": dir.path]
    }

    func json(_ r: RunResult) throws -> [[String: Any]] {
        try #require(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]], "\(r.stdout) \(r.stderr)")
    }

    /// With a Swedish desktop the rows name Helsinki's streets in Swedish (the map's name:sv),
    /// found by either name; the kind of place in Swedish too. JSON's category stays English.
    @Test func rowsAreInTheReadersLanguage() throws {
        let dir = temporaryDirectory("search-sv")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tiles = Self.fixtures.appendingPathComponent("helsinki-names.mbtiles").path
        var sv = env(dir)
        sv["LANG"] = "sv_FI.UTF-8"
        sv["LANGUAGE"] = ""
        for query in ["Aleksanterinkatu", "Alexandersgatan"] {
            let r = try run(meridianBinary, ["search", query, "--tiles", tiles, "--near", "60.17,24.944", "--limit", "3"], env: sv)
            #expect(r.status == 0, "\(r.stderr)")
            let first = r.stdout.split(separator: "\n").first.map(String.init) ?? ""
            #expect(first.hasPrefix("Alexandersgatan\tgata · "), "\(query): \(r.stdout)")
        }
        let rows = try json(try run(meridianBinary, ["search", "Aleksanterinkatu", "--tiles", tiles, "--json", "--limit", "1"], env: sv))
        #expect(rows.first?["name"] as? String == "Alexandersgatan" && rows.first?["category"] as? String == "street")
        // The C locale: the local names, as before.
        let local = try run(meridianBinary, ["search", "Alexandersgatan", "--tiles", tiles, "--limit", "1"], env: env(dir))
        #expect(local.stdout.hasPrefix("Aleksanterinkatu\t"), "\(local.stdout)")
    }

    @Test func aStreetMapFileIsIndexedOnceAndSearched() throws {
        let dir = temporaryDirectory("search-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tiles = Self.fixtures.appendingPathComponent("helsinki-names.mbtiles").path
        let first = try run(meridianBinary, ["search", "Aleksanterinkatu 52", "--tiles", tiles, "--near", "60.17,24.944", "--json"], env: env(dir))
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("Indexing Meridian test fixture"), "progress said: \(first.stderr)")
        let rows = try json(first)
        #expect(rows.first?["name"] as? String == "Aleksanterinkatu 52")
        #expect(rows.first?["category"] as? String == "address" && rows.first?["origin"] as? String == "offline")
        let lat = try #require(rows.first?["lat"] as? Double), lon = try #require(rows.first?["lon"] as? Double)
        #expect(abs(lat - 60.16867) < 0.0005 && abs(lon - 24.94193) < 0.001)
        // The second time, the index is there: nothing is indexed again.
        let again = try run(meridianBinary, ["search", "stockmann", "--tiles", tiles, "--near", "60.17,24.944"], env: env(dir))
        #expect(again.status == 0 && !again.stderr.contains("Indexing"), "\(again.stderr)")
        let line = again.stdout.split(separator: "\n").first.map(String.init) ?? ""
        #expect(line.hasPrefix("Stockmann\tdepartment store · "), "\(line)")
        // A street comes with its line in JSON.
        let street = try json(try run(meridianBinary, ["search", "Unioninkatu", "--tiles", tiles, "--json", "--limit", "1"], env: env(dir)))
        #expect((street.first?["line"] as? [[[Double]]])?.first?.count ?? 0 >= 2)
    }

    @Test func aSavedAreaIsSearchedWithoutNamingIt() throws {
        let dir = temporaryDirectory("search-area")
        defer { try? FileManager.default.removeItem(at: dir) }
        let areas = dir.appendingPathComponent("data/meridian/areas")
        try FileManager.default.createDirectory(at: areas, withIntermediateDirectories: true)
        let pmtiles = Self.fixtures.appendingPathComponent("helsinki.pmtiles").path
        let saved = try run(meridianBinary, ["extract", "--from", pmtiles, "--bbox", "24.935,60.164,24.954,60.180", "--minzoom", "12", "--maxzoom", "14",
                                             "--out", areas.appendingPathComponent("keskusta.pmtiles").path, "--title", "Keskusta"], env: env(dir))
        #expect(saved.status == 0, "\(saved.stderr)")
        let r = try run(meridianBinary, ["search", "kaisaniemenkatu", "--near", "60.17,24.944", "--json"], env: env(dir))
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try json(r)
        #expect(rows.first?["map"] as? String == "Keskusta", "\(rows.first ?? [:])")
        #expect(rows.first?["category"] as? String == "street")
        // And the built-in places are there too.
        let helsinki = try json(try run(meridianBinary, ["search", "Helsinki", "--json"], env: env(dir)))
        #expect(helsinki.contains { $0["origin"] as? String == "built-in" && $0["category"] as? String == "city" })
    }

    @Test func onlineAsksTheConfiguredGeocoderOnceAndSaysItsFailures() throws {
        let server = try TileServer(script: "geocoder-server.py")
        let dir = temporaryDirectory("search-online")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("config/meridian")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data(#"{"url": "\#(server.url(""))", "kind": "nominatim"}"#.utf8).write(to: config.appendingPathComponent("geocoder.json"))
        let tiles = Self.fixtures.appendingPathComponent("helsinki-names.mbtiles").path
        let r = try run(meridianBinary, ["search", "Aleksanterinkatu 52", "--online", "--tiles", tiles, "--near", "60.17,24.944", "--json"], env: env(dir))
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try json(r)
        #expect(rows.contains { $0["origin"] as? String == "offline" && $0["name"] as? String == "Aleksanterinkatu 52" })
        #expect(rows.contains { $0["origin"] as? String == "online" && ($0["credit"] as? String)?.contains("OpenStreetMap") == true }, "\(rows)")
        // The same again comes from the cache: the stand-in is asked once.
        _ = try run(meridianBinary, ["search", "Aleksanterinkatu 52", "--online", "--near", "60.17,24.944"], env: env(dir))
        let bad = try run(meridianBinary, ["search", "garbage", "--online"], env: env(dir))
        #expect(bad.status == 0 && bad.stderr.contains("not JSON"), "\(bad.stderr)")
        guard case let .response(log) = HTTPClient(options: .init(userAgent: "Meridian-tests")).get(server.url("/log")) else { throw HarnessError("no log") }
        let asked = try JSONSerialization.jsonObject(with: log.body) as? [[String: Any]] ?? []
        #expect(asked.map { $0["q"] as? String ?? "" } == ["Aleksanterinkatu 52", "garbage"], "\(asked)")
    }

    /// Issue 54: --zoom says how much --near counts, by the window's rule. Over 0°, 0° Zuru,
    /// Nigeria is nearer than Zürich: across a continent the city, at a street's scale the town.
    @Test func zoomSaysHowMuchNearnessCounts() throws {
        let dir = temporaryDirectory("search-zoom")
        defer { try? FileManager.default.removeItem(at: dir) }
        func first(_ args: [String]) throws -> String {
            let r = try run(meridianBinary, ["search", "zur", "--limit", "1"] + args, env: env(dir))
            #expect(r.status == 0, "\(r.stderr)")
            return r.stdout.split(separator: "\t").first.map(String.init) ?? ""
        }
        #expect(try first([]) == "Zürich")
        #expect(try first(["--near", "0,0", "--zoom", "3"]) == "Zürich")
        #expect(try first(["--near", "11.4352,5.2349", "--zoom", "12"]) == "Zuru")
        let bad = try run(meridianBinary, ["search", "zur", "--near", "0,0", "--zoom", "25"], env: env(dir))
        #expect(bad.status == 64 && bad.stderr.contains("--zoom"), "\(bad.stderr)")
    }

    @Test func badInputIsRefusedClearly() throws {
        let dir = temporaryDirectory("search-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        let near = try run(meridianBinary, ["search", "x", "--near", "95,0"], env: env(dir))
        #expect(near.status == 64 && near.stderr.contains("--near"), "\(near.stderr)")
        let tiles = try run(meridianBinary, ["search", "x", "--tiles", "/nonexistent.mbtiles"], env: env(dir))
        #expect(tiles.status == 64 && tiles.stderr.contains("/nonexistent.mbtiles"), "\(tiles.stderr)")
        // A file that is not a map: said, and the rest still searched.
        let garbage = dir.appendingPathComponent("garbage.mbtiles")
        try Data("not a database at all, just words".utf8).write(to: garbage)
        let r = try run(meridianBinary, ["search", "Helsinki", "--tiles", garbage.path], env: env(dir))
        #expect(r.status == 0 && r.stderr.contains("cannot search") && r.stdout.contains("Helsinki"), "\(r.stderr)")
        // Nothing found: said on stderr, nothing printed, success.
        let none = try run(meridianBinary, ["search", "qqqqzzzz"], env: env(dir))
        #expect(none.status == 0 && none.stdout.isEmpty && none.stderr.contains("nothing found"))
    }
}
