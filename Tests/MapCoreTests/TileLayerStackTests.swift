import Foundation
import MapCore
import MapGeometry
import Testing

/// The stack of tile layers, laid out by one rule: a fallback (the basemap under online
/// tiles) drawn exactly where the map's own tiles have nothing to show (neither the tile nor
/// an ancestor's part), beneath them, and asked for only there; overlays over the map at
/// their opacity, a missing tile standing in with its parent like the map's own.
struct TileLayerStackTests {
    let size = ScreenSize(width: 800, height: 600)
    static let fallback = 0, map = 1, overlay = 2

    func scene(zoom: Double = 12.2, fallbackZooms: ClosedRange<Int> = 0...20) -> Still {
        var s = Still(camera: Camera(center: Coordinate(latitude: 48.85, longitude: 2.35), zoom: zoom, viewportSize: size),
                      tileZoomRange: 0...19)
        s.tileLayers.insert(TileLayerSpec(name: "basemap", role: .fallback, zoomRange: fallbackZooms, attribution: "Natural Earth"), at: 0)
        return s
    }

    func withOverlay(_ s: Still, opacity: Double = 0.6, zooms: ClosedRange<Int> = 0...15, visible: Bool = true) -> Still {
        var s = s
        s.tileLayers.append(TileLayerSpec(name: "terrain", role: .overlay, zoomRange: zooms, opacity: opacity, isVisible: visible, attribution: "Terrain Tiles"))
        return s
    }

    func visible(_ s: Still, z: Int) -> [TileID] { TileCover.tiles(covering: s.camera.visibleMapRect, tileZoom: z).map(\.wrapped) }

    func layersOf(_ list: DrawList) -> [Int] {
        list.commands.compactMap { c -> Int? in if case let .tile(_, l, _, _, _, _) = c { return l } else { return nil } }
    }

    @Test func nothingLoadedShowsTheFallbackEverywhereAndWantsItsTiles() {
        let s = scene()
        let all = visible(s, z: 12)
        let list = s.compose(at: 0, layers: [ReadyTiles(ready: Set(all)), NoTiles()])
        #expect(list.mapLayer == Self.map)
        #expect(Set(list.tileCommands(layer: Self.fallback).map(\.0)) == Set(all))
        #expect(list.tileCommands.isEmpty)
        // All fallback tiles are ready: none is wanted; the map's own still are.
        #expect(list.wants(Self.fallback).wanted.isEmpty)
        #expect(Set(list.wantedTiles).isSuperset(of: all))
        // And with none of them ready either, the fallback's visible tiles are wanted.
        let cold = s.compose(at: 0, layers: [NoTiles(), NoTiles()])
        #expect(Set(cold.wants(Self.fallback).wanted).isSuperset(of: all))
    }

    @Test func theFallbackIsDrawnOnlyWhereTheMapsOwnTilesLeaveItBareAndBelowThem() {
        let s = scene()
        let all = visible(s, z: 12)
        let (have, lack) = (Set(all.prefix(all.count / 2)), Set(all.dropFirst(all.count / 2)))
        let list = s.compose(at: 0, layers: [ReadyTiles(ready: Set(all)), ReadyTiles(ready: have)])
        #expect(Set(list.tileCommands(layer: Self.fallback).map(\.0)) == lack)
        #expect(Set(list.tileCommands.map(\.0)) == have)
        // Paint order: every fallback tile before every one of the map's own.
        let layers = layersOf(list)
        #expect(layers == layers.sorted())
        #expect(Set(list.wants(Self.fallback).wanted).isDisjoint(with: have))
    }

    @Test func aReadyAncestorOfTheMapsOwnCoversItsTilesSoNoFallbackIsNeeded() {
        let s = scene()
        let all = visible(s, z: 12)
        let parents = Set(all.map { $0.ancestor(atZoom: 10) })
        let list = s.compose(at: 0, layers: [ReadyTiles(ready: Set(all)), ReadyTiles(ready: parents)])
        #expect(list.tileCommands(layer: Self.fallback).isEmpty)
        #expect(list.wants(Self.fallback).wanted.isEmpty)
        // An ancestor that is ready but has no picture covers nothing.
        let blank = s.compose(at: 0, layers: [ReadyTiles(ready: Set(all)), EmptyHere(ready: parents, empty: parents)])
        #expect(Set(blank.tileCommands(layer: Self.fallback).map(\.0)) == Set(all))
    }

    @Test func deeperThanTheFallbackGoesItsDeepestTilesAreDrawnEnlarged() {
        let s = scene(zoom: 16, fallbackZooms: 0...14)
        let deep = Set(visible(s, z: 14))
        let list = s.compose(at: 0, layers: [ReadyTiles(ready: deep), NoTiles()])
        #expect(Set(list.tileCommands(layer: Self.fallback).map(\.0)) == deep)
        // Each z14 tile drawn whole, four times its size, where it lies.
        #expect(list.tileCommands(layer: Self.fallback).allSatisfy { abs($0.2.width - 1024) < 1e-6 && $0.1 == .full })
    }

    @Test func aHiddenFallbackOrNoneChangesNothing() {
        var s = scene()
        s.tileLayers[Self.fallback].isVisible = false
        let list = s.compose(at: 0, layers: [ReadyTiles(ready: Set(visible(s, z: 12))), NoTiles()])
        #expect(list.tileCommands(layer: Self.fallback).isEmpty && list.wants(Self.fallback).isEmpty)
        let alone = Still(camera: s.camera, tileZoomRange: 0...19).compose(at: 0, tiles: NoTiles())
        #expect(layersOf(alone).isEmpty && alone.tileWants.count == 1)
    }

