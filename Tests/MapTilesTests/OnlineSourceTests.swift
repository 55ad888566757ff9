import FoundationEssentials
import MapGeometry
import MapNetwork
@testable import MapTiles
import Testing

struct TileURLTemplateTests {
    @Test(arguments: [
        ("https://tile.openstreetmap.org/{z}/{x}/{y}.png", TileID(z: 3, x: 4, y: 2), false, "https://tile.openstreetmap.org/3/4/2.png"),
        // TMS rows count from the south: row 2 of 8 is 5.
        ("https://t.example/{z}/{x}/{-y}.png", TileID(z: 3, x: 4, y: 2), false, "https://t.example/3/4/5.png"),
        // The subdomain follows the tile: (x + y) mod 3.
        ("https://{s}.t.example/{z}/{x}/{y}.png", TileID(z: 3, x: 4, y: 2), false, "https://a.t.example/3/4/2.png"),
        ("https://{s}.t.example/{z}/{x}/{y}.png", TileID(z: 3, x: 4, y: 3), false, "https://b.t.example/3/4/3.png"),
        ("https://t.example/{z}/{x}/{y}{r}.png", TileID(z: 1, x: 0, y: 1), true, "https://t.example/1/0/1@2x.png"),
        ("https://t.example/{z}/{x}/{y}{r}.png", TileID(z: 1, x: 0, y: 1), false, "https://t.example/1/0/1.png"),
        ("http://localhost:8080/t?z={z}&x={x}&y={y}", TileID(z: 0, x: 0, y: 0), false, "http://localhost:8080/t?z=0&x=0&y=0"),
    ])
    func expands(template: String, tile: TileID, retina: Bool, expected: String) throws {
        #expect(try TileURLTemplate(template).url(for: tile, retina: retina) == expected)
    }

    @Test(arguments: [
        ("tile.openstreetmap.org/{z}/{x}/{y}.png", "must start with https:// or http://"),
        ("file:///etc/{z}/{x}/{y}", "must start with https:// or http://"),
        ("https://t.example/{z}/{x}.png", "needs {z}, {x} and {y}"),
        ("https://t.example/{Z}/{x}/{y}.png", "unknown placeholder {Z} at character 19"),
        ("https://t.example/{z}/{x}/{y.png", "unmatched \"{\" at character 27"),
        ("https://t.example/z}/{x}/{y}/{z}", "unmatched \"}\" at character 20"),
        ("https://t.example/{z}/{x}/{y} .png", "character U+0020"),
        ("https://t.example/{z}/{x}/{y}\n.png", "character U+000A"),
        ("https://tést.example/{z}/{x}/{y}", "character U+00E9"),
    ])
    func refuses(template: String, reason: String) {
        #expect {
            try TileURLTemplate(template)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test func subdomainsMustBeHostLabels() {
        #expect(throws: TileURLTemplate.Invalid.self) { try TileURLTemplate("https://{s}.t.example/{z}/{x}/{y}", subdomains: []) }
        #expect(throws: TileURLTemplate.Invalid.self) { try TileURLTemplate("https://{s}.t.example/{z}/{x}/{y}", subdomains: ["a/../b"]) }
        // Without {s}, subdomains do not matter.
        #expect(throws: Never.self) { try TileURLTemplate("https://t.example/{z}/{x}/{y}", subdomains: []) }
    }

    @Test func aHugeTemplateIsRefusedAndQuotedShort() {
        let long = "https://t.example/{z}/{x}/{y}?" + String(repeating: "q", count: 3000)
        #expect { try TileURLTemplate(long) } throws: { "\($0)".count < 200 }
    }
}

struct OnlineSourceCatalogTests {
    func read(_ json: String) throws -> (sources: [OnlineSource], problems: [String]) {
        try OnlineSource.catalog(Data(json.utf8), file: "sources.json")
    }

