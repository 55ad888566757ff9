import CSQLite
import Foundation
import MapGeometry
import MapTiles
import Testing
import TestSupport

/// The real archive in Tests/Fixtures/vector: Helsinki from OpenStreetMap, made by tilemaker as
/// MBTiles and converted by the PyPI `pmtiles` tool. Both files hold the same tiles.
struct PMTilesFixtureFileTests {
    static let folder = packageRoot.appendingPathComponent("Tests/Fixtures/vector")
    static let pmtiles = folder.appendingPathComponent("helsinki.pmtiles").path
    static let mbtiles = folder.appendingPathComponent("helsinki.mbtiles").path
    static let present = FileManager.default.fileExists(atPath: pmtiles) && FileManager.default.fileExists(atPath: mbtiles)

    @Test(.enabled(if: present))
    func everyTileMatchesTheMBTilesTwin() throws {
        let mb = try MBTilesSource(path: Self.mbtiles, vectorTileSize: 512)
        let pm = try PMTilesSource(path: Self.pmtiles)
        #expect(pm.isVector && mb.isVector)
        #expect(pm.dataZoomRange == mb.dataZoomRange)
        #expect(pm.zoomRange == mb.zoomRange)
        #expect(pm.attribution == mb.attribution)
        let ids = try mb.database.rows("SELECT zoom_level, tile_column, tile_row FROM tiles") { st in
            (Int(sqlite3_column_int64(st, 0)), Int(sqlite3_column_int64(st, 1)), Int(sqlite3_column_int64(st, 2)))
        }
        #expect(ids.count > 10)
        var checked = 0
        for (z, x, tmsY) in ids {
            let tile = TileID(z: z, x: x, y: (1 << z) - 1 - tmsY)
            guard case let .vector(a, ta)? = try mb.payload(for: tile), case let .vector(b, tb)? = try pm.payload(for: tile) else {
                Issue.record("\(tile): not vector in both"); continue
            }
            #expect(a == b && ta == tb, "\(tile) differs")
            // Stored in the archive (some low-zoom tiles hold nothing: gzipped empty tiles).
            #expect(try pm.data(for: tile) != nil, "\(tile) is missing from the PMTiles archive")
            checked += 1
        }
        #expect(checked == ids.count)
        // Over-zoomed alike too.
        // Over-zoomed alike too, inside the data's bounds (outside them neither has a tile).
        let deep = TileID(containing: Coordinate(latitude: 60.17, longitude: 24.94), zoom: 18)
        if case let .vector(a, ta)? = try mb.payload(for: deep), case let .vector(b, tb)? = try pm.payload(for: deep) {
            #expect(a == b && ta == tb && ta.z == 14)
        } else { Issue.record("no over-zoomed tile") }
        let outside = TileID(containing: Coordinate(latitude: 48.85, longitude: 2.35), zoom: 14)
        #expect(try mb.payload(for: outside) == nil && pm.payload(for: outside) == nil)
    }

    @Test(.enabled(if: present))
    func theRealTilesDecode() throws {
        let pm = try PMTilesSource(path: Self.pmtiles)
        let tile = TileID(containing: Coordinate(latitude: 60.1699, longitude: 24.9384), zoom: pm.dataZoomRange.upperBound)
        guard case let .vector(bytes, _)? = try pm.payload(for: tile) else { Issue.record("no tile over Helsinki"); return }
        let vt = try MVTDecoder.decode(bytes)
        #expect(!vt.layers.isEmpty)
    }
}
