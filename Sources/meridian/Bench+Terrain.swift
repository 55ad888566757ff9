import FoundationEssentials
import MapGeometry
import MapGraphics
import MapTiles
import MapWindow
import Platform

/// Terrain's numbers: a DEM tile (the North Shore fixture, or MERIDIAN_BENCH_DEM) decoded,
/// shaded at 256 pixels and at 512 (the same heights doubled, as a 2× screen asks), and traced
/// for contours every 10 m (the densest a hiking map draws), and a whole overlay tile two zooms
/// past the heights (interpolated bicubically, shaded, traced and labelled, as the terrain
/// overlay draws a street zoom), p50 and p99 of 200 runs each.
extension Bench {
    func terrainRows() throws -> [Row] {
        let path = ProcessInfo.processInfo.environment["MERIDIAN_BENCH_DEM"] ?? "Tests/Fixtures/dem/terrarium-12-646-1400.png"
        guard FileIO.exists(path) else { return [Row(name: "terrain: no DEM tile (run from the source tree)", value: 0, unit: "", target: "")] }
        let png = try FileIO.read(path, limit: 16 << 20)
        let tile = TileID(z: 12, x: 646, y: 1400)
        let dem = try DEMTile(png: png, encoding: .terrarium)
        // The same ground at twice the pixels: each height repeated 2 × 2.
        let n = dem.size
        let doubled = try DEMTile(size: 2 * n, heights: (0..<4 * n * n).map { dem.heights[($0 / (2 * n)) / 2 * n + ($0 % (2 * n)) / 2] })
        func time(_ body: () throws -> Void) rethrows -> [Double] {
            try (0..<200).map { _ in
                let start = MonotonicClock.now
                try body()
                return MonotonicClock.now - start
            }
        }
        func rows(_ name: String, _ t: [Double], target: String) -> [Row] {
            [Row(name: "terrain: " + name + ", p50", value: FrameStats.percentile(t, 50) * 1000, unit: "ms", target: ""),
             Row(name: "terrain: " + name + ", p99", value: FrameStats.percentile(t, 99) * 1000, unit: "ms", target: target)]
        }
        var lines = 0
        return rows("DEM tile decoded (PNG, 256 px)", try time { _ = try DEMTile(png: png, encoding: .terrarium) }, target: "report")
            + rows("hillshade tile 256 px (1×)", time { _ = Hillshade.shade(dem, tile: tile) }, target: "report")
            + rows("hillshade tile 512 px (2×)", time { _ = Hillshade.shade(doubled, tile: tile) }, target: "report")
            + rows("contour tile every 10 m (256 px)", time { lines = Contours.lines(dem, interval: 10).count }, target: "report")
            + [Row(name: "terrain: contour lines in the tile every 10 m", value: Double(lines), unit: "lines", target: "report")]
            + rows("overlay tile z14 from z12 heights (256 px, shaded, contours)",
                   try time { _ = try TerrainTilePainter.paint(png, encoding: .terrarium, of: tile, as: TileID(z: 14, x: 646 * 4 + 1, y: 1400 * 4 + 2), pixels: 256) },
                   target: "report")
    }
}
