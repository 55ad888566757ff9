import FoundationEssentials
import Glibc
import MapGeometry

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
    /// A number that changes whenever `places(in:)` may answer otherwise for some tile (a
    /// tile came or went); nil when the store cannot say, and the places must be compared.
    var placesRevision: Int? { get }
}

extension TileAvailability {
    public func places(in tile: TileID) -> [PlaceLabel] { [] }
    public func hasPixels(_ tile: TileID) -> Bool { isReady(tile) }
    public func isCurrent(_ tile: TileID) -> Bool { isReady(tile) }
    public var placesRevision: Int? { nil }
}

/// No sprites at all (tile-only composition).
public struct NoSprites: SpriteAvailability {
    public init() {}
    public func size(of sprite: SpriteKey) -> ScreenSize? { nil }
}

/// What the map shows: a camera, the base map's settings, and the layers drawn over it in
/// paint order. Owned by a `MapSession`, which composes every frame from it (the window's
/// and `meridian render`'s alike). Pure: no drawing, no I/O.
public struct Scene {
    public var camera: Camera
    public var background: Color
    public var tileZoomRange: ClosedRange<Int>
    /// The zooms of the plane under the map's own tiles (the embedded basemap under online
    /// tiles); nil when there is none.
    public var underZoomRange: ClosedRange<Int>?
    /// Rings of tiles kept loaded around the view, so panning finds them ready.
    public var bufferRing = 1
    /// Every layer, bottom to top within each level (see `LayerLevel`).
    public var layers: [any MapLayer]

    /// The standard layers: tracks (under the labels, so names stay readable), labels,
    /// circles, pins (with their callout), the location, chrome and the notice. Search
    /// markers and the like are layers added to these.
    public static var standardLayers: [any MapLayer] {
        [TracksLayer(), LabelsLayer(), CirclesLayer(), PinsLayer(), LocationLayer(), ChromeLayer(), NoticeLayer()]
    }

    public init(camera: Camera, background: Color = Color(hex: 0xE8E6E1), tileZoomRange: ClosedRange<Int> = 0...19,
                layers: [any MapLayer] = Scene.standardLayers) {
        self.camera = camera
        self.background = background
        self.tileZoomRange = tileZoomRange
        self.layers = layers
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
        if let i = index(of: kind), var m = layers[i] as? L {
            body(&m)
            layers[i] = m
        } else {
            var m = make()
            body(&m)
            layers.append(m)
        }
    }

    /// `under`: the tiles of the plane under the map's own (see `underZoomRange`).
    /// `facts`: what the session knows that layers draw (`MapSession.facts`).
    public func compose(at t: Double, tiles: TileAvailability, under: TileAvailability? = nil,
                        sprites: SpriteAvailability = NoSprites(), facts: SessionFacts = SessionFacts()) -> DrawList {
        var list = DrawList()
        list.commands.append(.clear(background))
        let (shown, underShown) = composeTiles(into: &list, tiles: tiles, under: under)
        var context = LayerContext(camera: camera, time: t, sprites: sprites, tiles: tiles, shownTiles: shown)
        context.facts = facts
        context.under = under
        context.underShownTiles = underShown
        context.bottomInset = layers.map { $0.bottomInset(context) }.max() ?? 0
        context.labelExclusions = layers.flatMap { $0.labelExclusions(context) }
        if !underShown.isEmpty {
            // The under plane's names label only where it shows: the map's own tiles carry
            // their own.
            context.mainTileRects = list.tileCommands.filter { tiles.hasPixels($0.0) }.map(\.2)
        }
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

    /// The screen rectangle of a tile, its edges computed from tile indices so that
    /// neighbours share edges exactly (no seams after rounding).
    public func screenRect(of tile: TileID) -> ScreenRect { TileLayout.screenRect(of: tile, camera: camera) }

    /// The base map's tiles (see `TileLayout`), over those of the plane under them where
    /// they have no picture; returns the ready tiles of each plane whose places count for labels.
    private func composeTiles(into list: inout DrawList, tiles: TileAvailability, under: TileAvailability?) -> ([TileID], [TileID]) {
        let layout = TileLayout(camera: camera, zoomRange: tileZoomRange, bufferRing: bufferRing, tiles: tiles) {
            .tile($0, plane: .main, source: $1, destination: $2, opacity: 1)
        }
        var underShown: [TileID] = []
        if let under, let range = underZoomRange, !layout.uncovered.isEmpty {
            // Where the map's own tiles have nothing to show yet, the plane under them shows,
            // at the same zoom where it can (an ancestor's part where it cannot go so deep).
            let z = min(max(layout.uncovered[0].z, range.lowerBound), range.upperBound)
            var seen = Set<TileID>()
            let only = layout.uncovered.compactMap { t -> TileID? in
                let u = t.z > z ? t.ancestor(atZoom: z) : t
                return u.z == z && seen.insert(u).inserted ? u : nil
            }
            if !only.isEmpty {
                let below = TileLayout(camera: camera, zoomRange: range, bufferRing: 0, tiles: under, only: only) {
                    .tile($0, plane: .under, source: $1, destination: $2, opacity: 1)
                }
                list.commands += below.commands
                list.wantedUnderTiles = below.wanted
                underShown = below.shown
            }
        }
        list.commands += layout.commands
        list.missingTiles += layout.missing
        list.wantedTiles = layout.wanted
        list.ringTiles = layout.ring
        list.standInTiles = layout.parents
        list.tilesCoverView = layout.coversView
        return (layout.shown, underShown)
    }
}
