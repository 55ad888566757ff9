import Foundation
import MapGeometry

/// Which tiles already have pixels. The window answers from its texture store.
public protocol TileAvailability {
    func isReady(_ tile: TileID) -> Bool
    /// Named places inside a ready tile.
    func places(in tile: TileID) -> [PlaceLabel]
}

extension TileAvailability {
    public func places(in tile: TileID) -> [PlaceLabel] { [] }
}

/// No sprites at all (tile-only composition).
public struct NoSprites: SpriteAvailability {
    public init() {}
    public func size(of sprite: SpriteKey) -> ScreenSize? { nil }
}

/// Composes what a frame shows from the map's state at a time. Pure: no drawing, no I/O.
public struct Scene {
    public var camera: Camera
    public var background: Color
    public var tileZoomRange: ClosedRange<Int>
    /// Rings of tiles kept loaded around the view, so panning finds them ready.
    public var bufferRing = 1
    /// Credit for the data shown, bottom right; empty for none.
    public var attribution = ""
    public var imperialUnits = false
    public var showsScaleBar = true
    public var showsLabels = true
    public var labelPlacer = LabelPlacer()
    public var circles: [CircleOverlay] = []
    public var location: LocationAnnotation?
    public var pins = PinEditor()
    /// A message for the user, shown at the top of the window until dismissed.
    public var notice: String?

    public init(camera: Camera, background: Color = Color(hex: 0xE8E6E1), tileZoomRange: ClosedRange<Int> = 0...19) {
        self.camera = camera
        self.background = background
        self.tileZoomRange = tileZoomRange
    }

    public func compose(at t: Double, tiles: TileAvailability, sprites: SpriteAvailability = NoSprites()) -> DrawList {
        var list = DrawList()
        list.commands.append(.clear(background))
        let shown = composeTiles(into: &list, tiles: tiles)
        var chrome = DrawList()
        let plates = composeChrome(into: &chrome, sprites: sprites)
        // Labels keep clear of the chrome and of the location dot drawn above them.
        var reserved = plates
        if let loc = location {
            let p = camera.screenPoint(for: loc.point(at: t)), r = LocationAnnotation.dotDiameter / 2 + 2
            reserved.append(ScreenRect(x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r))
        }
        reserved += pinRectsForLabels()
        if showsLabels { composeLabels(into: &list, from: shown, tiles: tiles, sprites: sprites, reserved: reserved) }
        list.baseCount = list.commands.count
        composeOverlays(into: &list, at: t, sprites: sprites)
        list.commands += chrome.commands
        composeNotice(into: &list, sprites: sprites)
        list.wantedSprites = chrome.wantedSprites + list.wantedSprites
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
        for tile in visible {
            let w = tile.wrapped
            let dst = screenRect(of: tile)
            if tiles.isReady(w) {
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
        return shown
    }

    private func composeLabels(into list: inout DrawList, from shown: [TileID], tiles: TileAvailability,
                               sprites: SpriteAvailability, reserved: [ScreenRect]) {
        var candidates: [PlaceLabel] = []
        var used = Set<TileID>()
        for t in shown where used.insert(t).inserted { candidates += tiles.places(in: t) }
        guard !candidates.isEmpty else { return }
        let placed = labelPlacer.place(candidates, camera: camera, sprites: sprites, reserved: reserved)
        var wanted: [SpriteKey] = []
        for p in placed {
            let dot = SpriteKey.placeDot(capital: p.place.capital), text = SpriteKey.text(p.place.name, p.place.style)
            guard p.ready, sprites.size(of: dot) != nil else {
                // Winners whose sprites are missing are rasterized for a later frame.
                for k in [dot, text] where sprites.size(of: k) == nil && !wanted.contains(k) { wanted.append(k) }
                continue
            }
            list.commands.append(.sprite(dot, destination: p.dot, opacity: 1))
            list.commands.append(.sprite(text, destination: p.text, opacity: 1))
            list.placedLabels.append(p)
        }
        list.wantedSprites += wanted
    }

    /// The scale bar (bottom left) and the attribution (bottom right), on light plates.
    /// Returns the plates, which labels keep clear of.
    private func composeChrome(into list: inout DrawList, sprites: SpriteAvailability) -> [ScreenRect] {
        var plates: [ScreenRect] = []
        let w = camera.viewportSize.width, h = camera.viewportSize.height
        let plate = Color(hex: 0xFFFFFF, alpha: 0.72)
        let ink = Color(hex: 0x333333)
        if !attribution.isEmpty {
            let key = SpriteKey.text(attribution, .chrome)
            if let s = sprites.size(of: key) {
                let r = ScreenRect(x: w - s.width - 4, y: h - s.height - 2, width: s.width, height: s.height)
                let back = ScreenRect(x: r.x - 3, y: r.y, width: s.width + 7, height: s.height + 2)
                plates.append(back)
                list.commands.append(.fillRect(back, plate))
                list.commands.append(.sprite(key, destination: r, opacity: 1))
            } else {
                list.wantedSprites.insert(key, at: 0)
            }
        }
        guard showsScaleBar else { return plates }
        let bar = ScaleBar.make(camera: camera, imperial: imperialUnits)
        let key = SpriteKey.text(bar.label, .chrome)
        guard let s = sprites.size(of: key) else { list.wantedSprites.insert(key, at: 0); return plates }
        let x = 10.0, base = h - 10
        let back = ScreenRect(x: x - 4, y: base - s.height - 8, width: bar.width + s.width + 14, height: s.height + 12)
        plates.append(back)
        list.commands.append(.fillRect(back, plate))
        list.commands.append(.fillRect(ScreenRect(x: x, y: base - 3, width: bar.width, height: 2), ink))
        list.commands.append(.fillRect(ScreenRect(x: x, y: base - 9, width: 1.5, height: 8), ink))
        list.commands.append(.fillRect(ScreenRect(x: x + bar.width - 1.5, y: base - 9, width: 1.5, height: 8), ink))
        list.commands.append(.sprite(key, destination: ScreenRect(x: x + bar.width + 4, y: base - s.height - 2, width: s.width, height: s.height), opacity: 1))
        return plates
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
