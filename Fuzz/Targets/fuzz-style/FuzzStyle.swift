import FoundationEssentials
import MapStyle
import MapTiles

// Bytes as a MapLibre style; what parses is evaluated as the painter would: every layer's
// filter and every property, through the typed reads, at a few zooms over a few features.
private let features: [VectorTile.Feature?] = {
    let ring = [VectorTile.Point(x: 0, y: 0), .init(x: 4096, y: 0), .init(x: 4096, y: 4096)]
    return [
        nil,
        VectorTile.Feature(id: 1, type: .lineString, parts: [ring, ring], properties: [
            "class": .string("motorway"), "name": .string("A 7"), "rank": .int(3), "oneway": .int(1), "ref_length": .int(3)]),
        VectorTile.Feature(id: .max, type: .polygon, parts: [ring, ring.reversed()], properties: [
            "class": .string("lake"), "render_height": .double(.infinity), "intermittent": .bool(true)]),
        VectorTile.Feature(type: .point, parts: [[ring[0]]], properties: [
            "class": .string("city"), "name:latin": .string("Hamburg"), "rank": .double(.nan), "capital": .int(Int64.min)]),
    ]
}()

func fuzzStyle(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard let style = try? MapStyle(json: Data(bytes: start, count: count)) else { return 0 }
    for layer in style.layers {
        for zoom in [-1.0, 0, 5.5, 14, 24, .nan] {
            for feature in features {
                let ctx = EvaluationContext(zoom: zoom, feature: feature)
                _ = layer.isShown(atZoom: zoom)
                _ = layer.matches(ctx)
                _ = layer.text(ctx)
                for name in Array(layer.paint.keys) + Array(layer.layout.keys) {
                    _ = layer.number(name, ctx)
                    _ = layer.color(name, ctx)
                    _ = layer.string(name, ctx)
                    _ = layer.numbers(name, ctx)
                    _ = layer.strings(name, ctx)
                    _ = layer.bool(name, ctx)
                    _ = layer.isConstant(name)
                    _ = layer.isFeatureConstant(name)
                }
            }
        }
    }
    return 0
}
