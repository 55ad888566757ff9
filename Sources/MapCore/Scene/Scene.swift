import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// Which tiles already have pixels. The window answers from its texture store.
public protocol TileAvailability {
    func isReady(_ tile: TileID) -> Bool
    /// Named places inside a ready tile.
    func places(in tile: TileID) -> [PlaceLabel]
    /// A ready tile has a picture (the source may have none there: nothing is drawn).
    func hasPixels(_ tile: TileID) -> Bool
    /// A ready tile shows the layer as it is now, not an older picture standing in while the
    /// map's content changes (a track opened, hidden or recoloured).
    func isCurrent(_ tile: TileID) -> Bool
    /// A ready tile the source has only as part of an ancestor's picture (past a server's
    /// deepest zoom): that ancestor, whose part over the tile is drawn in its place.
    func drawnFrom(_ tile: TileID) -> TileID?
    /// A number that changes whenever `places(in:)` may answer otherwise for some tile (a
    /// tile came or went); nil when the store cannot say, and the places must be compared.
    var placesRevision: Int? { get }
    /// A number that changes whenever any answer above may change for some tile (a tile came,
    /// went or turned older); nil when the store cannot say. The same revisions and the same
    /// tiles in view lay out the same (`TileStackLayout.Memo`).
    var layoutRevision: Int? { get }
}

extension TileAvailability {
    public func places(in tile: TileID) -> [PlaceLabel] { [] }
    public func hasPixels(_ tile: TileID) -> Bool { isReady(tile) }
    public func isCurrent(_ tile: TileID) -> Bool { isReady(tile) }
    public func drawnFrom(_ tile: TileID) -> TileID? { nil }
    public var placesRevision: Int? { nil }
    public var layoutRevision: Int? { nil }
}

/// No sprites at all (tile-only composition).
public struct NoSprites: SpriteAvailability {
    public init() {}
    public func size(of sprite: SpriteKey) -> ScreenSize? { nil }
}

/// Nothing ready (a layer the host has no tiles for).
public struct NoTiles: TileAvailability {
    public init() {}
    public func isReady(_ tile: TileID) -> Bool { false }
    /// Never changes.
    public var layoutRevision: Int? { 0 }
}

/// What the map shows: the stack of tile layers and the layers drawn over it in paint order.
/// Where it is seen from is not its own: the camera is the session's (`MapSession.camera`),
/// given to every composition, so there is one camera and nothing to keep in step. Owned by a
/// `MapSession`, which composes every frame from it (the window's and `meridian render`'s
/// alike). Pure: no drawing, no I/O.
public struct Scene {
    public var background: Color
    /// The stack of tile layers and what a person set of them: its one holder. A person's
    /// change goes through the session (`MapSession.setOverlay`); a stack the host made
    /// replaces it (`showTiles(from:)` in MapWindow).
    public internal(set) var tileStack: TileStackModel
    /// The tile layers, bottom to top: fallbacks (the embedded basemap under online tiles),
    /// the chosen map, then overlays. One rule lays out each: a missing tile shows its
    /// nearest ready ancestor's part, then what lies below it. (Set: the stack replaced.)
    public var tileLayers: [TileLayerSpec] {
        get { tileStack.layers }
        set { tileStack.layers = newValue }
    }
    /// Rings of tiles kept loaded around the view, so panning finds them ready.
    public var bufferRing = 1
    /// Every layer, bottom to top within each level (see `LayerLevel`).
    public var layers: [any MapLayer]
    /// The last frame's tile layout, which a pan's next frame moves (`TileStackLayout.laidOut`).
    /// Copies of the scene share it: a layout is used again only for the same stores' revisions.
    private let stackMemo = LockedValue<TileStackLayout.Memo>()
    /// Seconds place labels take to fade in and out (the one setting; layers read it from the
    /// frame's context): 0 by default, as a still picture draws them; a window that animates
    /// sets `LabelsLayer.windowFadeSeconds`.
    public var labelFadeSeconds = 0.0

    /// The standard layers: tracks (under the labels, so names stay readable), labels,
    /// circles, pins (with their callout), the location, chrome and the notice. Search
    /// markers and the like are layers added to these.
    public static var standardLayers: [any MapLayer] {
        [TracksLayer(), LabelsLayer(), CirclesLayer(), PinsLayer(), LocationLayer(), ChromeLayer(), NoticeLayer()]
    }

