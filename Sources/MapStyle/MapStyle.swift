import FoundationEssentials
import Platform

/// A MapLibre GL style (spec v8): its sources, and the layers that can be drawn, in draw
/// order, with their expressions compiled. A layer that cannot be drawn — a type not drawn
/// here, a value of the wrong kind, an unknown operator — is left out with a notice; the
/// style as a whole fails only when it is not a usable style at all.
public struct MapStyle: Sendable {
    public var name: String?
    public var sources: [String: StyleSource]
    public var sprite: String?
    public var glyphs: String?
    /// In draw order; only those that can be drawn.
    public var layers: [StyleLayer]
    /// One line per layer left out and why ("layers[12] 'hillshade': hillshade layers are not drawn").
    public var notices: [String]

    static let maxBytes = 16 << 20
    static let maxLayers = 5_000
    /// Deeper JSON than any style needs (expressions nest ≤ 64 inside a few levels of style)
    /// is refused before decoding, whose recursion it would otherwise drive.
    static let maxJSONDepth = 100

    /// The style of `data`; `labels` says which names its labels show (`LabelLanguage`).
    public init(json data: Data, labels: LabelLanguage = .local) throws {
        try self.init(json: data)
        guard labels.rewrites else { return }
        for i in layers.indices where layers[i].type == .symbol {
            if let field = layers[i].layout["text-field"] {
                layers[i].layout["text-field"] = Expression(labels.rewrite(field.node))
            }
        }
    }

    public init(json data: Data) throws {
        guard data.count <= Self.maxBytes else {
            throw StyleError(path: "", reason: "the style is too big (\(data.count) bytes, at most \(Self.maxBytes))")
        }
        guard Self.nestingDepth(data) <= Self.maxJSONDepth else { throw StyleError(path: "", reason: "too deeply nested") }
        let root: JSONValue
        do { root = try JSONValue.parse(data) } catch { throw StyleError(path: "", reason: "\(error)") }
        guard case let .object(o) = root else { throw StyleError(path: "", reason: "expected a style object") }
        guard o["version"]?.number == 8 else { throw StyleError(path: "version", reason: "expected style version 8") }
        guard case let .array(layerList)? = o["layers"] else { throw StyleError(path: "layers", reason: "expected an array of layers") }
        guard layerList.count <= Self.maxLayers else {
            throw StyleError(path: "layers", reason: "too many layers (\(layerList.count), at most \(Self.maxLayers))")
        }
        name = o["name"]?.string
        glyphs = o["glyphs"]?.string
        // A sprite is a URL, or (newer styles) a list of {id, url}: the first one here.
        sprite = o["sprite"]?.string ?? o["sprite"]?.array?.first?["url"]?.string
        sources = [:]
        notices = []
        for (key, value) in o["sources"]?.object ?? [:] {
            do { sources[key] = try StyleSource(json: value, path: "sources.\(key)") } catch { notices.append("\(error)") }
        }
        layers = []
        var byID: [String: [String: JSONValue]] = [:]
        for (i, item) in layerList.enumerated() {
            guard case var .object(json) = item else { notices.append("layers[\(i)]: expected an object"); continue }
            let id = json["id"]?.string ?? ""
            let label = "layers[\(i)] '\(id)'"
            if !id.isEmpty, byID[id] == nil { byID[id] = json }
            // Old styles share a layer's type, source, filter and layout with `ref`.
            if let ref = json["ref"]?.string {
                guard let target = byID[ref] else { notices.append("\(label): ref to unknown layer '\(ref)'"); continue }
                for key in ["type", "source", "source-layer", "minzoom", "maxzoom", "filter", "layout"] { json[key] = target[key] }
            }
            guard let typeName = json["type"]?.string else { notices.append("\(label): no layer type"); continue }
            guard let type = StyleLayerType(rawValue: typeName) else {
                notices.append("\(label): \(typeName) layers are not drawn")
                continue
            }
            switch type {
            case .heatmap: notices.append("\(label): \(typeName) layers are not drawn"); continue
            default: break
            }
            do {
                let layer = try StyleLayer(json: json, index: i, type: type, id: id)
                if type != .background {
                    guard let source = layer.source else { notices.append("\(label): no source"); continue }
                    guard let declared = sources[source] else { notices.append("\(label): unknown source '\(source)'"); continue }
                    // Each kind of layer reads its kind of source (a raster layer pictures, a
                    // hillshade layer heights, the others vector tiles).
                    let wanted = type == .raster ? "raster" : type == .hillshade ? "raster-dem" : "vector"
                    guard declared.type == wanted else {
                        notices.append("\(label): a \(typeName) layer reads a \(wanted) source; '\(source)' is \(declared.type)")
                        continue
                    }
                }
                layers.append(layer)
            } catch let e as StyleError {
                let prefix = "layers[\(i)]."
                let path = e.path.hasPrefix(prefix) ? String(e.path.dropFirst(prefix.count)) : e.path
                notices.append("\(label): \(path): \(e.reason)")
            }
        }
    }

    /// The raster and raster-dem sources that layers draw, by name.
    public var pictureSources: [String: StyleSource] {
        let used = Set(layers.filter { $0.type == .raster || $0.type == .hillshade }.compactMap(\.source))
        return sources.filter { used.contains($0.key) }
    }

    /// The drawable layers that read `sourceLayer`, in draw order.
    public func layers(in sourceLayer: String) -> [StyleLayer] { layers.filter { $0.sourceLayer == sourceLayer } }

    /// How deeply arrays and objects nest, strings skipped; counted without decoding.
    static func nestingDepth(_ data: Data) -> Int {
        var depth = 0, deepest = 0, inString = false, escaped = false
        for byte in data {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1; deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }
}
