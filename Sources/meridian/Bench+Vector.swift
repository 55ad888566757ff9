import ArgumentParser
import CSQLite
import Dispatch
import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapGraphics
import MapRender
import MapTiles
import MapWindow
import MeridianKit
import Platform

/// Street maps (`--vector FILE.mbtiles`, an OpenMapTiles-schema extract drawn with the
/// built-in style): rasterizing its densest tiles, start-up to a fully drawn street view, the
/// zoom script over it, and memory after many tiles.
extension Bench {
    func vectorRows(_ path: String) throws -> [Row] {
        let src = try MBTilesSource(path: path, vectorTileSize: 512)
        let style = try Meridian.catalog.style(StyleChoice())
        let dense = try densestTile(src)
        var rows: [Row] = []
        // The densest stored tile drawn where it is shown at 1:1 (one zoom deeper, as 512-point
        // tiles are), and eight zooms over it; each from cold (decoding included).
        let center = dense.mapRect.center
        for (label, z) in [("z\(dense.z + 1)", dense.z + 1), ("z\(dense.z + 4) over-zoomed", dense.z + 4)] {
            for ratio in [1.0, 2.0] {
                let shown = TileID(containing: WebMercator.unproject(center), zoom: z)
                let around = (-1...1).flatMap { dy in (-1...1).map { dx in TileID(z: z, x: shown.x + dx, y: shown.y + dy) } }
                let pixels = TileRasterizer.tilePixels(pixelRatio: ratio)
                // Cold: a painter of its own for each tile (the data tile decoded and its
                // filters run for it). Warm: the painter has the data tile already, as it has
                // for every tile after the first drawn from it (4 at 1:1, 256 over-zoomed).
                var cold: [Double] = [], warm: [Double] = []
                let shared = VectorTilePainter(mapStyle: style)
                for round in 0..<4 { for t in around {
                    guard case let .vector(data, dataTile)? = try src.payload(for: t) else { continue }
                    let painter = VectorTilePainter(mapStyle: style)
                    var start = DispatchTime.now()
                    _ = try painter.paint(t, data: data, dataTile: dataTile, pixelSize: pixels)
                    cold.append(Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
                    if round == 0 { _ = try shared.paint(t, data: data, dataTile: dataTile, pixelSize: pixels) }
                    start = DispatchTime.now()
                    _ = try shared.paint(t, data: data, dataTile: dataTile, pixelSize: pixels)
                    warm.append(Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
                } }
                let name = "street map: dense \(label) tile raster at \(Int(saturating: ratio))×"
                let target = ratio > 1 ? "≤ 40 ms" : "≤ 15 ms"
                rows += [Row(name: name + ", cold p50", value: FrameStats.percentile(cold, 50) * 1000, unit: "ms", target: ""),
                         Row(name: name + ", cold p99", value: FrameStats.percentile(cold, 99) * 1000, unit: "ms", target: target),
                         Row(name: name + ", warm p50", value: FrameStats.percentile(warm, 50) * 1000, unit: "ms", target: ""),
                         Row(name: name + ", warm p99", value: FrameStats.percentile(warm, 99) * 1000, unit: "ms", target: target)]
            }
        }
        rows += try streetViewRows(src, style: style, at: center)
        let at = WebMercator.unproject(center)
        rows.append(Row(name: "street map: start to fully drawn z15 1280×800 (median of 3)",
                        value: try spawnMedian(["--tiles", path, "--center", "\(at.latitude),\(at.longitude)", "--zoom", "15",
                                                        "--no-location", "--exit-when-drawn"]) * 1000, unit: "ms", target: "≤ 300 ms"))
        rows += try vectorWindowRows(path, at: at)
        return rows
    }

    /// The stored tile with the most bytes at the file's deepest zoom.
    func densestTile(_ src: MBTilesSource) throws -> TileID {
        let z = src.dataZoomRange.upperBound
        let rows = try src.database.rows("SELECT tile_column, tile_row FROM tiles WHERE zoom_level = ? ORDER BY length(tile_data) DESC LIMIT 1",
                                         [.int(Int64(z))]) { (Int(sqlite3_column_int64($0, 0)), Int(sqlite3_column_int64($0, 1))) }
        // TRANSLATORS: %1$@ is the file; z%2$d a zoom level (z14).
        guard let (x, row) = rows.first else { throw ValidationError(tr("%1$@: no tiles at z%2$d", src.database.path, z)) }
        return TileID(z: z, x: x, y: (1 << z) - 1 - row)
    }

    /// The zoom script (z3 → z12 → z3, shifted to street zooms: z8 → z17 → z8) over the street
    /// map, then a walk across it at z16 until 1,000 tiles were drawn: memory after.
    private func vectorWindowRows(_ path: String, at: Coordinate) throws -> [Row] {
        let window = try SDLWindow(title: "Meridian bench", width: 1280, height: 800, renderer: renderer)
        let counted = CountingSource(try Meridian.catalog.source(path, pixelRatio: window.pixelRatio))
        let made = try Meridian.catalog.tiles(over: counted.inner)
        var start = Camera(center: WebMercator.project(at), zoom: 8, viewportSize: window.size)
        start.setZoom(8)
        let session = makeSession(camera: start, tiles: made, tilesName: nil, overlays: try OverlayOptions.parse(["--no-location"]), pins: [])
        let host = try appHost(window: window, session: session, stack: made.stack.replacingMapSource(counted))
        quit(after: 1)
        host.run()
        let run = zoomScript(host, from: start, around: at, zooms: 8...17, drift: (0.004, 0.008))
        var cam = start
        cam.setZoom(16)
        var step = 0
        while counted.count < 1000, step < 200 {
            cam.setCenter(WebMercator.project(Coordinate(latitude: at.latitude + 0.004 * Double(step / 10 - 5), longitude: at.longitude + 0.008 * Double(step % 10 - 5))))
            host.change { $0.controller.camera = cam }
            quit(after: 0.3)
            host.run()
            step += 1
        }
        quit(after: 1)
        host.run()
        return frameRows("street map: zoom script z8–z17:", run, period: host.clock.period, withIntervals: true)
            + [Row(name: "street map: RSS after \(counted.count) tiles drawn", value: Double(FileIO.residentBytes()) / 1_048_576, unit: "MiB", target: "≤ 150 MiB")]
    }
}

/// A source that counts the tiles asked of it.
final class CountingSource: TileSource, @unchecked Sendable { // `asked` under `lock`
    let inner: TileSource
    private let lock = Lock()
    private var asked = 0
    init(_ inner: TileSource) { self.inner = inner }
    var count: Int { lock.lock(); defer { lock.unlock() }; return asked }
    var name: String { inner.name }
    var zoomRange: ClosedRange<Int> { inner.zoomRange }
    var attribution: String { inner.attribution }
    func payload(for tile: TileID) throws -> TilePayload? {
        lock.lock(); asked += 1; lock.unlock()
        return try inner.payload(for: tile)
    }
}
