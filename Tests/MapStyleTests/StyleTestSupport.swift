import Foundation
import MapCore
@testable import MapStyle
import MapTiles
import Platform

/// Builders shared by the style tests: features, expressions from JSON text, one-layer styles.
enum Fixture {
    static func feature(_ type: VectorTile.GeometryType = .point, id: UInt64? = nil, parts: Int = 1,
                        _ properties: [String: VectorTile.Value] = [:]) -> VectorTile.Feature {
        let ring = [VectorTile.Point(x: 0, y: 0), .init(x: 10, y: 0), .init(x: 10, y: 10), .init(x: 0, y: 10)]
        return VectorTile.Feature(id: id, type: type, parts: Array(repeating: ring, count: parts), properties: properties)
    }

    static func json(_ text: String) throws -> JSONValue { try JSONValue.parse(Data(text.utf8)) }

    static func expression(_ text: String) throws -> StyleExpression { try StyleExpression.compile(json(text), path: "e") }

    static func evaluate(_ text: String, zoom: Double = 0, _ feature: VectorTile.Feature? = nil) throws -> StyleValue {
        try expression(text).evaluate(EvaluationContext(zoom: zoom, feature: feature))
    }

    /// A style with one vector source "v" and these layers (JSON objects, comma-separated).
    static func style(_ layers: String) throws -> MapStyle {
        try MapStyle(json: Data("""
        {"version": 8, "sources": {"v": {"type": "vector", "url": "x"}}, "layers": [\(layers)]}
        """.utf8))
    }

    /// The one layer of a style made of it.
    static func layer(_ layer: String) throws -> StyleLayer {
        let s = try style(layer)
        guard let first = s.layers.first else { throw StyleError(path: "", reason: "layer left out: \(s.notices)") }
        return first
    }

    static func context(_ zoom: Double, _ feature: VectorTile.Feature? = nil) -> EvaluationContext {
        EvaluationContext(zoom: zoom, feature: feature)
    }

    static func rgba(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) -> Color { Color(r: r / 255, g: g / 255, b: b / 255, a: a) }

    static func close(_ c: Color?, _ d: Color?, _ tolerance: Double = 0.002) -> Bool {
        guard let c, let d else { return c == nil && d == nil }
        return abs(c.r - d.r) < tolerance && abs(c.g - d.g) < tolerance && abs(c.b - d.b) < tolerance && abs(c.a - d.a) < tolerance
    }
}
