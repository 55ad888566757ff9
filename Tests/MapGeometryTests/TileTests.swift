import Foundation
import MapGeometry
import Testing

struct TileTests {
    @Test func familyRelations() {
        let t = TileID(z: 10, x: 518, y: 352)
        #expect(t.parent == TileID(z: 9, x: 259, y: 176))
        #expect(t.ancestor(atZoom: 0) == TileID(z: 0, x: 0, y: 0))
        #expect(t.children.allSatisfy { $0.parent == t })
        #expect(Set(t.children).count == 4)
        #expect(TileID(z: 0, x: 0, y: 0).parent == nil)
        #expect(TileID(z: 3, x: 1, y: 0).tmsY == 7)
    }

    @Test func childrenTileTheirParent() {
        let t = TileID(z: 4, x: 5, y: 9)
        let r = t.mapRect
        let area = t.children.map { $0.mapRect.size.width * $0.mapRect.size.height }.reduce(0, +)
        #expect(abs(area - r.size.width * r.size.height) < 1e-12)
        for c in t.children { #expect(r.contains(c.mapRect.center)) }
    }

    @Test("Cover counts for a viewport", arguments: [
        // (viewport points, zoom, expected count without buffer)
        (256.0, 256.0, 2, 1 * 1),   // exactly one tile when aligned to a tile
        (512.0, 512.0, 2, 2 * 2),
        (800.0, 600.0, 3, 4 * 3),   // 800/256 → 4 columns when aligned at a tile edge; 600 → 3 rows
    ])
    func coverCounts(w: Double, h: Double, z: Int, expected: Int) {
        let rect = MapRect(x: 0, y: 0, width: w / pow(2, Double(z)), height: h / pow(2, Double(z)))
        #expect(TileCover.tiles(covering: rect, tileZoom: z).count == expected)
    }

    @Test func coverWithBufferAddsARing() {
        let z = 5
        let size = 256.0 / 32
        let rect = MapRect(x: 10 * size, y: 10 * size, width: 3 * size, height: 2 * size)
        #expect(TileCover.tiles(covering: rect, tileZoom: z).count == 6)
        #expect(TileCover.tiles(covering: rect, tileZoom: z, buffer: 1).count == 5 * 4)
        #expect(TileCover.tiles(covering: rect, tileZoom: z, buffer: 2).count == 7 * 6)
    }

    @Test func coverOrdersFromTheCentreOut() {
        let rect = MapRect(x: 0, y: 0, width: 256, height: 256)
        let tiles = TileCover.tiles(covering: rect, tileZoom: 3)
        let c = rect.center
        let d = tiles.map { t -> Double in let m = t.mapRect.center; return hypot(m.x - c.x, m.y - c.y) }
        #expect(d == d.sorted())
    }

    @Test func coverDropsRowsOutsideTheWorldButKeepsWrappedColumns() {
        // A view straddling the antimeridian and the north edge.
        let rect = MapRect(x: 250, y: -10, width: 12, height: 20)
        let tiles = TileCover.tiles(covering: rect, tileZoom: 4)
        #expect(tiles.allSatisfy { $0.y >= 0 })
        #expect(tiles.contains { $0.x == 16 })           // east of the world's edge…
        #expect(tiles.contains { $0.wrapped.x == 0 })    // …which is column 0 again
    }

    @Test("Display zoom rounds", arguments: [(2.49, 2), (2.5, 3), (2.51, 3), (19.7, 18), (-0.2, 0)])
    func tileZoom(zoom: Double, expected: Int) {
        #expect(TileCover.tileZoom(forZoom: zoom, maxZoom: 18) == expected)
    }
}
