import Foundation
import MapCore
import MapGeometry
import Testing

/// The basemap under online tiles: drawn exactly where the map's own tiles have nothing to
/// show (neither the tile nor an ancestor's part), beneath them, and asked for only there.
struct UnderPlaneTests {
    let size = ScreenSize(width: 800, height: 600)

    func scene(zoom: Double = 12.2) -> Scene {
        var s = Scene(camera: Camera(center: Coordinate(latitude: 48.85, longitude: 2.35), zoom: zoom, viewportSize: size),
                      tileZoomRange: 0...19)
        s.underZoomRange = 0...20
        return s
    }

    func visible(_ s: Scene, z: Int) -> [TileID] { TileCover.tiles(covering: s.camera.visibleMapRect, tileZoom: z).map(\.wrapped) }

    @Test func nothingLoadedShowsTheUnderPlaneEverywhereAndWantsItsTiles() {
        let s = scene()
        let all = visible(s, z: 12)
        let list = s.compose(at: 0, tiles: NoTiles(), under: ReadyTiles(ready: Set(all)))
        #expect(Set(list.underTileCommands.map(\.0)) == Set(all))
        #expect(list.tileCommands.isEmpty)
        // All under tiles are ready: none is wanted; the map's own still are.
        #expect(list.wantedUnderTiles.isEmpty)
        #expect(Set(list.wantedTiles).isSuperset(of: all))
        // And with none of them ready either, the under plane's visible tiles are wanted.
        let cold = s.compose(at: 0, tiles: NoTiles(), under: NoTiles())
        #expect(Set(cold.wantedUnderTiles).isSuperset(of: all))
    }

    @Test func theUnderPlaneIsDrawnOnlyWhereTheMapsOwnTilesLeaveItBareAndBelowThem() {
        let s = scene()
        let all = visible(s, z: 12)
        let (have, lack) = (Set(all.prefix(all.count / 2)), Set(all.dropFirst(all.count / 2)))
        let list = s.compose(at: 0, tiles: ReadyTiles(ready: have), under: ReadyTiles(ready: Set(all)))
        #expect(Set(list.underTileCommands.map(\.0)) == lack)
        #expect(Set(list.tileCommands.map(\.0)) == have)
        // Paint order: every under tile before every one of the map's own.
        let planes = list.commands.compactMap { c -> TilePlane? in if case let .tile(_, p, _, _, _) = c { return p } else { return nil } }
        #expect(planes == planes.sorted { $0 == .under && $1 == .main })
        #expect(Set(list.wantedUnderTiles).isDisjoint(with: have))
    }

    @Test func aReadyAncestorOfTheMapsOwnCoversItsTilesSoNoUnderPlaneIsNeeded() {
        let s = scene()
        let all = visible(s, z: 12)
        let parents = Set(all.map { $0.ancestor(atZoom: 10) })
        let list = s.compose(at: 0, tiles: ReadyTiles(ready: parents), under: ReadyTiles(ready: Set(all)))
        #expect(list.underTileCommands.isEmpty)
        #expect(list.wantedUnderTiles.isEmpty)
        // An ancestor that is ready but has no picture covers nothing.
        let blank = s.compose(at: 0, tiles: EmptyHere(ready: parents, empty: parents), under: ReadyTiles(ready: Set(all)))
        #expect(Set(blank.underTileCommands.map(\.0)) == Set(all))
    }

    @Test func deeperThanTheUnderPlaneGoesItsDeepestTilesAreDrawnEnlarged() {
        var s = scene(zoom: 16)
        s.underZoomRange = 0...14
        let deep = Set(visible(s, z: 14))
        let list = s.compose(at: 0, tiles: NoTiles(), under: ReadyTiles(ready: deep))
        #expect(Set(list.underTileCommands.map(\.0)) == deep)
        // Each z14 tile drawn whole, four times its size, where it lies.
        #expect(list.underTileCommands.allSatisfy { abs($0.2.width - 1024) < 1e-6 && $0.1 == .full })
    }

    @Test func withoutAnUnderPlaneNothingChanges() {
        var s = scene()
        s.underZoomRange = nil
        let list = s.compose(at: 0, tiles: NoTiles(), under: ReadyTiles(ready: Set(visible(s, z: 12))))
        #expect(list.underTileCommands.isEmpty && list.wantedUnderTiles.isEmpty)
    }

    @Test func theCreditOfTheUnderPlaneShowsOnlyWhileItIsDrawn() {
        var s = scene()
        s.layers = [ChromeLayer()]
        s.attribution = "© OpenStreetMap contributors"
        s.underAttribution = "Natural Earth"
        let all = visible(s, z: 12)
        let bare = s.compose(at: 0, tiles: NoTiles(), under: ReadyTiles(ready: Set(all)), sprites: AllSprites())
        #expect(bare.spriteCommands.contains { $0.0 == .text("© OpenStreetMap contributors · Natural Earth", .chrome) })
        let covered = s.compose(at: 0, tiles: ReadyTiles(ready: Set(all)), under: ReadyTiles(ready: Set(all)), sprites: AllSprites())
        #expect(covered.spriteCommands.contains { $0.0 == .text("© OpenStreetMap contributors", .chrome) })
    }
}
