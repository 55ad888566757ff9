import Dispatch
import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapGraphics
import MapRender
import MapStyle
import MapTiles
import MapWindow
import MeridianKit
import Platform

/// A whole street view drawn in process, as MapLibre Native draws one: every tile covering a
/// 1024×768 view rasterized for the view's zoom (on the cores the window's loader uses) and
/// the labels placed. Cold: the data tiles decoded for the view; warm: a new zoom drawn from
/// data already prepared (as after a zoom gesture).
extension Bench {
    /// Zooms in MapLibre's counting (512-point tiles); Meridian's are one more.
    static let streetViewZooms: [Double] = [14, 15, 15.5, 16, 17]

    /// The rows for `path` alone (`--only views`), over its densest tile.
    func streetViewRows(_ path: String) throws -> [Row] {
        let src = try MBTilesSource(path: path, vectorTileSize: 512)
        return try streetViewRows(src, style: try Meridian.catalog.style(StyleChoice()), at: try densestTile(src).mapRect.center)
    }

    func streetViewRows(_ src: MBTilesSource, style: MapStyle, at centre: MapPoint) throws -> [Row] {
        var rows: [Row] = []
        for z in Self.streetViewZooms {
            var cold: [Double] = [], warm: [Double] = []
            for _ in 0..<5 {
                // Cold: a source and a painter of their own, nothing read or decoded yet.
                let fresh = try MBTilesSource(path: src.database.path, vectorTileSize: 512)
                let painter = VectorTilePainter(mapStyle: style)
                cold.append(try drawView(fresh, painter: painter, centre: centre, zoom: z + 1))
                warm.append(try drawView(fresh, painter: painter, centre: centre, zoom: z + 1.5))
            }
            let name = "street view 1024×768 at MapLibre z\(z == z.rounded() ? String(Int(saturating: z)) : String(z))"
            rows += [Row(name: name + ", cold p50", value: FrameStats.percentile(cold, 50) * 1000, unit: "ms", target: ""),
                     Row(name: name + ", cold p99", value: FrameStats.percentile(cold, 99) * 1000, unit: "ms", target: ""),
                     Row(name: name + ", warm (+0.5) p50", value: FrameStats.percentile(warm, 50) * 1000, unit: "ms", target: ""),
                     Row(name: name + ", warm (+0.5) p99", value: FrameStats.percentile(warm, 99) * 1000, unit: "ms", target: "")]
        }
        return rows
    }

    /// Seconds to draw the view at `zoom` (Meridian's): its tiles on two workers, then its labels placed.
    private func drawView(_ src: MBTilesSource, painter: VectorTilePainter, centre: MapPoint, zoom: Double) throws -> Double {
        let camera = Camera(center: centre, zoom: zoom, viewportSize: ScreenSize(width: 1024, height: 768))
        let z = TileCover.tileZoom(forZoom: zoom, maxZoom: 22)
        let tiles = TileCover.tiles(covering: camera.visibleMapRect, tileZoom: z)
        let pixels = TileRasterizer.tilePixels(pixelRatio: 1)
        let start = DispatchTime.now()
        // The next tile to draw, and the places drawn so far: the two workers' shared state.
        let shared = LockedValue<(next: Int, places: [PlaceLabel])>()
        shared.set((0, []))
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            while true {
                let i = shared.update { state -> Int in
                    let i = state?.next ?? 0
                    state?.next = i + 1
                    return i
                }
                guard i < tiles.count else { return }
                guard case let .vector(data, dataTile)? = try? src.payload(for: tiles[i]),
                      let drawn = try? painter.paint(tiles[i], data: data, dataTile: dataTile, pixelSize: pixels, viewZoom: zoom) else { continue }
                shared.update { $0?.places += drawn.places }
            }
        }
        _ = LabelPlacer().place(shared.get()?.places ?? [], camera: camera, sprites: NoSprites())
        return Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }
}
