import MapGeometry
import Testing
@testable import MapCore

/// Tiles ready in a set, under a revision the test sets, counting the questions asked.
final class CountedTiles: TileAvailability {
    var ready: Set<TileID>
    var revision: Int?
    private(set) var asked = 0
    init(_ ready: Set<TileID>, revision: Int?) { self.ready = ready; self.revision = revision }
    func isReady(_ tile: TileID) -> Bool {
        asked += 1
        return ready.contains(tile)
    }
    var layoutRevision: Int? { revision }
}

/// A pan's frames move the last tile layout rather than lay it out again, and the picture is
/// the one a layout from scratch gives.
struct SlidLayoutTests {
    let size = ScreenSize(width: 800, height: 600)

    func still() -> Still {
        Still(camera: Camera(center: Coordinate(latitude: 10, longitude: 10), zoom: 5.2, viewportSize: size), tileZoomRange: 0...18, layers: [])
    }

    /// Every tile at z5 around the view, and their parents.
    func around(_ s: Still) -> Set<TileID> {
        let tiles = TileCover.tiles(covering: s.camera.visibleMapRect, tileZoom: 5, buffer: 3)
        return Set(tiles.map(\.wrapped) + tiles.map { $0.wrapped.ancestor(atZoom: 4) })
    }

    /// Tile commands as (tile, rectangle to a thousandth of a point), in any order.
    func tiles(_ list: DrawList) -> Set<String> {
        Set(list.tileCommands.map { t in
            let r = t.2
            return "\(t.0) \((r.x * 1000).rounded()) \((r.y * 1000).rounded()) \((r.width * 1000).rounded()) \((r.height * 1000).rounded())"
        })
    }

    /// A camera `dx`, `dy` points further along the map, seen afresh: what a layout from scratch gives.
    func fresh(_ s: Still, _ store: CountedTiles) -> DrawList {
        Still(camera: s.camera, tileZoomRange: 0...18, layers: []).compose(at: 0, tiles: CountedTiles(store.ready, revision: nil))
    }

    @Test func aSmallPanMovesTheLayoutWithoutAskingTheStore() {
        var s = still()
        let store = CountedTiles(around(still()), revision: 7)
        let first = s.compose(at: 0, tiles: store)
        #expect(store.asked > 0)
        #expect(!first.tileCommands.isEmpty)
        // A few points: the same tiles in view.
        let asked = store.asked
        s.camera.pan(byScreen: 3, -2)
        let moved = s.compose(at: 0, tiles: store)
        #expect(store.asked == asked, "the layout was made again")
        #expect(tiles(moved) == tiles(fresh(s, store)))
        #expect(moved.tilesCoverView && moved.missingTiles == 0)
        #expect(moved.tileWants == first.tileWants)
    }

    @Test func aTileComingOrAColumnComingIntoViewLaysOutAnew() {
        var s = still()
        var ready = around(still())
        let view = TileCover.tiles(covering: s.camera.visibleMapRect, tileZoom: 5)
        let missing = view[0].wrapped
        ready.remove(missing)
        let store = CountedTiles(ready, revision: 1)
        let first = s.compose(at: 0, tiles: store)
        #expect(first.missingTiles == 1)
        // The tile came, and the store says so: laid out again, the tile drawn.
        store.ready.insert(missing)
        store.revision = 2
        s.camera.pan(byScreen: 1, 0)
        var asked = store.asked
        let came = s.compose(at: 0, tiles: store)
        #expect(store.asked > asked)
        #expect(came.missingTiles == 0)
        #expect(tiles(came) == tiles(fresh(s, store)))
        // A pan far enough to bring in a column of tiles lays out anew.
        asked = store.asked
        s.camera.pan(byScreen: 300, 0)
        let along = s.compose(at: 0, tiles: store)
        #expect(store.asked > asked)
        #expect(tiles(along) == tiles(fresh(s, store)))
    }

    @Test func aStoreThatCannotSayWhenItChangesIsAskedEveryFrame() {
        var s = still()
        let store = CountedTiles(around(still()), revision: nil)
        _ = s.compose(at: 0, tiles: store)
        let asked = store.asked
        s.camera.pan(byScreen: 3, 0)
        _ = s.compose(at: 0, tiles: store)
        #expect(store.asked > asked)
    }

    @Test func anotherZoomLaysOutAnew() {
        var s = still()
        let store = CountedTiles(around(still()), revision: 3)
        _ = s.compose(at: 0, tiles: store)
        let asked = store.asked
        s.camera.zoom(to: 5.3, around: ScreenPoint(x: 400, y: 300))
        let zoomed = s.compose(at: 0, tiles: store)
        #expect(store.asked > asked)
        #expect(tiles(zoomed) == tiles(fresh(s, store)))
    }
}
