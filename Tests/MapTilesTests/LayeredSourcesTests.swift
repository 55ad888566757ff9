import Foundation
import MapGeometry
@testable import MapTiles
import Platform
import Testing

/// Sources drawn from other sources' tiles: terrain past its heights' deepest zoom (many
/// tiles from one DEM tile) and a style's picture sources beside its vector tiles.
struct LayeredSourcesTests {
    /// Counts what it is asked and told; its tiles are their own id's bytes, slowly.
    final class Recording: TileSource, @unchecked Sendable {
        let name = "rec"
        let zoomRange: ClosedRange<Int>
        let attribution = ""
        let concurrency = 8
        private let lock = Lock()
        private(set) var asked: [TileID] = []
        private(set) var cancelled: [TileID] = []
        private(set) var told: [(TileID, Bool)] = []
        let vector: Bool
        init(zooms: ClosedRange<Int>, vector: Bool = false) { zoomRange = zooms; self.vector = vector }
        func payload(for tile: TileID) throws -> TilePayload? {
            lock.lock(); asked.append(tile); lock.unlock()
            usleep(20_000)
            return vector ? .vector(Data("\(tile)".utf8), tile: tile) : .encodedImage(Data("\(tile)".utf8))
        }
        func cancel(_ tiles: [TileID]) { lock.lock(); cancelled += tiles; lock.unlock() }
        func decoded(_ tile: TileID, payload: TilePayload, ok: Bool) { lock.lock(); told.append((tile, ok)); lock.unlock() }
    }

    @Test func tilesPastTheHeightsShareOneFetchOfTheirDEMTile() throws {
        let dem = Recording(zooms: 0...12)
        let terrain = TerrainSource(dem: dem)
        #expect(terrain.zoomRange.upperBound > 12)
        let parent = TileID(z: 12, x: 2065, y: 1511)
        let children = (0..<4).flatMap { i in (0..<4).map { j in TileID(z: 14, x: parent.x * 4 + i, y: parent.y * 4 + j) } }
        final class Results: @unchecked Sendable { let lock = Lock(); var list: [TilePayload] = [] }
        let results = Results()
        let group = DispatchGroup()
        for c in children {
            group.enter()
            startThread(name: "t") {
                if let p = try? terrain.payload(for: c) { results.lock.lock(); results.list.append(p); results.lock.unlock() }
                group.leave()
            }
        }
        group.wait()
        // Fetched once; every child drawn from it, as the heights of the z12 tile.
        #expect(dem.asked == [parent])
        #expect(results.list.count == 16)
        #expect(results.list.allSatisfy { if case let .terrain(_, _, t) = $0 { t == parent } else { false } })
        // One child no longer wanted does not cancel what its siblings wait for; a tile of the
        // heights' own zoom is cancelled as itself.
        terrain.cancel([children[0], parent])
        #expect(dem.cancelled == [parent])
        // The DEM source hears of the tile it gave, not of the child drawn.
        terrain.decoded(children[3], payload: .terrain(Data(), encoding: .terrarium, tile: parent), ok: true)
        #expect(dem.told.map(\.0) == [parent])
    }

    @Test func aStylesPicturesComeFromTheirOwnTilesAtTheZoomsTheyAreDrawn() throws {
        let vector = Recording(zooms: 0...14, vector: true)
        let big = Recording(zooms: 0...6), small = Recording(zooms: 0...12)
        // `big`: 512-pixel tiles drawn at style zooms 0–7; `small`: 256-pixel ones at every zoom.
        let styled = StyledTileSource(vector: vector, pictures: [
            .init(name: "big", source: big, tileSize: 512, styleZooms: 0..<7),
            .init(name: "small", source: small, tileSize: 256),
        ])
        let t = TileID(z: 6, x: 33, y: 22)
        guard case let .styled(_, dataTile, pictures)? = try styled.payload(for: t) else { Issue.record("not styled"); return }
        #expect(dataTile == t)
        // A 512-pixel source is asked a zoom up; the 256 one at the tile's own.
        #expect(pictures.map(\.source) == ["big", "small"])
        #expect(pictures.map(\.tile) == [t.parent!, t])
        // At z10 (style zoom 9) `big` is not drawn: not asked. Past `small`'s deepest zoom, an ancestor.
        let deep = TileID(z: 14, x: 33 << 8, y: 22 << 8)
        guard case let .styled(_, _, later)? = try styled.payload(for: deep) else { Issue.record("not styled"); return }
        #expect(later.map(\.source) == ["small"] && later[0].tile == deep.ancestor(atZoom: 12))
        #expect(big.asked == [t.parent!])
        // Each source hears of its own part (the vector tile as itself, the picture as its tile).
        styled.decoded(t, payload: .styled(Data("v".utf8), tile: t, pictures: pictures), ok: true)
        #expect(vector.told.map(\.0) == [t] && big.told.map(\.0) == [t.parent!] && small.told.map(\.0) == [t])
        // A picture shared by four tiles is not cancelled for one of them.
        styled.cancel([t])
        #expect(big.cancelled.isEmpty && small.cancelled == [t] && vector.cancelled == [t])
    }
}
