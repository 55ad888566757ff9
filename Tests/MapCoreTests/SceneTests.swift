import Foundation
import MapCore
import MapGeometry
import Testing

/// A set of tiles that are "loaded".
struct ReadyTiles: TileAvailability {
    var ready: Set<TileID>
    func isReady(_ tile: TileID) -> Bool { ready.contains(tile) }
}

/// Ready tiles of which some have no picture.
struct EmptyHere: TileAvailability {
    var ready: Set<TileID>, empty: Set<TileID>
    func isReady(_ tile: TileID) -> Bool { ready.contains(tile) }
    func hasPixels(_ tile: TileID) -> Bool { ready.contains(tile) && !empty.contains(tile) }
}

/// Ready tiles of which some are their ancestors' parts (past a server's deepest zoom).
struct PartsOfAncestors: TileAvailability {
    var ready: Set<TileID>, parts: [TileID: TileID]
    func isReady(_ tile: TileID) -> Bool { ready.contains(tile) || parts[tile] != nil }
    func hasPixels(_ tile: TileID) -> Bool { ready.contains(tile) }
    func drawnFrom(_ tile: TileID) -> TileID? { parts[tile] }
}

struct SceneTests {
    let size = ScreenSize(width: 800, height: 600)

    func scene(zoom: Double, center: Coordinate = Coordinate(latitude: 10, longitude: 10)) -> Still {
        Still(camera: Camera(center: center, zoom: zoom, viewportSize: size), tileZoomRange: 0...18)
    }

    @Test func readyTilesCoverTheViewportWithoutGapsOrOverlaps() {
        let s = scene(zoom: 5.3)
        let z = 5
        let all = Set(TileCover.tiles(covering: s.camera.visibleMapRect, tileZoom: z).map(\.wrapped))
        let list = s.compose(at: 0, tiles: ReadyTiles(ready: all))
        #expect(list.missingTiles == 0)
        let rects = list.tileCommands.map(\.2)
        #expect(rects.count == all.count)
        // Every pixel centre on a coarse grid is covered exactly once.
        for y in stride(from: 0.5, to: 600, by: 37) {
            for x in stride(from: 0.5, to: 800, by: 41) {
                let n = rects.filter { x >= $0.x && x < $0.maxX && y >= $0.y && y < $0.maxY }.count
                #expect(n == 1, "(\(x),\(y)) covered \(n) times")
            }
        }
        // Tiles at zoom 5.3 are shown 2^0.3 times their size.
        #expect(abs(rects[0].width - 256 * pow(2, 0.3)) < 1e-9)
    }

    /// The clear under the tiles may be skipped only where they cover the whole view.
    @Test func tilesCoverTheViewOnlyWhenAllAreReadyAndTheWorldFillsIt() {
        let s = scene(zoom: 5.3)
        let all = Set(TileCover.tiles(covering: s.camera.visibleMapRect, tileZoom: 5).map(\.wrapped))
        #expect(s.compose(at: 0, tiles: ReadyTiles(ready: all)).tilesCoverView)
        #expect(!s.compose(at: 0, tiles: ReadyTiles(ready: all.subtracting([all.first!]))).tilesCoverView)
        // Ready but empty (the source has nothing there): the background must show.
        #expect(!s.compose(at: 0, tiles: EmptyHere(ready: all, empty: [all.first!])).tilesCoverView)
        // At zoom 1 the world (512 points tall) is shorter than the 600-point view.
        let low = scene(zoom: 1, center: Coordinate(latitude: 0, longitude: 0))
        let world = Set(TileCover.tiles(covering: low.camera.visibleMapRect, tileZoom: 1).map(\.wrapped))
        #expect(!low.compose(at: 0, tiles: ReadyTiles(ready: world)).tilesCoverView)
        // Near the pole the view reaches past the world's top edge.
        let polar = scene(zoom: 4, center: Coordinate(latitude: 85, longitude: 0))
        let top = Set(TileCover.tiles(covering: polar.camera.visibleMapRect, tileZoom: 4).map(\.wrapped))
        #expect(!polar.compose(at: 0, tiles: ReadyTiles(ready: top)).tilesCoverView)
    }

    @Test func missingTilesAreCoveredByTheirParentsPart() {
        let s = scene(zoom: 6)
        let parentsOnly = Set(TileCover.tiles(covering: s.camera.visibleMapRect, tileZoom: 6).map { $0.wrapped.parent! })
        let list = s.compose(at: 0, tiles: ReadyTiles(ready: parentsOnly))
        #expect(list.missingTiles > 0)
        let cmds = list.tileCommands
        #expect(cmds.allSatisfy { $0.0.z == 5 })
        #expect(cmds.allSatisfy { $0.1.width == 0.5 && $0.1.height == 0.5 })
        // Nothing blank: every visible z6 tile got a fallback.
        #expect(cmds.count == list.missingTiles)
        // And the scene asks for exactly the missing tiles first.
        #expect(Set(list.wantedTiles.prefix(list.missingTiles)) == Set(TileCover.tiles(covering: s.camera.visibleMapRect, tileZoom: 6).map(\.wrapped)))
    }

