import Foundation
import Testing
import TestSupport

/// `meridian search` over a Protomaps basemap v4 archive (Tests/Fixtures/vector/
/// helsinki-protomaps.pmtiles): a street, a point of interest and an address found, the same
/// rows as the OpenMapTiles fixture of the same extract gives, and in the reader's language.
@Suite(.serialized) struct ProtomapsSearchCommandTests {
    static let protomaps = SearchCommandTests.fixtures.appendingPathComponent("helsinki-protomaps.pmtiles").path
    static let openMapTiles = SearchCommandTests.fixtures.appendingPathComponent("helsinki-names.mbtiles").path

    func env(_ dir: URL) -> [String: String] {
        ["XDG_CACHE_HOME": dir.appendingPathComponent("cache").path, "XDG_DATA_HOME": dir.appendingPathComponent("data").path,
         "XDG_CONFIG_HOME": dir.appendingPathComponent("config").path, "HOME": dir.path]
    }

    func rows(_ query: String, _ tiles: String, env: [String: String]) throws -> [[String: Any]] {
        let r = try run(meridianBinary, ["search", query, "--tiles", tiles, "--near", "60.17,24.944", "--json", "--limit", "3"], env: env)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("no names search can read"), "\(r.stderr)")
        return try #require(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]], "\(r.stdout) \(r.stderr)")
    }

    @Test func aStreetAPoiAndAnAddressAreTheRowsTheOpenMapTilesMapGives() throws {
        let dir = temporaryDirectory("search-protomaps")
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try run(meridianBinary, ["search", "Mannerheimintie", "--tiles", Self.protomaps, "--json", "--limit", "1"], env: env(dir))
        #expect(first.status == 0 && first.stderr.contains("Indexing helsinki-protomaps"), "\(first.stderr)")
        let expected: [(query: String, category: String, what: String)] = [
            ("Aleksanterinkatu", "street", "street"), ("Mannerheimintie", "street", "street"), ("Stockmann", "place", "department store"),
            ("Cafe Engel", "place", "café"), ("Aleksanterinkatu 52", "address", "address"), ("Mannerheimintie 1", "address", "address"),
        ]
        for e in expected {
            let pm = try #require(try rows(e.query, Self.protomaps, env: env(dir)).first, "\(e.query)")
            let omt = try #require(try rows(e.query, Self.openMapTiles, env: env(dir)).first, "\(e.query)")
            #expect(pm["name"] as? String == e.query && pm["category"] as? String == e.category && pm["what"] as? String == e.what, "\(pm)")
            #expect(pm["map"] as? String == "helsinki-protomaps" && pm["origin"] as? String == "offline")
            for key in ["name", "category", "what", "area"] {
                #expect(pm[key] as? String == omt[key] as? String, "\(e.query) \(key): \(pm[key] ?? "-") / \(omt[key] ?? "-")")
            }
            let a = try #require(pm["lat"] as? Double), b = try #require(omt["lat"] as? Double)
            let c = try #require(pm["lon"] as? Double), d = try #require(omt["lon"] as? Double)
            // A street is marked by its middle, which each schema's pieces place a little apart.
            let tolerance = e.category == "street" ? 0.0006 : 0.00002
            #expect(abs(a - b) < tolerance && abs(c - d) < tolerance, "\(e.query): \(a),\(c) / \(b),\(d)")
        }
        // A street's line comes with it.
        let street = try rows("Aleksanterinkatu", Self.protomaps, env: env(dir))
        #expect((street.first?["line"] as? [[[Double]]])?.first?.count ?? 0 >= 2)
    }

    @Test func rowsAreInTheReadersLanguage() throws {
        let dir = temporaryDirectory("search-protomaps-sv")
        defer { try? FileManager.default.removeItem(at: dir) }
        var sv = env(dir)
        sv["LANG"] = "sv_FI.UTF-8"
        sv["LANGUAGE"] = ""
        for query in ["Aleksanterinkatu", "Alexandersgatan"] {
            let r = try run(meridianBinary, ["search", query, "--tiles", Self.protomaps, "--near", "60.17,24.944", "--limit", "1"], env: sv)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.hasPrefix("Alexandersgatan\tgata · "), "\(query): \(r.stdout)")
        }
        // Helsinki has 33 names in the archive; the Swedish one is among those kept.
        let found = try rows("Helsingfors", Self.protomaps, env: sv)
        #expect(found.contains { $0["origin"] as? String == "offline" && $0["name"] as? String == "Helsingfors" && $0["category"] as? String == "city" },
                "\(found)")
    }
}