    @Test func aGoodEntryIsReadWithItsDefaults() throws {
        let (sources, problems) = try read("""
            {"sources": [{"name": "topo", "url": "https://{s}.t.example/{z}/{x}/{y}.png", "attribution": "© Someone",
                          "maxZoom": 17, "attributionURL": "https://t.example/about"}]}
            """)
        #expect(problems.isEmpty)
        #expect(sources.count == 1)
        let s = try #require(sources.first)
        #expect(s.name == "topo" && s.zoomRange == 0...17 && s.tileSize == 256 && s.attribution == "© Someone")
        #expect(s.template.url(for: TileID(z: 2, x: 1, y: 1)) == "https://c.t.example/2/1/1.png")
        #expect(!s.allowsBulk)
    }

    @Test func eachBadEntryIsNamedAndTheGoodOnesKept() throws {
        let (sources, problems) = try read("""
            {"sources": [
              {"name": "ok", "url": "https://t.example/{z}/{x}/{y}.png"},
              {"name": "../../etc", "url": "https://t.example/{z}/{x}/{y}.png"},
              {"name": "typo", "url": "https://t.example/{zoom}/{x}/{y}.png"},
              {"url": "https://t.example/{z}/{x}/{y}.png"},
              {"name": "deep", "url": "https://t.example/{z}/{x}/{y}.png", "maxZoom": 40},
              {"name": "big", "url": "https://t.example/{z}/{x}/{y}.png", "tileSize": 300},
              {"name": "link", "url": "https://t.example/{z}/{x}/{y}.png", "attributionURL": "javascript:alert(1)"},
              {"name": "ok", "url": "https://other.example/{z}/{x}/{y}.png"},
              {"name": 7, "url": "https://t.example/{z}/{x}/{y}.png"}
            ]}
            """)
        #expect(sources.map(\.name) == ["ok"])
        #expect(sources.first?.template.text == "https://t.example/{z}/{x}/{y}.png")
        let expected = ["sources[1]: name \"../../etc\"", "sources[2].url: tile URL", "{zoom}", "sources[3].name: missing",
                        "sources[4]: zooms 0…40", "sources[5]: tileSize 300", "sources[6]: attributionURL",
                        "source \"ok\" is named twice", "sources[8].name:"]
        for e in expected { #expect(problems.contains { $0.contains(e) }, "no problem says \(e): \(problems)") }
        #expect(problems.allSatisfy { $0.hasPrefix("sources.json: ") })
    }

    @Test func notAListIsOneClearError() {
        for bad in ["", "[]", "{\"sources\": 3}", "{\"sources\": [", "\u{0}"] {
            #expect(throws: OnlineSource.CatalogError.self) { try read(bad) }
        }
    }

    @Test func namesAreSafeFolderNames() {
        for good in ["osm", "my-topo_2", "a.b"] { #expect(OnlineSource.isValidName(good)) }
        for bad in ["", ".", "..", ".hidden", "a/b", "A", "ü", String(repeating: "a", count: 41), "a b"] {
            #expect(!OnlineSource.isValidName(bad), "\(bad)")
        }
    }

    @Test func theBuiltInSourcesFollowTheirServers() {
        #expect(OnlineSource.openStreetMap.template.url(for: TileID(z: 15, x: 16_974, y: 11_526)) ==
                "https://tile.openstreetmap.org/15/16974/11526.png")
        #expect(OnlineSource.openStreetMap.zoomRange == 0...19 && OnlineSource.openTopoMap.zoomRange == 0...17)
        #expect(OnlineSource.openStreetMap.attribution == "© OpenStreetMap contributors")
    }

    @Test func overlaysAndHeightsAreSaidInTheEntry() throws {
        let (sources, problems) = try read("""
            {"sources": [
              {"name": "hiking", "url": "https://h.example/{z}/{x}/{y}.png", "overlay": true, "opacity": 0.7},
              {"name": "dem", "url": "https://d.example/{z}/{x}/{y}.png", "encoding": "mapbox", "maxZoom": 14},
              {"name": "faint", "url": "https://h.example/{z}/{x}/{y}.png", "overlay": true, "opacity": 0},
              {"name": "heights", "url": "https://d.example/{z}/{x}/{y}.pbf", "type": "vector", "encoding": "terrarium"},
              {"name": "odd", "url": "https://d.example/{z}/{x}/{y}.png", "encoding": "lerc"}
            ]}
            """)
        #expect(sources.map(\.name) == ["hiking", "dem"])
        #expect(sources[0].isOverlay && sources[0].overlayOpacity == 0.7 && sources[0].demEncoding == nil)
        #expect(!sources[1].isOverlay && sources[1].demEncoding == .mapbox)
        #expect(problems.count == 3)
        #expect(problems.contains { $0.contains("opacity 0.0") })
        #expect(problems.filter { $0.contains("encoding") }.count == 2)
    }
}

struct HTTPFreshnessTests {
    let now = 1_700_000_000.0

