import Foundation
import MapGeometry
import MapTiles
import Platform

/// Cuts a layer's features into vector tiles: per zoom, simplify once, then clip down a
/// quadtree (each child clips its parent's pieces, so big polygons are not clipped against
/// every tile), keeping a buffer so strokes and labels never end at a tile edge.
struct TileCutter {
    static let extent = 4096
    /// The buffer around each tile, in tile units (of 4096): 64 ≈ 4 px at 256 px.
    static let buffer = 64.0
    /// Simplification tolerance in tile units (of 4096): ≈ 0.35 px at 256 px.
    static let tolerance = 5.5

    let name: String
    let features: [SourceFeature]

    /// Features of this layer for every tile of zoom `z` (only tiles that have some).
    func cut(zoom z: Int) -> [TileID: [VectorTile.Feature]] {
        let unit = WebMercator.worldSize / Double(1 << z) / Double(Self.extent)
        var pieces: [SourceFeature] = []
        for f in features where f.minZoom <= z {
            switch f.kind {
            case .point: pieces.append(f)
            case .line:
                let s = Simplify.douglasPeucker(f.parts[0], tolerance: Self.tolerance * unit)
                if s.count >= 2 { pieces.append(SourceFeature(kind: .line, parts: [s], properties: f.properties)) }
            case .polygon:
                var rings: [[MapPoint]] = []
                for (i, r) in f.parts.enumerated() {
                    let s = Simplify.douglasPeucker(r, tolerance: Self.tolerance * unit)
                    // Rings smaller than about a pixel vanish at this zoom; so do their holes.
                    let area = abs(Simplify.signedArea2(s)) / 2 / (unit * unit)
                    if s.count >= 3 && area > 256 { rings.append(s) } else if i == 0 { break }
                }
                if !rings.isEmpty { pieces.append(SourceFeature(kind: .polygon, parts: rings, properties: f.properties)) }
            }
        }
        var out: [TileID: [VectorTile.Feature]] = [:]
        descend(TileID(z: 0, x: 0, y: 0), pieces, target: z, into: &out)
        return out
    }

    private func descend(_ tile: TileID, _ features: [SourceFeature], target: Int, into out: inout [TileID: [VectorTile.Feature]]) {
        let r = tile.mapRect
        let pad = r.size.width / Double(Self.extent) * Self.buffer
        let box = r.insetBy(dx: -pad, dy: -pad)
        var clipped: [SourceFeature] = []
        for f in features where f.bounds.intersects(box) || (f.kind == .point && box.contains(f.parts[0][0])) {
            switch f.kind {
            case .point:
                // Points belong to the one tile that holds them (labels are placed in screen space).
                if r.contains(f.parts[0][0]) { clipped.append(f) }
            case .line:
                for part in Clip.line(f.parts[0], to: box) { clipped.append(SourceFeature(kind: .line, parts: [part], properties: f.properties)) }
            case .polygon:
                let outer = Clip.ring(f.parts[0], to: box)
                guard !outer.isEmpty else { continue }
                var rings = [outer]
                for hole in f.parts.dropFirst() {
                    let h = Clip.ring(hole, to: box)
                    if !h.isEmpty { rings.append(h) }
                }
                clipped.append(SourceFeature(kind: .polygon, parts: rings, properties: f.properties))
            }
        }
        guard !clipped.isEmpty else { return }
        if tile.z == target {
            let features = clipped.compactMap { encode($0, in: r) }
            if !features.isEmpty { out[tile] = features }
            return
        }
        for child in tile.children { descend(child, clipped, target: target, into: &out) }
    }

    /// World units → integer tile units, dropping repeated points and degenerate parts;
    /// exterior rings clockwise and holes anticlockwise, as MVT requires.
    private func encode(_ f: SourceFeature, in r: MapRect) -> VectorTile.Feature? {
        let k = Double(Self.extent) / r.size.width
        func quantize(_ pts: [MapPoint]) -> [VectorTile.Point] {
            var out: [VectorTile.Point] = []
            out.reserveCapacity(pts.count)
            for p in pts {
                let q = VectorTile.Point(x: Int32(saturating: ((p.x - r.minX) * k).rounded()), y: Int32(saturating: ((p.y - r.minY) * k).rounded()))
                if out.last != q { out.append(q) }
            }
            return out
        }
        switch f.kind {
        case .point:
            return VectorTile.Feature(type: .point, parts: [quantize(f.parts[0])], properties: f.properties)
        case .line:
            let l = quantize(f.parts[0])
            return l.count >= 2 ? VectorTile.Feature(type: .lineString, parts: [l], properties: f.properties) : nil
        case .polygon:
            var rings: [[VectorTile.Point]] = []
            for (i, ring) in f.parts.enumerated() {
                var q = quantize(ring)
                if q.count > 1 && q.first == q.last { q.removeLast() }
                guard q.count >= 3 else { if i == 0 { return nil } else { continue } }
                let area = Simplify.signedArea2(q.map { MapPoint(x: Double($0.x), y: Double($0.y)) })
                guard area != 0 else { if i == 0 { return nil } else { continue } }
                if (i == 0) != (area > 0) { q.reverse() }
                rings.append(q)
            }
            return VectorTile.Feature(type: .polygon, parts: rings, properties: f.properties)
        }
    }
}