    /// Past a server's deepest zoom, a tile the source has only as part of its z6 ancestor is
    /// drawn as that part, scaled: settled, covering the view, nothing more to load. Until the
    /// ancestor is in, a coarser one stands in and the ancestor is what is wanted.
    @Test func aTileThatIsPartOfAnAncestorIsDrawnFromIt() {
        let s = scene(zoom: 8)
        let visible = TileCover.tiles(covering: s.camera.visibleMapRect, tileZoom: 8).map(\.wrapped)
        let parts = Dictionary(visible.map { ($0, $0.ancestor(atZoom: 6)) }) { a, _ in a }
        let z6 = Set(parts.values)
        let settled = s.compose(at: 0, tiles: PartsOfAncestors(ready: z6, parts: parts))
        #expect(settled.missingTiles == 0)
        #expect(settled.tilesCoverView)
        #expect(settled.wantedTiles.prefix(while: { $0.z == 8 }).isEmpty, "\(settled.wantedTiles.prefix(4))")
        let cmds = settled.tileCommands
        #expect(cmds.count == visible.count)
        #expect(cmds.allSatisfy { z6.contains($0.0) && $0.1.width == 0.25 && $0.1.height == 0.25 })
        // Each tile's own sixteenth of its ancestor is drawn.
        struct Part: Hashable { let ancestor: TileID, x: Double, y: Double }
        let expected = Set(visible.map { t in
            let a = t.ancestor(atZoom: 6)
            return Part(ancestor: a, x: Double(t.x - a.x * 4) / 4, y: Double(t.y - a.y * 4) / 4)
        })
        #expect(Set(cmds.map { Part(ancestor: $0.0, x: $0.1.x, y: $0.1.y) }) == expected)

        let z5 = Set(z6.map { $0.parent! })
        let coming = s.compose(at: 0, tiles: PartsOfAncestors(ready: z5, parts: parts))
        #expect(coming.missingTiles == visible.count)
        #expect(coming.tileCommands.allSatisfy { $0.0.z == 5 })
        #expect(Set(coming.wantedTiles.prefix(z6.count)) == z6)
    }

    @Test func farAncestorsAndChildrenFillIn() {
        let s = scene(zoom: 8)
        let visible = TileCover.tiles(covering: s.camera.visibleMapRect, tileZoom: 8).map(\.wrapped)
        var ready: Set<TileID> = [TileID(z: 0, x: 0, y: 0)]
        ready.formUnion(visible[0].children) // after zooming out: the children of one tile are loaded
        let list = s.compose(at: 0, tiles: ReadyTiles(ready: ready))
        let cmds = list.tileCommands
        // The world tile stands in under every missing tile; the children draw on top of it.
        #expect(cmds.filter { $0.0.z == 0 }.count == visible.count)
        #expect(cmds.filter { $0.0.z == 9 }.count == 4)
        let lastZ0 = cmds.lastIndex { $0.0.z == 0 }!, firstZ9 = cmds.firstIndex { $0.0.z == 9 }!
        #expect(lastZ0 < firstZ9)
        // 1/256 of the world tile per z8 tile.
        #expect(cmds.first { $0.0.z == 0 }!.1.width == 1.0 / 256)
    }

    @Test func antimeridianViewUsesWrappedTiles() {
        let s = scene(zoom: 4, center: Coordinate(latitude: 0, longitude: 179.9))
        let list = s.compose(at: 0, tiles: ReadyTiles(ready: []))
        #expect(list.wantedTiles.allSatisfy { $0.isValid })
        #expect(list.wantedTiles.contains { $0.x == 0 } && list.wantedTiles.contains { $0.x == 15 })
    }

    @Test func overZoomUsesTheSourcesDeepestTiles() {
        var s = scene(zoom: 9.7)
        s.tileZoomRange = 0...7
        let list = s.compose(at: 0, tiles: ReadyTiles(ready: []))
        #expect(list.wantedTiles.allSatisfy { $0.z <= 7 })
        #expect(list.wantedTiles.prefix(list.missingTiles).allSatisfy { $0.z == 7 })
    }

    @Test func missingTilesAreWantedTheirParentsStandInAndTheRingComesApart() {
        let s = scene(zoom: 6)
        let list = s.compose(at: 0, tiles: ReadyTiles(ready: []))
        let visible = TileCover.tiles(covering: s.camera.visibleMapRect, tileZoom: 6).map(\.wrapped)
        #expect(Set(list.wantedTiles) == Set(visible) && list.wantedTiles.count == visible.count)
        #expect(Set(list.standInTiles) == Set(visible.map { $0.parent! }))
        let ring = TileCover.tiles(covering: s.camera.visibleMapRect, tileZoom: 6, buffer: 1).map(\.wrapped)
        #expect(Set(list.ringTiles) == Set(ring).subtracting(visible))
    }

    @Test func readyTilesAreNotAskedForAgain() {
        let s = scene(zoom: 6)
        let visible = TileCover.tiles(covering: s.camera.visibleMapRect, tileZoom: 6).map(\.wrapped)
        let list = s.compose(at: 0, tiles: ReadyTiles(ready: Set(visible)))
        #expect(list.wantedTiles.isEmpty && list.standInTiles.isEmpty && list.missingTiles == 0)
        #expect(!list.ringTiles.isEmpty && list.ringTiles.allSatisfy { !visible.contains($0) })
    }

    @Test func firstCommandClearsToTheBackground() {
        let list = scene(zoom: 3).compose(at: 0, tiles: ReadyTiles(ready: []))
        guard case .clear = list.commands.first else { Issue.record("no clear"); return }
    }
}
