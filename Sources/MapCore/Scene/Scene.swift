import Foundation
import MapGeometry

/// Which tiles already have pixels. The window answers from its texture store.
public protocol TileAvailability {
    func isReady(_ tile: TileID) -> Bool
}

/// Composes what a frame shows from the map's state at a time. Pure: no drawing, no I/O.
public struct Scene {
    public var camera: Camera
    public var background: Color
    public var tileZoomRange: ClosedRange<Int>
    /// Rings of tiles kept loaded around the view, so panning finds them ready.
    public var bufferRing = 1

    public init(camera: Camera, background: Color = Color(hex: 0xE8E6E1), tileZoomRange: ClosedRange<Int> = 0...19) {
        self.camera = camera
        self.background = background
        self.tileZoomRange = tileZoomRange
    }

    public func compose(at t: Double, tiles: TileAvailability) -> DrawList {
        var list = DrawList()
        list.commands.append(.clear(background))
        composeTiles(into: &list, tiles: tiles)
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
    private func composeTiles(into list: inout DrawList, tiles: TileAvailability) {
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
                continue
            }
            list.missingTiles += 1
            if seen.insert(w).inserted { wanted.append(w) }
            if let (a, src) = readyAncestor(of: w, tiles: tiles) {
                ancestors.append(.tile(a, source: src, destination: dst, opacity: 1))
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
            if !tiles.isReady(w), seen.insert(w).inserted { wanted.append(w) }
        }
        // Last, the parents of missing tiles: a quarter as many, so a coarse picture arrives
        // fast in a new area and a tile that fails to load is still covered.
        for tile in missing {
            if let p = tile.parent, p.z >= tileZoomRange.lowerBound, !tiles.isReady(p), seen.insert(p).inserted {
                wanted.append(p)
            }
        }
        list.wantedTiles = wanted
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