    public init(background: Color = .noMap, tileZoomRange: ClosedRange<Int> = 0...19,
                layers: [any MapLayer] = Scene.standardLayers) {
        self.background = background
        tileStack = TileStackModel(layers: [TileLayerSpec(name: "map", role: .map, zoomRange: tileZoomRange)])
        self.layers = layers
    }

    /// The index of the chosen map among `tileLayers` (the topmost with that role).
    public var mapLayerIndex: Int { tileStack.mapIndex }

    /// The chosen map's zooms.
    public var tileZoomRange: ClosedRange<Int> {
        get { tileLayers.isEmpty ? 0...19 : tileLayers[mapLayerIndex].zoomRange }
        set {
            if tileLayers.isEmpty { tileLayers = [TileLayerSpec(name: "map", role: .map, zoomRange: newValue)] }
            tileLayers[mapLayerIndex].zoomRange = newValue
        }
    }

    /// Where the first layer of a kind is. Layers are value types: comparing types is a
    /// pointer compare, where a cast of each layer goes through the runtime (the session asks
    /// for several each frame).
    public func index<L: MapLayer>(of kind: L.Type) -> Int? {
        layers.firstIndex { type(of: $0) == kind }
    }

    /// The first layer of a kind.
    public func layer<L: MapLayer>(_ kind: L.Type) -> L? {
        index(of: kind).flatMap { layers[$0] as? L }
    }

    /// Changes the first layer of a kind (adding one on top of the others when there is none).
    public mutating func modify<L: MapLayer>(_ kind: L.Type, default make: @autoclosure () -> L, _ body: (inout L) -> Void) {
        if let i = index(of: kind), change(at: i, as: kind, body) != nil { return }
        var m = make()
        body(&m)
        layers.append(m)
    }

    /// Changes the layer at `i` when it is of `kind`; nil when it is not. The layer is taken
    /// out while it changes, so what it holds (10,000 pins) is changed in place, not copied.
    public mutating func change<L: MapLayer, R>(at i: Int, as kind: L.Type, _ body: (inout L) -> R) -> R? {
        guard layers.indices.contains(i), var m = layers[i] as? L else { return nil }
        layers[i] = Vacant()
        defer { layers[i] = m }
        return body(&m)
    }

    /// What each tile layer has ready when only the map's tiles are known (`tiles`).
    public func mapOnly(_ tiles: TileAvailability) -> [TileAvailability] {
        let m = mapLayerIndex
        return tileLayers.indices.map { $0 == m ? tiles : NoTiles() }
    }

    /// The frame seen through `camera` with only the map layer's tiles known (every other tile
    /// layer has none ready).
    public func compose(at t: Double, camera: Camera, tiles: TileAvailability, sprites: SpriteAvailability = NoSprites(),
                        facts: SessionFacts = SessionFacts()) -> DrawList {
        compose(at: t, camera: camera, layers: mapOnly(tiles), sprites: sprites, facts: facts)
    }

    /// `layers`: what each of `tileLayers` has ready, by index (missing ones have none).
    /// `facts`: what the session knows that layers draw (`MapSession.facts`).
    public func compose(at t: Double, camera: Camera, layers stores: [TileAvailability], sprites: SpriteAvailability = NoSprites(),
                        facts: SessionFacts = SessionFacts()) -> DrawList {
        var list = DrawList()
        list.commands.append(.clear(background))
        let stack = TileStackLayout.laidOut(scene: self, camera: camera, stores: stores, memo: stackMemo, into: &list)
        var context = LayerContext(camera: camera, time: t, sprites: sprites, tiles: stack.store(list.mapLayer), shownTiles: stack.shown[list.mapLayer])
        context.facts = facts
        context.labelSources = stack.labelSources(in: list)
        context.credits = stack.credits
        context.labelFadeSeconds = labelFadeSeconds
        context.bottomInset = layers.map { $0.bottomInset(context) }.max() ?? 0
        context.labelExclusions = layers.flatMap { $0.labelExclusions(context) }
        let levels = layers.map(\.levels)
        for level in LayerLevel.allCases {
            for (layer, its) in zip(layers, levels) where its.contains(level) {
                layer.compose(at: level, into: &list, context: context)
            }
            // Tiles and labels are the map itself, which a compositor may keep while overlays animate.
            if level == .base { list.baseCount = list.commands.count }
        }
        return list
    }
}

/// What stands in a layer's place while the layer changes (`Scene.change`).
private struct Vacant: MapLayer {
    func compose(at level: LayerLevel, into list: inout DrawList, context: LayerContext) {}
}
