import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// Which tiles a camera shows, and what stands in for those not ready: the nearest ready
/// ancestor's matching part underneath and any ready children on top, so the map never
/// flashes blank; a tile drawn before the map's content changed (a track opened) stands in
/// for itself until its new picture arrives.
struct TileLayout {
    /// In paint order: ancestors, then children, then the tiles of the display zoom.
    var commands: [DrawCommand] = []
    /// Visible tiles to load (missing, or showing an older picture).
    var wanted: [TileID] = []
    /// The parents of missing visible tiles: a quarter as many, to stand in for them when
    /// they are slow to come (a coarse picture fast in a new area, and a tile that fails to
    /// load still covered).
    var parents: [TileID] = []
    /// The ring of tiles around the view not ready yet: loaded ahead of a pan, after `wanted`.
    var ring: [TileID] = []
    /// Visible tiles not ready (or showing an older picture).
    var missing = 0
    /// Ready tiles that count for labels (drawn, standing in, or in the ring).
    var shown: [TileID] = []
    /// Every visible tile is ready and current, with a picture, and the world fills the view.
    var coversView = false
    /// Visible tiles (unwrapped) with no picture of their own or of an ancestor: what shows
    /// there is what lies under this layout (the basemap under online tiles, or the clear).
    var uncovered: [TileID] = []

    /// The tile zoom a camera shows for a source's zooms.
    static func zoom(for camera: Camera, in zoomRange: ClosedRange<Int>) -> Int {
        TileCover.tileZoom(forZoom: camera.zoom, minZoom: zoomRange.lowerBound, maxZoom: zoomRange.upperBound)
    }

    /// `place` makes the command that draws a tile's `source` part into a screen rectangle,
    /// turned by the degrees it is given (see `DrawCommand.tile`).
    /// `only`: the visible tiles to lay out (unwrapped, all of one zoom), in place of those
    /// covering the view; with it, no ring is loaded.
    ///
    /// A turned view is laid out north-up (the same rectangles, from the same edges) and each
    /// rectangle then moved to where its centre appears; only tiles the turned view touches
    /// are drawn or wanted, nearest the centre first.
    init(camera turnedCamera: Camera, zoomRange: ClosedRange<Int>, bufferRing: Int, tiles: TileAvailability, only: [TileID]? = nil,
         place turnedPlace: (TileID, UnitRect, ScreenRect, Double) -> DrawCommand) {
        let camera = turnedCamera.northUp
        let degrees = turnedCamera.isTurned ? 360 - turnedCamera.bearing : 0
        func place(_ id: TileID, _ src: UnitRect, _ r: ScreenRect) -> DrawCommand {
            guard degrees != 0 else { return turnedPlace(id, src, r, 0) }
            let c = camera.screenCenter
            let (x, y) = turnedCamera.turn(r.x + r.width / 2 - c.x, r.y + r.height / 2 - c.y)
            return turnedPlace(id, src, ScreenRect(x: c.x + x - r.width / 2, y: c.y + y - r.height / 2, width: r.width, height: r.height), degrees)
        }
        let z = only?.first?.z ?? Self.zoom(for: camera, in: zoomRange)
        let rect = turnedCamera.visibleMapRect
        let visible = only ?? turnedCamera.tilesInView(atZoom: z)
        var ancestors: [DrawCommand] = [], children: [DrawCommand] = [], exact: [DrawCommand] = []
        var seen = Set<TileID>()
        var allPictured = true
        for tile in visible {
            let w = tile.wrapped
            let dst = Self.screenRect(of: tile, camera: camera)
            if tiles.isReady(w), let from = tiles.drawnFrom(w) {
                // Past the source's deepest zoom: the ancestor's part over the tile, scaled
                // where it is drawn. Until that ancestor is in, a coarser one stands in.
                let ancestor = Self.readyAncestor(of: w, lowest: zoomRange.lowerBound, tiles: tiles)
                if let (a, src) = ancestor {
                    exact.append(place(a, src, dst))
                    shown.append(a)
                } else {
                    uncovered.append(tile)
                }
                // Still to come: that ancestor, or the tile's own current answer (an older one shown).
                let toLoad = ancestor?.0 != from ? from : tiles.isCurrent(w) ? nil : w
                if let toLoad {
                    missing += 1
                    if seen.insert(toLoad).inserted { wanted.append(toLoad) }
                }
                continue
            }
            if tiles.isReady(w) {
                let pictured = tiles.hasPixels(w)
                allPictured = allPictured && pictured
                if !pictured { uncovered.append(tile) }
                exact.append(place(w, .full, dst))
                shown.append(w)
                // An older picture stands in until the current one arrives.
                if !tiles.isCurrent(w) {
                    missing += 1
                    if seen.insert(w).inserted { wanted.append(w) }
                }
                continue
            }
            missing += 1
            if seen.insert(w).inserted { wanted.append(w) }
            if let (a, src) = Self.readyAncestor(of: w, lowest: zoomRange.lowerBound, tiles: tiles) {
                ancestors.append(place(a, src, dst))
                shown.append(a)
            } else {
                uncovered.append(tile)
            }
            if tile.z < zoomRange.upperBound {
                for (i, c) in w.children.enumerated() where tiles.isReady(c) {
                    let half = UnitRect(x: Double(i % 2) * 0.5, y: Double(i / 2) * 0.5, width: 0.5, height: 0.5)
                    let r = ScreenRect(x: dst.x + dst.width * half.x, y: dst.y + dst.height * half.y,
                                       width: dst.width / 2, height: dst.height / 2)
                    children.append(place(c, .full, r))
                }
            }
        }
        commands = ancestors + children + exact
        for tile in wanted {
            if let p = tile.parent, p.z >= zoomRange.lowerBound, !tiles.isReady(p), seen.insert(p).inserted {
                parents.append(p)
            }
        }
        // Then the ring around the view, loaded at lower priority.
        let ringView = turnedCamera.grown(by: Double(bufferRing) * 256 * pow(2, camera.zoom - Double(z)))
        for tile in only == nil ? TileCover.tiles(covering: rect, tileZoom: z, buffer: bufferRing) : [] {
            if degrees != 0, !ringView.sees(tile.mapRect) { continue }
            let w = tile.wrapped
            if !tiles.isCurrent(w) { if seen.insert(w).inserted { ring.append(w) } }
            if tiles.isReady(w) { shown.append(w) }
        }
        coversView = missing == 0 && allPictured && !visible.isEmpty && rect.minY >= 0 && rect.maxY <= WebMercator.worldSize
    }

    /// The screen rectangle of a tile, its edges computed from tile indices so that
    /// neighbours share edges exactly (no seams after rounding).
    static func screenRect(of tile: TileID, camera: Camera) -> ScreenRect {
        let size = WebMercator.worldSize / Double(tile.tilesAcross)
        let a = camera.screenPointUnwrapped(for: MapPoint(x: Double(tile.x) * size, y: Double(tile.y) * size))
        let b = camera.screenPointUnwrapped(for: MapPoint(x: Double(tile.x + 1) * size, y: Double(tile.y + 1) * size))
        return ScreenRect(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y)
    }

    private static func readyAncestor(of tile: TileID, lowest: Int, tiles: TileAvailability) -> (TileID, UnitRect)? {
        var z = tile.z - 1
        while z >= lowest {
            let a = tile.ancestor(atZoom: z)
            // A ready ancestor with no picture (nothing there at its zoom) covers nothing.
            if tiles.isReady(a), tiles.hasPixels(a) {
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
