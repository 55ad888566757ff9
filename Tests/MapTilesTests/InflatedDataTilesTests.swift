import FoundationEssentials
import MapGeometry
import MapTiles
import Testing

/// The tiles drawn from one data tile (16 a zoom deeper than a 512-point source's data) read
/// and inflate it once, not once each.
struct InflatedDataTilesTests {
    @Test func theTilesOfOneDataTileInflateItOnce() throws {
        let tile = MVTEncoder.encode(VectorTile(layers: [.init(name: "water", features: [])]))
        let gzipped = try Gzip.compress([UInt8](tile))
        let recent = InflatedDataTiles()
        var reads = 0
        let data = TileID(z: 14, x: 9326, y: 4739)
        // Meridian's z16 tiles drawn from the z14 data tile of a 512-point source.
        let children = (0..<4).flatMap { dy in (0..<4).map { dx in TileID(z: 16, x: data.x * 4 + dx, y: data.y * 4 + dy) } }
        for t in children {
            let p = try VectorOverzoom.payload(for: t, bounds: nil, dataZoomRange: 0...14, vectorTileSize: 512, name: "test", recent: recent) { id in
                #expect(id == data)
                reads += 1
                return gzipped
            }
            guard case let .vector(bytes, from)? = p else { Issue.record("no vector payload"); continue }
            #expect(bytes == tile && from == data)
        }
        #expect(reads == 1)
        // Without the cache each asks again.
        reads = 0
        for t in children.prefix(3) {
            _ = try VectorOverzoom.payload(for: t, bounds: nil, dataZoomRange: 0...14, vectorTileSize: 512, name: "test") { _ in reads += 1; return gzipped }
        }
        #expect(reads == 3)
    }
}
