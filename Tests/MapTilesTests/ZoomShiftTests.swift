import Foundation
import MapGeometry
import MapTiles
import Testing
import TestSupport

/// `TileSource.zoomShift` — how many zooms shallower than drawn a source numbers its tiles —
/// is the one fact a drawn tile's data tile, a saved area's zooms and a style's zoom follow.
/// For every kind of source: the tile that draws z15 is that many zooms up, and wrappers say
/// what they wrap.
struct ZoomShiftTests {
    /// The stored tile whose bytes `source` gives for `tile`.
    func dataTile(_ source: TileSource, _ tile: TileID) throws -> TileID? {
        switch try source.payload(for: tile) {
        case let .vector(_, tile: t)?: return t
        case .encodedImage?: return tile
        case let .encodedImageRegion(_, tile: t)?: return t
        default: return nil
        }
    }

    let drawn = TileID(z: 15, x: 18_652, y: 9_480)

    func mbtiles(_ format: String, data: Data) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("zoom-shift-\(UUID()).mbtiles").path
        let stored = drawn.ancestor(atZoom: 14)
        try MBTilesFixture.write(path, metadata: ["format": format, "minzoom": "0", "maxzoom": "14", "name": "test"],
                                 tiles: [(stored.z, stored.x, stored.y, data), (drawn.z, drawn.x, drawn.y, data)].filter { $0.0 <= 14 })
        return path
    }

    @Test func vectorTilesMadeFor512PointsAreNumberedAZoomUp() throws {
        let path = try mbtiles("pbf", data: Data([0x1a, 0x00]))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let wide = try MBTilesSource(path: path, vectorTileSize: 512)
        #expect(wide.zoomShift == 1)
        #expect(try dataTile(wide, drawn)?.z == drawn.z - wide.zoomShift)
        let narrow = try MBTilesSource(path: path, vectorTileSize: 256)
        #expect(narrow.zoomShift == 0)
        let at14 = drawn.ancestor(atZoom: 14)
        #expect(try dataTile(narrow, at14) == at14)
        // Wrappers say what they wrap: a saved area over it, a style's pictures with it.
        #expect(AreaBackedSource(primary: wide, areas: []).zoomShift == 1)
        #expect(StyledTileSource(vector: wide, pictures: []).zoomShift == 1)
        #expect(AreaBackedSource(primary: narrow, areas: []).zoomShift == 0)
    }

    @Test func pmtilesStreetMapsAreNumberedAZoomUp() throws {
        let stored = drawn.ancestor(atZoom: 14)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("zoom-shift-\(UUID()).pmtiles").path
        try PMTilesFixture.archive([(stored.z, stored.x, stored.y, Data([0x1a, 0x00]))]).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try PMTilesSource(path: path)
        #expect(source.zoomShift == 1)
        #expect(try dataTile(source, drawn) == stored)
    }

    @Test func picturesAndOnlineRastersAreNumberedAsDrawn() throws {
        let path = try mbtiles("png", data: ImageFixture.blackPNG(width: 4, height: 4))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let raster = try MBTilesSource(path: path)
        #expect(raster.zoomShift == 0)
        let at14 = drawn.ancestor(atZoom: 14)
        #expect(try dataTile(raster, at14) == at14)
        #expect(DebugGridSource().zoomShift == 0)
    }
}
