import CSQLite
import Foundation
import MapCore
import MapGeometry
@testable import MapSearch
@testable import MapTiles
import Testing
import TestSupport

/// The search index over Protomaps basemap v4 tiles: the schema told by each tile's layers,
/// its kinds said in the words of the OpenMapTiles reading, and on real data (central
/// Helsinki in both schemas, Tests/Fixtures/vector) the same rows where the data is the same.
@Suite(.serialized) struct ProtomapsSearchTests {
    static let protomaps = PMTilesFixtureFileTests.folder.appendingPathComponent("helsinki-protomaps.pmtiles").path
    /// The same extract in the OpenMapTiles schema, with sv/en/fi names.
    static let openMapTiles = NameIndexTests.names
    static let centre = NameIndexTests.centre

    let folder = NSTemporaryDirectory() + "pm-names-\(UUID().uuidString)"

    func index(_ path: String = protomaps) throws -> NameIndex {
        let archive = try NameArchive(path: path)
        try NameIndexBuilder(archive: archive, folder: folder).build()
        return try #require(NameIndex.open(archive, folder: folder))
    }

    func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        TrackStatistics.distance(a.latitude, a.longitude, b.latitude, b.longitude)
    }

    static func point(_ x: Int32, _ y: Int32, _ properties: [String: VectorTile.Value]) -> VectorTile.Feature {
        VectorTile.Feature(type: .point, parts: [[.init(x: x, y: y)]], properties: properties)
    }

    @Test func theSchemaIsToldByTheTilesLayers() {
        typealias S = TileNames.Schema
        #expect(S.of(layers: ["earth", "water", "landuse", "roads", "buildings", "places", "pois", "boundaries", "transit"]) == .protomaps)
        #expect(S.of(layers: ["roads"]) == .protomaps, "a z15 tile of roads alone")
        #expect(S.of(layers: ["water", "landcover", "transportation", "transportation_name", "place", "poi", "housenumber"]) == .openMapTiles)
        #expect(S.of(layers: ["water", "landuse"]) == nil, "layers both have say nothing")
        #expect(S.of(layers: ["land", "lakes"]) == nil)
        #expect(S.of(layers: []) == nil)
    }

    @Test func aProtomapsTileGivesStreetsPlacesPoisPeaksAndHouseNumbers() throws {
        let road = VectorTile.Feature(type: .lineString, parts: [[.init(x: 100, y: 2000), .init(x: 4000, y: 2000)]],
                                      properties: ["kind": .string("major_road"), "kind_detail": .string("primary_link"), "name": .string("Mannerheimintie"),
                                                   "name:sv": .string("Mannerheimvägen"), "min_zoom": .int(8), "is_tunnel": .bool(true)])
        let platform = VectorTile.Feature(type: .lineString, parts: [[.init(x: 100, y: 100), .init(x: 200, y: 100)]],
                                          properties: ["kind": .string("other"), "kind_detail": .string("platform"), "name": .string("Laituri")])
        let tile = VectorTile(layers: [
            VectorTile.Layer(name: "roads", features: [road, platform]),
            VectorTile.Layer(name: "places", features: [
                Self.point(500, 500, ["kind": .string("locality"), "kind_detail": .string("city"), "name": .string("Helsinki")]),
                Self.point(600, 600, ["kind": .string("neighbourhood"), "kind_detail": .string("suburb"), "name": .string("Kluuvi")]),
                Self.point(700, 700, ["kind": .string("macrohood"), "name": .string("Eteläinen")]),
            ]),
            VectorTile.Layer(name: "pois", features: [
                Self.point(800, 800, ["kind": .string("cafe"), "name": .string("Cafe Engel"), "min_zoom": .double(16)]),
                Self.point(900, 900, ["kind": .string("peak"), "name": .string("Halti"), "elevation": .int(1324)]),
                Self.point(1000, 1000, ["kind": .string("station"), "name": .string("Helsinki")]),
                Self.point(1100, 1100, ["kind": .string("department_store"), "name": .string("Stockmann")]),
                Self.point(1200, 1200, ["kind": .string("yes"), "name": .string("Kioski")]),
                Self.point(1300, 1300, ["kind": .string("park"), "name": .string("Esplanadi")]),
                Self.point(-50, 1300, ["kind": .string("cafe"), "name": .string("In the buffer")]),
            ]),
            VectorTile.Layer(name: "buildings", features: [
                VectorTile.Feature(type: .polygon, parts: [[.init(x: 0, y: 0), .init(x: 10, y: 0), .init(x: 10, y: 10)]], properties: ["kind": .string("building")]),
                Self.point(2000, 2030, ["kind": .string("address"), "addr_housenumber": .string("52")]),
            ]),
            VectorTile.Layer(name: "water", features: [Self.point(1400, 1400, ["kind": .string("bay"), "name": .string("Kaisaniemenlahti")])]),
            VectorTile.Layer(name: "earth", features: [
                Self.point(1500, 1500, ["kind": .string("island"), "name": .string("Suomenlinna")]),
                VectorTile.Feature(type: .lineString, parts: [[.init(x: 1, y: 1), .init(x: 9, y: 9)]], properties: ["kind": .string("cliff"), "name": .string("Cliff")]),
            ]),
        ])
        let names = TileNames(tile, tile: TileID(z: 15, x: 18654, y: 9484))
        #expect(names.schema == .protomaps)
        #expect(names.segments.map(\.kind) == ["primary"], "the link is its road's class; the platform no street")
        #expect(names.segments.first?.names.others == ["sv\u{1E}Mannerheimvägen"])
        let rows = Dictionary(names.points.map { ($0.names.name + " " + $0.what, $0.category) }, uniquingKeysWith: { a, _ in a })
        #expect(rows == ["Helsinki city": .city, "Kluuvi district": .suburb, "Eteläinen district": .suburb, "Cafe Engel café": .poi,
                         "Halti peak · 1,324 m": .peak, "Helsinki railway station": .station, "Stockmann department store": .poi,
                         "Kioski place": .poi, "Esplanadi park": .park, "Kaisaniemenlahti bay": .water, "Suomenlinna island": .other], "\(rows)")
        #expect(names.houseNumbers.map(\.number) == ["52"])
        // Staged as the builder does: the number takes the street beside it.
        let staged = NameFeatures.staged(names)
        #expect(staged.points.contains { $0.names.name == "Mannerheimintie 52" && $0.category == .address })
    }

    @Test func waterIsReadOnlyFromProtomapsTiles() {
        // OpenMapTiles' water layer holds no names; a name there is not read as a lake.
        let water = VectorTile.Layer(name: "water", features: [Self.point(10, 10, ["kind": .string("lake"), "name": .string("Järvi")])])
        let omt = TileNames(VectorTile(layers: [water, VectorTile.Layer(name: "transportation_name")]), tile: TileID(z: 14, x: 9327, y: 4742))
        #expect(omt.schema == .openMapTiles && omt.points.isEmpty)
        let pm = TileNames(VectorTile(layers: [water, VectorTile.Layer(name: "roads")]), tile: TileID(z: 14, x: 9327, y: 4742))
        #expect(pm.points.map(\.what) == ["lake"])
        #expect(TileNames(VectorTile(layers: [water]), tile: TileID(z: 14, x: 9327, y: 4742)).schema == nil)
    }

    @Test func aPlaceOfFortyLanguagesKeepsTheReadersFirst() throws {
        // Protomaps writes every one of its 41 languages OSM has; fewer are kept, Meridian's first.
        var properties: [String: VectorTile.Value] = ["name": .string("Helsinki"), "kind": .string("locality"), "kind_detail": .string("city")]
        for code in ["ar", "bg", "cs", "da", "de", "el", "es", "et", "fa", "fr", "ga", "he", "hi", "hu", "ja", "ko", "lt", "mr", "mt", "ne", "ru", "sk", "uk", "ur"] {
            properties["name:" + code] = .string("Helsinki (\(code))")
        }
        properties["name:sv"] = .string("Helsingfors")
        properties["name:zh-Hans"] = .string("赫尔辛基")
        properties["name:zh-Hant"] = .string("赫爾辛基")
        let names = try #require(TileNames.names(properties))
        #expect(names.others.count == TileNames.maxOtherNames)
        #expect(TileNames.name(in: ["sv"], others: names.others) == "Helsingfors")
        #expect(TileNames.name(in: ["zh"], others: names.others) == "赫尔辛基", "zh-Hans answers a Chinese reader")
        #expect(TileNames.name(in: ["ur"], others: names.others) == nil, "past the kept ones")
    }

    @Test func theHelsinkiFixtureIsSearched() throws {
        let index = try index()
        let street = try #require(index.search("aleksant", near: Self.centre, limit: 5).first)
        #expect(street.name == "Aleksanterinkatu" && street.category == .street && street.what == "street" && street.area == "Kluuvi", "\(street)")
        #expect(street.line.count >= 1)
        let shop = try #require(index.search("Stockmann", near: Self.centre, limit: 3).first)
        #expect(shop.name == "Stockmann" && shop.what == "department store")
        #expect(distance(shop.coordinate, NameIndexTests.stockmann) < 30)
        let address = try #require(index.search("Aleksanterinkatu 52", near: Self.centre, limit: 3).first)
        #expect(address.name == "Aleksanterinkatu 52" && address.category == .address)
        #expect(distance(address.coordinate, NameIndexTests.stockmann) < 80)
        let district = try #require(index.search("Kluuvi", near: Self.centre, limit: 3).first)
        #expect(district.category == .suburb && district.what == "district")
        #expect(index.search("Helsinki", near: Self.centre, limit: 3).first?.category == .city)
        // Swedish names find their street, as in the OpenMapTiles fixture with sv names.
        #expect(index.search("Alexandersgatan", near: Self.centre, limit: 3).first?.name == "Aleksanterinkatu")
        #expect(index.search("Unionsgatan 25", near: Self.centre, limit: 3).first?.name == "Unioninkatu 25")
    }

    @Test func bothSchemasGiveTheSameRowsForTheSameData() throws {
        let pm = try index(), omt = try index(Self.openMapTiles)
        for query in ["Aleksanterinkatu", "Mannerheimintie", "Eteläesplanadi", "Stockmann", "Kiasma", "Cafe Engel", "Aleksanterinkatu 52",
                      "Mannerheimintie 1", "Unioninkatu 25", "Kluuvi", "Helsinki", "Rautatientori"] {
            let a = try #require(omt.search(query, near: Self.centre, limit: 3).first, "\(query)")
            let b = try #require(pm.search(query, near: Self.centre, limit: 3).first, "\(query)")
            #expect(a.name == b.name && a.category == b.category && a.what == b.what && a.area == b.area, "\(query): \(a) / \(b)")
            // Streets are marked by their middle, which each schema's pieces place a little apart.
            #expect(distance(a.coordinate, b.coordinate) < (a.category == .street ? 150 : 2), "\(query): \(a.coordinate) / \(b.coordinate)")
        }
    }

    @Test func whatIsHereReadsTheProtomapsIndex() throws {
        let search = StreetSearch(places: nil, indexes: [try index()])
        // Aleksanterinkatu 52's address node (the OpenMapTiles fixture's README).
        #expect(search.whatIsHere(Coordinate(latitude: 60.168673, longitude: 24.941931))?.text == "Aleksanterinkatu 52, Keskusta")
        // On Kirkkokatu's centre line: the street, or a house number of it within 40 m.
        let street = try #require(search.whatIsHere(Coordinate(latitude: 60.170812, longitude: 24.952328))?.text)
        #expect(street.hasPrefix("Kirkkokatu") && street.hasSuffix(", Kluuvi"), "\(street)")
    }

    @Test func tilesOfNeitherSchemaAreSaidSo() throws {
        // The OpenMapTiles fixture's deepest tiles replaced by one of layers no reader knows.
        let alien = MVTEncoder.encode(VectorTile(layers: [VectorTile.Layer(name: "things", features: [Self.point(5, 5, ["name": .string("Thing")])])]))
        let path = NSTemporaryDirectory() + "alien-\(UUID().uuidString).mbtiles"
        try FileManager.default.copyItem(atPath: NameIndexTests.mbtiles, toPath: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var db: OpaquePointer?
        #expect(sqlite3_open(path, &db) == SQLITE_OK)
        let hex = alien.map { String(format: "%02x", $0) }.joined()
        #expect(sqlite3_exec(db, "UPDATE tiles SET tile_data = x'\(hex)' WHERE zoom_level = 14", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(db)
        let outcome = try NameIndexBuilder(archive: try NameArchive(path: path), folder: folder).build()
        #expect(outcome.features == 0 && !outcome.readsSchema)
        let protomaps = try NameIndexBuilder(archive: try NameArchive(path: Self.protomaps), folder: folder).build()
        #expect(protomaps.features > 1500 && protomaps.readsSchema)
    }
}
