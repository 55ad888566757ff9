import CSQLite
import Foundation
import MapCore
import MapGeometry
@testable import MapSearch
@testable import MapTiles
import Testing
import TestSupport

/// The street-level search index on real data: central Helsinki from OpenStreetMap
/// (Tests/Fixtures/vector, made by tilemaker), indexed from its z14 tiles.
@Suite(.serialized) struct NameIndexTests {
    static let mbtiles = PMTilesFixtureFileTests.mbtiles
    static let pmtiles = PMTilesFixtureFileTests.pmtiles
    /// The same Helsinki with Swedish, English and Finnish names, and Karhula in Kotka.
    static let names = PMTilesFixtureFileTests.folder.appendingPathComponent("helsinki-names.mbtiles").path
    static let kotka = PMTilesFixtureFileTests.folder.appendingPathComponent("kotka.mbtiles").path
    /// Stockmann, the department store at Aleksanterinkatu 52 (OSM node, decoded from z14).
    static let stockmann = Coordinate(latitude: 60.16830, longitude: 24.94215)
    static let centre = Coordinate(latitude: 60.1700, longitude: 24.9440)

    let folder = NSTemporaryDirectory() + "names-\(UUID().uuidString)"

    func index(_ path: String = mbtiles) throws -> NameIndex {
        let archive = try NameArchive(path: path)
        try NameIndexBuilder(archive: archive, folder: folder).build()
        return try #require(NameIndex.open(archive, folder: folder))
    }

    /// A copy of the fixture changed by `sql` (deleted by the caller).
    func copy(_ name: String, changedBy sql: String) throws -> String {
        let path = NSTemporaryDirectory() + "\(name)-\(UUID().uuidString).mbtiles"
        try FileManager.default.copyItem(atPath: Self.mbtiles, toPath: path)
        var db: OpaquePointer?
        #expect(sqlite3_open(path, &db) == SQLITE_OK)
        #expect(sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK)
        sqlite3_close(db)
        return path
    }

