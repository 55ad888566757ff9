import Platform

public enum StyleLayerType: String, Sendable {
    case background, fill, line, symbol, circle, fillExtrusion = "fill-extrusion", raster, hillshade, heatmap
}

/// One drawable layer of a style: which features it takes (source, source layer, zoom range,
/// filter) and its paint and layout properties, compiled. Read values through the typed
/// accessors (StyleLayer+Values.swift): they fall back to the spec's defaults.
public struct StyleLayer: Sendable {
    /// Position in the style's layers array, for messages.
    public var index: Int
    public var id: String
    public var type: StyleLayerType
    public var source: String?
    public var sourceLayer: String?
    public var minzoom: Double
    /// Exclusive, as MapLibre's.
    public var maxzoom: Double
    /// layout.visibility != "none".
    public var visible: Bool
    public var filter: Expression?
    public var paint: [String: Expression]
    public var layout: [String: Expression]

    public init(index: Int, id: String, type: StyleLayerType, source: String? = nil, sourceLayer: String? = nil,
                minzoom: Double = 0, maxzoom: Double = 24, visible: Bool = true, filter: Expression? = nil,
                paint: [String: Expression] = [:], layout: [String: Expression] = [:]) {
        self.index = index; self.id = id; self.type = type; self.source = source; self.sourceLayer = sourceLayer
        self.minzoom = minzoom; self.maxzoom = maxzoom; self.visible = visible; self.filter = filter
        self.paint = paint; self.layout = layout
    }

    public func isShown(atZoom z: Double) -> Bool { visible && z >= minzoom && z < maxzoom }

    /// Whether the feature passes the filter (always, without one). An evaluation error
    /// (a non-boolean result) does not pass, as in MapLibre.
    public func matches(_ ctx: EvaluationContext) -> Bool {
        guard let filter else { return true }
        return filter.evaluate(ctx) == .bool(true)
    }

    /// Neither zoom- nor feature-dependent: evaluate once.
    public func isConstant(_ property: String) -> Bool {
        guard let e = expression(property) else { return true }
        return !e.isZoomDependent && !e.isFeatureDependent
    }

    /// May depend on the zoom but not on the feature: evaluate once per tile.
    public func isFeatureConstant(_ property: String) -> Bool {
        guard let e = expression(property) else { return true }
        return !e.isFeatureDependent
    }

    /// May depend on the feature but not on the zoom (a label's text-size that does follows
    /// the camera's zoom).
    public func isZoomConstant(_ property: String) -> Bool {
        guard let e = expression(property) else { return true }
        return !e.isZoomDependent
    }

    /// A paint or layout property's expression (names do not overlap between the two).
    func expression(_ property: String) -> Expression? { paint[property] ?? layout[property] }
}

extension StyleLayer {
    /// Reads layer `index` of a style; a `StyleError` says why it cannot be drawn.
    init(json: [String: JSONValue], index: Int, type: StyleLayerType, id: String) throws {
        let path = "layers[\(index)]"
        func number(_ key: String, _ fallback: Double) throws -> Double {
            guard let v = json[key] else { return fallback }
            guard case let .number(d) = v, d.isFinite else { throw StyleError(path: "\(path).\(key)", reason: "expected a number") }
            return d
        }
        func text(_ key: String) throws -> String? {
            guard let v = json[key] else { return nil }
            guard case let .string(s) = v else { throw StyleError(path: "\(path).\(key)", reason: "expected a string") }
            return s
        }
        self.init(index: index, id: id, type: type)
        source = try text("source")
        sourceLayer = try text("source-layer")
        minzoom = try number("minzoom", 0)
        maxzoom = try number("maxzoom", 24)
        if let f = json["filter"] { filter = try LegacyFilter.compile(f, path: "\(path).filter") }
        for (group, isPaint) in [("paint", true), ("layout", false)] {
            guard let v = json[group] else { continue }
            guard case let .object(properties) = v else { throw StyleError(path: "\(path).\(group)", reason: "expected an object") }
            for (name, value) in properties {
                let propertyPath = "\(path).\(group).\(name)"
                if name == "visibility" {
                    guard case let .string(s) = value, s == "visible" || s == "none" else {
                        throw StyleError(path: propertyPath, reason: "expected one of visible, none")
                    }
                    visible = s == "visible"
                    continue
                }
                // Transitions animate changes between styles; there are none here.
                if name.hasSuffix("-transition") { continue }
                let e = try PropertyCompiler.compile(value, spec: PropertySpec.lookup(type, name), path: propertyPath)
                if isPaint { paint[name] = e } else { layout[name] = e }
            }
        }
    }
}
