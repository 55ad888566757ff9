import Foundation
import MapGeometry
import MapTiles
import Platform

/// A feature on the Mercator plane (world units), ready to be cut into tiles.
struct SourceFeature {
    enum Kind { case polygon, line, point }
    var kind: Kind
    /// Polygon: exterior ring then its holes. Line: one line. Point: one point.
    var parts: [[MapPoint]]
    var properties: [String: VectorTile.Value] = [:]
    /// The first zoom at which the feature appears.
    var minZoom = 0
    var bounds: MapRect

    init(kind: Kind, parts: [[MapPoint]], properties: [String: VectorTile.Value] = [:], minZoom: Int = 0) {
        self.kind = kind
        self.parts = parts
        self.properties = properties
        self.minZoom = minZoom
        bounds = MapRect.bounding(parts.joined()) ?? MapRect(x: 0, y: 0, width: 0, height: 0)
    }
}

extension SourceFeature {
    /// Polygons from .pn2 geometries: each outer boundary with the inner boundaries that
    /// follow it under the same feature id.
    static func polygons(from geoms: [PN2Geometry]) -> [SourceFeature] {
        var out: [SourceFeature] = []
        var current: (id: UInt32, rings: [[MapPoint]])?
        func flush() {
            if let c = current, let outer = c.rings.first, outer.count >= 3 { out.append(SourceFeature(kind: .polygon, parts: c.rings)) }
            current = nil
        }
        for g in geoms {
            let ring = g.points.map { WebMercator.project($0) }
            switch g.kind {
            case .inner:
                if current?.id == g.featureID { current?.rings.append(ring) }
            case .outer, .closedRing:
                flush()
                current = (g.featureID, [ring])
            case .lineString:
                flush()
            }
        }
        flush()
        return out
    }

    static func lines(from geoms: [PN2Geometry], minZoom: Int = 0) -> [SourceFeature] {
        geoms.filter { $0.points.count >= 2 }.map {
            SourceFeature(kind: .line, parts: [$0.points.map { WebMercator.project($0) }], minZoom: minZoom)
        }
    }
}
