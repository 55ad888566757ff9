import FoundationEssentials
import Glibc
import Platform
import MapGeometry

/// A named place read from a tile's `places` layer.
public struct TilePlace: Hashable, Sendable {
    public var name: String
    public var point: MapPoint
    public var population: Int
    public var capital: Bool
}

extension VectorTile {
    /// The places of this tile (the bytes of `dataTile`) that lie inside `tile`, which is
    /// `dataTile` itself or one of its descendants (over-zoom).
    public func places(in tile: TileID, dataTile: TileID) -> [TilePlace] {
        guard let layer = layer("places") else { return [] }
        let origin = dataTile.mapRect
        let unit = origin.size.width / Double(layer.extent)
        let bounds = tile.mapRect
        var out: [TilePlace] = []
        for f in layer.features where f.type == .point {
            guard case let .string(name)? = f.properties["name"], let p = f.parts.first?.first else { continue }
            let point = MapPoint(x: origin.minX + Double(p.x) * unit, y: origin.minY + Double(p.y) * unit)
            guard bounds.contains(point) else { continue }
            out.append(TilePlace(name: name, point: point,
                                 population: min(max(0, Int(saturating: f.properties["population"]?.number ?? 0)), 100_000_000_000),
                                 capital: (f.properties["capital"]?.number ?? 0) != 0))
        }
        return out
    }
}
