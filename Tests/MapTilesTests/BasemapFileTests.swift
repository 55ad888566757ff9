import CSQLite
import Foundation
import MapGeometry
import MapTiles
import Testing

/// Checks on the committed Resources/basemap.mbtiles, the output of the basemap builder.
struct BasemapFileTests {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Resources/basemap.mbtiles").path

    @Test func metadataIsComplete() throws {
        let src = try MBTilesSource(path: Self.path)
        for key in ["name", "format", "minzoom", "maxzoom", "bounds", "center", "attribution", "description", "json"] {
            #expect(!(src.metadata[key] ?? "").isEmpty, "metadata \(key) missing")
        }
        #expect(src.metadata["format"] == "pbf" && src.isVector)
        #expect(src.dataZoomRange == 0...7)
        #expect(src.attribution == "Natural Earth · GeoNames")
        for layer in ["land", "lakes", "rivers", "glaciers", "urban", "borders", "states", "places"] {
            #expect(src.metadata["json"]!.contains(#""id":"\#(layer)""#))
        }
    }

    @Test("Land has tiles at every zoom", arguments: [
        ("Paris", 48.8566, 2.3522), ("Madrid", 40.4168, -3.7038), ("Beijing", 39.9042, 116.4074),
        ("Nairobi", -1.2921, 36.8219), ("Lima", -12.0464, -77.0428), ("Canberra", -35.2809, 149.13),
    ])
    func landTilesExist(name: String, lat: Double, lon: Double) throws {
        let src = try MBTilesSource(path: Self.path)
        for z in 0...7 {
            let t = TileID(containing: Coordinate(latitude: lat, longitude: lon), zoom: z)
            let data = try #require(try src.data(for: t), "\(name): no tile \(t)")
            let vt = try MVTDecoder.decode(data)
            #expect(vt.layer("land") != nil, "\(name) \(t) has no land")
        }
    }

    @Test func sizesAreSane() throws {
        let size = try FileManager.default.attributesOfItem(atPath: Self.path)[.size] as! Int
        #expect(size <= 8_000_000, "basemap is \(size) bytes")
        let src = try MBTilesSource(path: Self.path)
        let stats = try src.database.rows("SELECT zoom_level, count(*), max(length(tile_data)) FROM tiles GROUP BY zoom_level") {
            (Int(sqlite3_column_int64($0, 0)), Int(sqlite3_column_int64($0, 1)), Int(sqlite3_column_int64($0, 2)))
        }
        #expect(stats.map(\.0) == Array(0...7))
        for (z, count, biggest) in stats {
            #expect(count <= 1 << (2 * z))
            #expect(biggest < 512 * 1024, "z\(z) has a tile of \(biggest) bytes")
        }
        // The open ocean has no tile at z7: it is drawn as water.
        #expect(try src.data(for: TileID(containing: Coordinate(latitude: 30, longitude: -40), zoom: 7)) == nil)
    }

    @Test func placesCarryNamesPopulationsAndCapitals() throws {
        let src = try MBTilesSource(path: Self.path)
        let t = TileID(containing: Coordinate(latitude: 48.8566, longitude: 2.3522), zoom: 5)
        let vt = try MVTDecoder.decode(try #require(try src.data(for: t)))
        let places = vt.places(in: t, dataTile: t)
        let paris = try #require(places.first { $0.name == "Paris" })
        #expect(paris.capital && paris.population > 2_000_000)
        #expect(abs(WebMercator.unproject(paris.point).latitude - 48.8566) < 0.01)
        #expect(places.contains { $0.name == "Lyon" && !$0.capital })
    }

    @Test func overZoomServesTheDeepestAncestor() throws {
        let src = try MBTilesSource(path: Self.path)
        let deep = TileID(containing: Coordinate(latitude: 48.8566, longitude: 2.3522), zoom: 12)
        guard case let .vector(_, dataTile)? = try src.payload(for: deep) else { Issue.record("no payload"); return }
        #expect(dataTile == deep.ancestor(atZoom: 7))
        #expect(src.zoomRange.upperBound == 20)
    }

    @Test func badFilesAreClearErrors() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mbt-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let junk = dir.appendingPathComponent("junk.mbtiles")
        try Data("definitely not sqlite".utf8).write(to: junk)
        #expect(throws: (any Error).self) { try MBTilesSource(path: junk.path) }
        #expect(throws: (any Error).self) { try MBTilesSource(path: dir.appendingPathComponent("none.mbtiles").path) }
    }
}