    @Test(arguments: [
        // (headers, seconds fresh from now, storable)
        ([("Cache-Control", "max-age=3600")], 3600.0, true),
        ([("cache-control", "public, max-age=604800, stale-while-revalidate=86400")], 604_800, true),
        ([("Cache-Control", "max-age=3600"), ("Age", "600")], 3000, true),
        ([("Cache-Control", "max-age=100"), ("Age", "600")], 0, true),
        ([("Cache-Control", "no-store")], 7 * 86_400, false),
        ([("Cache-Control", "no-cache")], 0, true),
        ([("Cache-Control", "max-age=abc")], 0, true),
        ([("Cache-Control", "max-age=99999999999999999999")], 365 * 86_400, true),
        // Expires against the server's Date, not this machine's clock.
        ([("Date", "Sun, 06 Nov 1994 08:49:37 GMT"), ("Expires", "Sun, 06 Nov 1994 09:49:37 GMT")], 3600, true),
        ([("Expires", "0")], 0, true),
        // max-age wins over Expires.
        ([("Expires", "Sun, 06 Nov 1994 08:49:37 GMT"), ("Cache-Control", "max-age=60")], 60, true),
        // Nothing said: a week.
        ([], 7 * 86_400, true),
        ([("Content-Type", "image/png")], 7 * 86_400, true),
    ] as [([(String, String)], Double, Bool)])
    func lifetimes(headers: [(String, String)], fresh: Double, storable: Bool) {
        let f = HTTPFreshness(headers: headers, receivedAt: now)
        #expect(f.expires == now + fresh)
        #expect(f.storable == storable)
    }

    @Test func theThreeDateFormsAgree() {
        let expected = 784_111_777.0
        #expect(HTTPFreshness.parseDate("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(HTTPFreshness.parseDate("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(HTTPFreshness.parseDate("Sun Nov  6 08:49:37 1994") == expected)
        #expect(HTTPFreshness.parseDate("Thu, 01 Jan 1970 00:00:00 GMT") == 0)
        // A leap year's last day of February, and a leap second: 2028-03-01 00:00:00.
        let leap = HTTPFreshness.parseDate("Tue, 29 Feb 2028 23:59:60 GMT")
        #expect(leap == 1_835_481_600.0)
        for bad in ["", "yesterday", "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT",
                    "Sun, 06 Nov 1994 08:49:37 PST", String(repeating: "9", count: 100)] {
            #expect(HTTPFreshness.parseDate(bad) == nil, "\(bad)")
        }
    }

    @Test func validatorsAskAgainAndA304KeepsThem() {
        let first = HTTPFreshness(headers: [("ETag", "\"abc\""), ("Last-Modified", "Sun, 06 Nov 1994 08:49:37 GMT"),
                                            ("Cache-Control", "max-age=10")], receivedAt: now)
        #expect(first.revalidationHeaders == ["If-None-Match: \"abc\"", "If-Modified-Since: Sun, 06 Nov 1994 08:49:37 GMT"])
        #expect(first.isFresh(at: now + 9) && !first.isFresh(at: now + 10))
        let answer = HTTPFreshness(headers: [("Cache-Control", "max-age=600")], receivedAt: now + 20)
        let refreshed = first.refreshed(by: answer)
        #expect(refreshed.expires == now + 620 && refreshed.etag == "\"abc\"" && refreshed.lastModified == first.lastModified)
        // A Last-Modified that is not a date is not sent back.
        #expect(HTTPFreshness(headers: [("Last-Modified", "whenever")], receivedAt: now).revalidationHeaders.isEmpty)
    }
}
