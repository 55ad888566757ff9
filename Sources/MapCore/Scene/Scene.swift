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
}

extension TileAvailability {
    public func places(in tile: TileID) -> [PlaceLabel] { [] }
    public func hasPixels(_ tile: TileID) -> Bool { isReady(tile) }
}

/// No sprites at all (tile-only composition).
public struct NoSprites: SpriteAvailability {
    public init() {}
    public func size(of sprite: SpriteKey) -> ScreenSize? { nil }
}

/// The one map state: a camera, the base map's settings, and the layers drawn over it in
/// paint order. The window and `meridian render` both compose frames from it, through
/// `compose`, the same code. Pure: no drawing, no I/O.
public struct Scene {
    public var camera: Camera
    public var background: Color
    public var tileZoomRange: ClosedRange<Int>
    /// Rings of tiles kept loaded around the view, so panning finds them ready.
    public var bufferRing = 1
    /// Every layer, bottom to top within each level (see `LayerLevel`).
    public var layers: [any MapLayer]

    /// The standard layers: labels, circles, pins (with their callout), the location, chrome
    /// and the notice. Tracks, search markers and the like are layers added to these.
    public static var standardLayers: [any MapLayer] {
        [LabelsLayer(), CirclesLayer(), PinsLayer(), LocationLayer(), ChromeLayer(), NoticeLayer()]
    }

    public init(camera: Camera, background: Color = Color(hex: 0xE8E6E1), tileZoomRange: ClosedRange<Int> = 0...19,
                layers: [any MapLayer] = Scene.standardLayers) {
        self.camera = camera
        self.background = background
        self.tileZoomRange = tileZoomRange
        self.layers = layers
    }

    /// The first layer of a kind.
    public func layer<L: MapLayer>(_ kind: L.Type) -> L? {
        for l in layers { if let m = l as? L { return m } }
        return nil
    }

    /// Changes the first layer of a kind (adding one on top of the others when there is none).
    public mutating func modify<L: MapLayer>(_ kind: L.Type, default make: @autoclosure () -> L, _ body: (inout L) -> Void) {
        if let i = layers.firstIndex(where: { $0 is L }), var m = layers[i] as? L {
            body(&m)
            layers[i] = m
        } else {
            var m = make()
            body(&m)
            layers.append(m)
        }
    }

    public func compose(at t: Double, tiles: TileAvailability, sprites: SpriteAvailability = NoSprites()) -> DrawList {
        var list = DrawList()
        list.commands.append(.clear(background))
        let shown = composeTiles(into: &list, tiles: tiles)
        var context = LayerContext(camera: camera, time: t, sprites: sprites, tiles: tiles, shownTiles: shown)
        context.labelExclusions = layers.flatMap { $0.labelExclusions(context) }
        for level in LayerLevel.allCases {
            for layer in layers where layer.levels.contains(level) {
                layer.compose(at: level, into: &list, context: context)
            }
            // Tiles and labels are the map itself, which a compositor may keep while overlays animate.
            if level == .base { list.baseCount = list.commands.count }
        }
        return list
    }

    /// The screen rectangle of a tile, its edges computed from tile indices so that
    /// neighbours share edges exactly (no seams after rounding).
    public func screenRect(of tile: TileID) -> ScreenRect {
        let size = WebMercator.worldSize / Double(tile.tilesAcross)
        let a = camera.screenPointUnwrapped(for: MapPoint(x: Double(tile.x) * size, y: Double(tile.y) * size))
        let b = camera.screenPointUnwrapped(for: MapPoint(x: Double(tile.x + 1) * size, y: Double(tile.y + 1) * size))
        return ScreenRect(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y)
    }

    /// Tiles at the display zoom; where one is not ready, the nearest ready ancestor's matching
    /// part underneath and any ready children on top, so the map never flashes blank.
    /// Returns the ready tiles whose places count for labels (drawn ones, the ancestors that
    /// stand in for missing ones, and the ready ring around the view).
    private func composeTiles(into list: inout DrawList, tiles: TileAvailability) -> [TileID] {
        var shown: [TileID] = []
        let z = TileCover.tileZoom(forZoom: camera.zoom, minZoom: tileZoomRange.lowerBound, maxZoom: tileZoomRange.upperBound)
        let rect = camera.visibleMapRect
        let visible = TileCover.tiles(covering: rect, tileZoom: z)
        var ancestors: [DrawCommand] = [], children: [DrawCommand] = [], exact: [DrawCommand] = []
        var wanted: [TileID] = []
        var seen = Set<TileID>()
        var allPictured = true
        for tile in visible {
            let w = tile.wrapped
            let dst = screenRect(of: tile)
            if tiles.isReady(w) {
                allPictured = allPictured && tiles.hasPixels(w)
                exact.append(.tile(w, source: .full, destination: dst, opacity: 1))
                shown.append(w)
                continue
            }
            list.missingTiles += 1
            if seen.insert(w).inserted { wanted.append(w) }
            if let (a, src) = readyAncestor(of: w, tiles: tiles) {
                ancestors.append(.tile(a, source: src, destination: dst, opacity: 1))
                shown.append(a)
            }
            if tile.z < tileZoomRange.upperBound {
                for (i, c) in w.children.enumerated() where tiles.isReady(c) {
                    let half = UnitRect(x: Double(i % 2) * 0.5, y: Double(i / 2) * 0.5, width: 0.5, height: 0.5)
                    let r = ScreenRect(x: dst.x + dst.width * half.x, y: dst.y + dst.height * half.y,
                                       width: dst.width / 2, height: dst.height / 2)
                    children.append(.tile(c, source: .full, destination: r, opacity: 1))
                }
            }
        }
        list.commands += ancestors + children + exact
        // Then the ring around the view, loaded at lower priority.
        let missing = wanted
        for tile in TileCover.tiles(covering: rect, tileZoom: z, buffer: bufferRing) {
            let w = tile.wrapped
            if !tiles.isReady(w) { if seen.insert(w).inserted { wanted.append(w) } } else { shown.append(w) }
        }
        // Last, the parents of missing tiles: a quarter as many, so a coarse picture arrives
        // fast in a new area and a tile that fails to load is still covered.
        for tile in missing {
            if let p = tile.parent, p.z >= tileZoomRange.lowerBound, !tiles.isReady(p), seen.insert(p).inserted {
                wanted.append(p)
            }
        }
        list.wantedTiles = wanted
        list.tilesCoverView = list.missingTiles == 0 && allPictured && !visible.isEmpty && rect.minY >= 0 && rect.maxY <= WebMercator.worldSize
        return shown
    }

    private func readyAncestor(of tile: TileID, tiles: TileAvailability) -> (TileID, UnitRect)? {
        var z = tile.z - 1
        while z >= tileZoomRange.lowerBound {
            let a = tile.ancestor(atZoom: z)
            if tiles.isReady(a) {
                let n = Double(1 << (tile.z - z))
                let src = UnitRect(x: Double(tile.x - a.x * (1 << (tile.z - z))) / n,
                                   y: Double(tile.y - a.y * (1 << (tile.z - z))) / n,
                                   width: 1 / n, height: 1 / n)
                return (a, src)
            }
            z -= 1
        }
        return nil
    }
}