    @Test func theCreditOfTheFallbackShowsOnlyWhileItIsDrawn() {
        var s = scene()
        s.layers = [ChromeLayer()]
        s.attribution = "© OpenStreetMap contributors"
        let all = visible(s, z: 12)
        let bare = s.compose(at: 0, layers: [ReadyTiles(ready: Set(all)), NoTiles()], sprites: AllSprites())
        #expect(bare.spriteCommands.contains { $0.0 == .text("© OpenStreetMap contributors · Natural Earth", .chrome) })
        let covered = s.compose(at: 0, layers: [ReadyTiles(ready: Set(all)), ReadyTiles(ready: Set(all))], sprites: AllSprites())
        #expect(covered.spriteCommands.contains { $0.0 == .text("© OpenStreetMap contributors", .chrome) })
        // A visible overlay adds its own.
        let over = withOverlay(s).compose(at: 0, layers: [ReadyTiles(ready: Set(all)), ReadyTiles(ready: Set(all)), NoTiles()], sprites: AllSprites())
        #expect(over.spriteCommands.contains { $0.0 == .text("© OpenStreetMap contributors · Terrain Tiles", .chrome) })
    }

    @Test func anOverlayLiesOverTheMapAtItsOpacityAndIsDeepestAtItsOwnLastZoom() {
        let s = withOverlay(scene(zoom: 16.2), opacity: 0.6, zooms: 0...15)
        let mapTiles = Set(visible(s, z: 16)), overlayTiles = Set(visible(s, z: 15))
        let list = s.compose(at: 0, layers: [NoTiles(), ReadyTiles(ready: mapTiles), ReadyTiles(ready: overlayTiles)])
        // Over the map's tiles, every one of its own after them, at its opacity.
        let layers = layersOf(list)
        #expect(layers.first == Self.map && layers.last == Self.overlay && layers == layers.sorted())
        #expect(Set(list.tileCommands(layer: Self.overlay).map(\.0)) == overlayTiles)
        let opacities = list.commands.compactMap { c -> Double? in if case let .tile(_, Self.overlay, _, _, o, _) = c { return o } else { return nil } }
        #expect(!opacities.isEmpty && opacities.allSatisfy { $0 == 0.6 })
        // Transparent: the map under it still covers the view, and the fallback is not wanted.
        #expect(list.tilesCoverView)
        #expect(list.wants(Self.fallback).isEmpty)
        #expect(list.missingTiles == 0)
    }

    @Test func anOverlayTileStillLoadingShowsItsParentAndKeepsTheMapUnfinished() {
        let s = withOverlay(scene())
        let all = visible(s, z: 12)
        let parents = Set(all.map { $0.ancestor(atZoom: 11) })
        let list = s.compose(at: 0, layers: [NoTiles(), ReadyTiles(ready: Set(all)), ReadyTiles(ready: parents)])
        #expect(Set(list.tileCommands(layer: Self.overlay).map(\.0)) == parents)
        #expect(Set(list.wants(Self.overlay).wanted) == Set(all))
        #expect(list.missingTiles == all.count)
        // The map itself is whole: the overlay does not hide what is below it.
        #expect(list.tilesCoverView)
        // Nothing of the overlay: its grandparents stand in once slow (like the map's own).
        let cold = s.compose(at: 0, layers: [NoTiles(), ReadyTiles(ready: Set(all)), NoTiles()])
        #expect(cold.tileCommands(layer: Self.overlay).isEmpty)
        #expect(Set(cold.wants(Self.overlay).standIns) == parents)
    }

    /// (No opacity hides one: 0 is taken as the faintest, 5 %; see `TileStackModelTests`.)
    @Test func aHiddenOverlayOrOneFarBelowItsZoomsIsNeitherDrawnNorLoaded() {
        let all = Set(visible(scene(), z: 12))
        for s in [withOverlay(scene(), visible: false), withOverlay(scene(), zooms: 14...15)] {
            let list = s.compose(at: 0, layers: [NoTiles(), ReadyTiles(ready: all), NoTiles()])
            #expect(list.tileCommands(layer: Self.overlay).isEmpty)
            #expect(list.wants(Self.overlay).isEmpty)
            #expect(list.missingTiles == 0)
        }
    }

    @Test func overAShownOverlayTheDrawingsLayerGoesOnTopElseTheMapCarriesThem() {
        var s = withOverlay(scene())
        s.tileLayers.append(TileLayerSpec(name: "drawings", role: .drawings, zoomRange: 0...19))
        let drawings = 3
        let all = Set(visible(s, z: 12))
        let layers: [TileAvailability] = [NoTiles(), ReadyTiles(ready: all), ReadyTiles(ready: all), ReadyTiles(ready: all)]
        let shown = s.compose(at: 0, layers: layers)
        #expect(shown.drawingsLayer == drawings)
        #expect(layersOf(shown).last == drawings && Set(shown.tileCommands(layer: drawings).map(\.0)) == all)
        // Transparent, it hides nothing below.
        #expect(!s.tileLayers[drawings].isOpaque && shown.tilesCoverView)
        // No overlay shown: the map's own tiles carry what layers paint; no drawings tiles.
        s.tileLayers[Self.overlay].isVisible = false
        let bare = s.compose(at: 0, layers: layers)
        #expect(bare.drawingsLayer == nil && bare.tileCommands(layer: drawings).isEmpty && bare.wants(drawings).isEmpty)
    }
}