    func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        TrackStatistics.distance(a.latitude, a.longitude, b.latitude, b.longitude)
    }

    @Test func aStreetIsFoundByAPrefixWithItsWholeLine() throws {
        let results = try index().search("aleksant", near: Self.centre, limit: 8)
        let first = try #require(results.first)
        #expect(first.name == "Aleksanterinkatu" && first.category == .street, "\(results.map(\.name))")
        #expect(first.what == "street" && first.area == "Kluuvi")
        // Its pieces from four tiles are one street about a kilometre long, not a tile's worth.
        let points = first.line.joined().map { $0 }
        let west = try #require(points.map(\.longitude).min()), east = try #require(points.map(\.longitude).max())
        #expect(distance(Coordinate(latitude: 60.169, longitude: west), Coordinate(latitude: 60.169, longitude: east)) > 600)
        #expect(results.filter { $0.name == "Aleksanterinkatu" && $0.category == .street }.count == 1, "one street, not its pieces")
    }

    @Test func diacriticsAndDoubledLettersNeedNotBeTyped() throws {
        let index = try index()
        let found = index.search("etelaesplanadi", near: Self.centre, limit: 5)
        #expect(found.first?.name == "Eteläesplanadi", "\(found.map(\.name))")
        // Typed with one l and one p short: runs of one letter count as one.
        #expect(index.search("etelaesplanadi", near: nil, limit: 5).first?.name == index.search("eteläesplanaadi", near: nil, limit: 5).first?.name)
        #expect(SearchText.key("Töölönkatu") == SearchText.key("tolonkatu"))
    }

    @Test func shopsStationsAndAddressesAreFound() throws {
        let index = try index()
        let shop = try #require(index.search("Stockmann", near: Self.centre, limit: 5).first)
        #expect(shop.name == "Stockmann" && shop.what == "department store", "\(shop)")
        #expect(distance(shop.coordinate, Self.stockmann) < 30)

        let station = index.search("rautatientori", near: Self.centre, limit: 5)
        #expect(station.contains { $0.category == .station }, "\(station.map { "\($0.name) \($0.what)" })")

        let address = try #require(index.search("Aleksanterinkatu 52", near: Self.centre, limit: 5).first)
        #expect(address.name == "Aleksanterinkatu 52" && address.category == .address)
        #expect(distance(address.coordinate, Self.stockmann) < 80, "Stockmann's house number is by Stockmann")
        let first = try #require(index.search("Mannerheimintie 1", near: Self.centre, limit: 5).first)
        #expect(first.name == "Mannerheimintie 1", "the whole address before 10, 12…")
    }

    @Test func anotherLanguagesNameFindsTheStreet() throws {
        let index = try index(Self.names)
        let swedish = try #require(index.search("Alexandersgatan", near: Self.centre, limit: 3).first)
        #expect(swedish.name == "Aleksanterinkatu" && swedish.category == .street, "shown by its own name: \(swedish)")
        #expect(index.search("georgsg", near: Self.centre, limit: 3).first?.name == "Yrjönkatu")
        #expect(index.search("yrjonkatu", near: Self.centre, limit: 3).first?.name == "Yrjönkatu")
        let station = index.search("Helsinki railway station", near: Self.centre, limit: 3)
        #expect(station.first?.category == .station, "\(station.map { "\($0.name) \($0.what)" })")
        // An address by a street's other name too.
        #expect(index.search("Unionsgatan 25", near: Self.centre, limit: 3).first?.name == "Unioninkatu 25")
    }

    @Test func twoTownsMapsAreSearchedTogether() throws {
        let search = StreetSearch(places: nil, indexes: [try index(Self.names), try index(Self.kotka)])
        let karhula = Coordinate(latitude: 60.53, longitude: 26.95)
        let suurniitty = try #require(search.search("suurniitty", near: Self.centre, limit: 3).first)
        #expect(suurniitty.origin != .offline(try NameArchive(path: Self.names).title))
        #expect(TrackStatistics.distance(suurniitty.coordinate.latitude, suurniitty.coordinate.longitude, karhula.latitude, karhula.longitude) < 3000)
        #expect(search.search("yrjonkatu", near: karhula, limit: 3).first?.name == "Yrjönkatu")
    }

    @Test func lettersInsideAWordFindWhenWordsDoNot() throws {
        // "esplanadi" is inside Pohjoisesplanadi and Eteläesplanadi; the word search also
        // finds the bus stop named Esplanadi, ranked first as a whole word.
        let found = try index().search("esplanadi", near: Self.centre, limit: 8).map(\.name)
        #expect(found.first == "Esplanadi")
        #expect(found.contains("Pohjoisesplanadi") && found.contains("Eteläesplanadi"), "\(found)")
    }

    @Test func theNearerOfTwoSameNamedStreetsComesFirst() throws {
        // The same real tiles again, 2° further east (a tile's bytes are relative to its address).
        let moved = try copy("moved", changedBy: "UPDATE tiles SET tile_column = tile_column + 91 WHERE zoom_level = 14")
        defer { try? FileManager.default.removeItem(atPath: moved) }
        let search = StreetSearch(places: nil, indexes: [try index(), try index(moved)])
        let east = Coordinate(latitude: 60.169, longitude: Self.centre.longitude + 91 * 360 / 16384)
        for near in [Self.centre, east] {
            let streets = search.search("Aleksanterinkatu", near: near, limit: 4).filter { $0.category == .street }
            #expect(streets.count == 2, "\(streets)")
            #expect(distance(streets[0].coordinate, near) < distance(streets[1].coordinate, near))
            #expect(distance(streets[0].coordinate, near) < 2000)
        }
    }

    /// Issue 54: nearness weighs by the view's scale; at a street's scale it still decides.
    /// Helsinki's Mannerheimintie 1 and the same tiles 2° east, with the app's own places.
    @Test func anAddressFromAStreetsViewIsTheNearOneWhateverElseIsFound() throws {
        let moved = try copy("moved", changedBy: "UPDATE tiles SET tile_column = tile_column + 91 WHERE zoom_level = 14")
        defer { try? FileManager.default.removeItem(atPath: moved) }
        let places = PlaceIndex(reading: try Data(contentsOf: packageRoot.appendingPathComponent("Resources/places.tsv")))
        let search = StreetSearch(places: places, indexes: [try index(), try index(moved)])
        let east = Coordinate(latitude: 60.169, longitude: Self.centre.longitude + 91 * 360 / 16384)
        let address = Coordinate(latitude: 60.168148, longitude: 24.941717)
        for zoom in [16.0, 18, 12] {
            let first = try #require(search.search("mannerheimintie 1", near: Self.centre, zoom: zoom, limit: 8).first)
            #expect(first.name == "Mannerheimintie 1" && distance(first.coordinate, address) < 300, "z\(zoom): \(first.name) at \(first.coordinate)")
            let there = try #require(search.search("mannerheimintie 1", near: east, zoom: zoom, limit: 8).first)
            #expect(there.name == "Mannerheimintie 1" && distance(there.coordinate, east) < 2000, "z\(zoom) east: \(there.coordinate)")
        }
        // Across a continent the two alike are still put nearest first.
        let wide = try #require(search.search("mannerheimintie 1", near: Self.centre, zoom: 4, limit: 8).first)
        #expect(wide.name == "Mannerheimintie 1" && distance(wide.coordinate, address) < 300, "\(wide.coordinate)")
        // The built-in places go through the same rule with the streets: "zur" at z3 over 0°, 0°.
        #expect(search.search("zur", near: Coordinate(latitude: 0, longitude: 0), zoom: 3, limit: 3).first?.name == "Zürich")
    }

    @Test func manyTownsInOneMapKeepTheirOwnAddressesAndTheNearestComesFirst() throws {
        // The fixture's z14 tiles again over a 6 × 6 grid of their own extent: 36 towns, each
        // with its "Mannerheimintie 1", more than the candidates a query first looks at.
        var sql = "CREATE TEMP TABLE d AS SELECT * FROM tiles WHERE zoom_level = 14;"
        for dx in 0..<6 { for dy in 0..<6 where dx + dy > 0 {
            sql += "INSERT INTO tiles SELECT zoom_level, tile_column + \(2 * dx), tile_row + \(2 * dy), tile_data FROM d;"
        } }
        let path = try copy("towns", changedBy: sql)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let index = try index(path)
        // The copy 5 tiles east and 4 north of the original (two tiles a step).
        let far = Coordinate(latitude: 60.1682, longitude: 24.9417 + 10 * 360 / 16384.0)
        let found = index.search("Mannerheimintie 1", near: far, limit: 8).filter { $0.name == "Mannerheimintie 1" }
        #expect(found.count >= 2, "each town keeps its own: \(found.count)")
        let first = try #require(found.first)
        #expect(distance(first.coordinate, far) < 300, "the nearest first: \(first.coordinate)")
        // Typed short of a whole word, the numbers 1, 10, 12… of 36 towns are more than the
        // candidates: those near the view are asked too.
        let typing = try #require(index.search("mannerheimint 1", near: far, limit: 8).first)
        #expect(typing.name.hasPrefix("Mannerheimintie 1") && distance(typing.coordinate, far) < 300, "\(typing.name) at \(typing.coordinate)")
        let streets = index.search("Aleksanterinkatu", near: far, limit: 8).filter { $0.category == .street }
        let nearest = try #require(streets.first)
        #expect(streets.count >= 2 && distance(nearest.coordinate, far) < 1500)
    }

    @Test func aDamagedStagingOrIndexFileIsBuiltAgain() throws {
        let archive = try NameArchive(path: Self.mbtiles)
        let file = NameIndex.file(for: archive.path, in: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: file + ".part"))
        try Data(repeating: 0x53, count: 5000).write(to: URL(fileURLWithPath: file))
        #expect(NameIndex.open(archive, folder: folder) == nil)
        try NameIndexBuilder(archive: archive, folder: folder).build()
        let rebuilt = try #require(NameIndex.open(archive, folder: folder))
        #expect(rebuilt.search("Stockmann", near: nil, limit: 1).first?.name == "Stockmann")
        #expect(!FileManager.default.fileExists(atPath: file + ".part"), "the staging goes once the index is whole")
        // A line stored with fewer than two points is no line (a damaged file's bytes).
        #expect(LineCoding.decode(Data([1, 0, 0, 0, 9, 9, 9, 9, 9, 9, 9, 9])).isEmpty)
        #expect(LineCoding.decode(Data([255, 255, 255, 255, 1])).isEmpty)
    }

    @Test func pmtilesGiveTheSameIndexAsMBTiles() throws {
        let a = try index(Self.mbtiles), b = try index(Self.pmtiles)
        #expect(a.features == b.features && a.features > 1000)
        #expect(a.search("kirkkokatu", near: nil, limit: 3).map(\.name) == b.search("kirkkokatu", near: nil, limit: 3).map(\.name))
    }

    @Test func whatIsHereSaysTheStreetAndTheDistrict() throws {
        let search = StreetSearch(places: nil, indexes: [try index()])
        // On Kirkkokatu's centre line, 38 m from any other car road (the fixture's README).
        let here = try #require(search.whatIsHere(Coordinate(latitude: 60.170812, longitude: 24.952328)))
        let text = try #require(here.text)
        #expect(text.hasPrefix("Kirkkokatu"), "\(text)")
        #expect(text.contains(", "), "with its district: \(text)")
        // Far from any street map: nothing.
        #expect(search.whatIsHere(Coordinate(latitude: 0, longitude: 0)) == nil)
    }

    @Test func aStoppedBuildResumesWhereItWas() throws {
        let archive = try NameArchive(path: Self.mbtiles)
        #expect(archive.tiles.count == 4)
        let first = NameIndexBuilder(archive: archive, folder: folder, batch: 1)
        var calls = 0
        #expect(throws: NameIndexBuilder.Cancelled.self) {
            try first.build { _ in
                calls += 1
                if calls == 2 { first.cancel() }
            }
        }
        #expect(NameIndex.open(archive, folder: folder) == nil, "not searchable until complete")
        let outcome = try NameIndexBuilder(archive: archive, folder: folder, batch: 1).build()
        #expect(outcome.tilesRead == 2, "the two tiles read before the stop are not read again")
        let resumed = try #require(NameIndex.open(archive, folder: folder))
        #expect(resumed.features == (try index()).features)
    }

    @Test func aChangedFileIsIndexedAgain() throws {
        let copy = try copy("changed", changedBy: "SELECT 1")
        defer { try? FileManager.default.removeItem(atPath: copy) }
        _ = try index(copy)
        var db: OpaquePointer?
        #expect(sqlite3_open(copy, &db) == SQLITE_OK)
        #expect(sqlite3_exec(db, "DELETE FROM tiles WHERE zoom_level = 14 AND tile_column = 9327", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(db)
        let archive = try NameArchive(path: copy)
        #expect(NameIndex.open(archive, folder: folder) == nil, "the old index is of another file")
        let again = try index(copy)
        #expect(again.search("Stockmann", near: nil, limit: 3).isEmpty, "Stockmann's tile is gone")
    }

    @Test func brokenTilesCostTheirNamesOnly() throws {
        // One tile's bytes are garbage (a gzip header, then nothing that inflates).
        let path = try copy("broken", changedBy: "UPDATE tiles SET tile_data = x'1f8b0800deadbeef' WHERE zoom_level = 14 AND tile_column = 9326 AND tile_row = 11642")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let archive = try NameArchive(path: path)
        let outcome = try NameIndexBuilder(archive: archive, folder: folder).build()
        #expect(outcome.broken.count == 1, "\(outcome.broken)")
        let index = try #require(NameIndex.open(archive, folder: folder))
        #expect(index.search("Stockmann", near: nil, limit: 1).first?.name == "Stockmann")
    }

    @Test func hostileNamesAreBounded() throws {
        let long = String(repeating: "شارع ", count: 1000)
        var f = VectorTile.Feature(type: .lineString, parts: [[.init(x: 0, y: 0), .init(x: 4096, y: 4096)], [.init(x: Int32.max, y: Int32.min), .init(x: 0, y: 1)]],
                                   properties: ["name": .string(long), "name:en": .string(long + "x"), "class": .string("minor")])
        let point = VectorTile.Feature(type: .point, parts: [[.init(x: 10, y: 10)]], properties: ["name": .string("Peak"), "ele": .double(.nan)])
        f.id = 1
        let tile = VectorTile(layers: [VectorTile.Layer(name: "transportation_name", features: [f]),
                                       VectorTile.Layer(name: "mountain_peak", features: [point])])
        let names = TileNames(tile, tile: TileID(z: 14, x: 9327, y: 4742))
        #expect(names.segments.count == 1, "the piece reaching far outside the world is dropped")
        #expect(names.segments[0].names.name.count == TileNames.maxNameLength)
        #expect(names.points.first?.what == "peak", "a NaN elevation is not written")
        let staged = NameFeatures.staged(names)
        #expect(NameFeatures.mergeStreets(staged.segments).count + staged.points.count == 2)
    }
}
