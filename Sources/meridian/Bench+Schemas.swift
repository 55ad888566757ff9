import Dispatch
import FoundationEssentials
import MapCore
import MapGeometry
import MapGraphics
import MapRender
import MapTiles
import MapWindow
import MeridianKit
import Platform

/// The same area in two schemas (`--vector`, OpenMapTiles, and `--protomaps`, Protomaps v4,
/// both of central Helsinki): the tiles around its middle painted cold in their schema's
/// built-in style, both at the zoom where the deepest data they share is drawn 1:1 (the
/// fixtures stop at z14 and z15: z14's, at z15), so that neither schema's style costs more
/// than the other's.
extension Bench {
    func schemaRows(openMapTiles omt: String, protomaps pm: String) throws -> [Row] {
        var rows: [Row] = []
        func deepest(_ s: TileSource) -> Int {
            (MapCatalog.underlying(s) as? PMTilesSource)?.dataZoomRange.upperBound ?? (MapCatalog.underlying(s) as? MBTilesSource)?.dataZoomRange.upperBound ?? 14
        }
        let shared = min(deepest(try Meridian.catalog.source(omt)), deepest(try Meridian.catalog.source(pm)))
        for (label, path) in [("OpenMapTiles", omt), ("Protomaps", pm)] {
            let source = try Meridian.catalog.source(path)
            let schema = source.schema ?? .openMapTiles
            let style = try Meridian.catalog.style(StyleChoice(schema: schema))
            let pixels = TileRasterizer.tilePixels(pixelRatio: 1)
            var cold: [Double] = []
            // The fixture's middle (Kluuvi), a view's worth of tiles around it.
            let middle = Coordinate(latitude: 60.1705, longitude: 24.9440)
            let z = shared + 1
            do {
                let c = TileID(containing: middle, zoom: z)
                for round in 0..<3 { for dy in -2...2 { for dx in -2...2 {
                    let t = TileID(z: z, x: c.x + dx, y: c.y + dy)
                    guard case let .vector(data, dataTile)? = try source.payload(for: t) else { continue }
                    let painter = VectorTilePainter(mapStyle: style)
                    let start = DispatchTime.now()
                    _ = try painter.paint(t, data: data, dataTile: dataTile, pixelSize: pixels)
                    if round > 0 { cold.append(Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9) }
                } } }
            }
            let name = "schemas: Helsinki z\(z) tiles (data z\(shared) 1:1), \(label), cold"
            rows += [Row(name: name + " p50", value: FrameStats.percentile(cold, 50) * 1000, unit: "ms", target: ""),
                     Row(name: name + " p99", value: FrameStats.percentile(cold, 99) * 1000, unit: "ms", target: "within 10 % of the other")]
        }
        return rows
    }
}
