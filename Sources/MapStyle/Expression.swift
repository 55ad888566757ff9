import MapTiles
import Platform

/// A style expression (or a legacy filter or function, converted), compiled once from JSON
/// into a tree and evaluated per zoom and feature. Evaluation never fails: where MapLibre
/// raises an evaluation error this yields `.null`, which the typed accessors of `StyleLayer`
/// turn into the property's default and filters into "does not match".
public final class Expression: Sendable {
    let node: Node
    public let isZoomDependent: Bool
    public let isFeatureDependent: Bool
    /// What of a feature the value depends on, when that is only properties named by
    /// literal keys and the geometry type: features alike in those get the same value, so a
    /// painter may evaluate once for each kind of feature. nil when it reads more (the id,
    /// the whole property set, a key computed at run time).
    public let featureInputs: FeatureInputs?

    public struct FeatureInputs: Hashable, Sendable {
        /// The property keys read, sorted.
        public var keys: [String]
        /// Whether the geometry type is read (`geometry-type` or a legacy `$type`).
        public var geometry: Bool
    }

    init(_ node: Node) {
        self.node = node
        var zoom = false, feature = false
        node.visit { n in
            switch n {
            case .zoom: zoom = true
            case .get, .has, .id, .geometryType, .legacyType, .properties, .featureState: feature = true
            default: break
            }
        }
        isZoomDependent = zoom
        isFeatureDependent = feature
        var keys = Set<String>(), geometry = false
        featureInputs = Self.inputs(node, &keys, &geometry) ? FeatureInputs(keys: keys.sorted(), geometry: geometry) : nil
    }

    /// The feature's geometry as `geometry-type` and a legacy `$type` name it: features that
    /// share it are alike to both.
    public static func geometryName(of f: VectorTile.Feature) -> String { Node.typeName(f, multi: false) }

    /// Collects what `n` reads of a feature; false when that is more than named properties
    /// and the geometry type.
    private static func inputs(_ n: Node, _ keys: inout Set<String>, _ geometry: inout Bool) -> Bool {
        switch n {
        case let .get(key, from), let .has(key, from):
            switch from {
            case nil, .properties?:
                guard case let .literal(.string(k)) = key else { return false }
                keys.insert(k)
                return true
            case .object?: return inputs(key, &keys, &geometry)
            default: return false
            }
        case .geometryType, .legacyType:
            geometry = true
            return true
        case .id, .properties, .featureState: return false
        default: return n.children.allSatisfy { inputs($0, &keys, &geometry) }
        }
    }

    public func evaluate(_ ctx: EvaluationContext) -> StyleValue {
        var scope: [StyleValue] = []
        return node.evaluate(ctx, &scope)
    }

    /// Compiles an expression (JSON array syntax, or a bare literal); throws a `StyleError`
    /// naming the path of what is wrong: an unknown operator, a wrong argument count, too deep.
    public static func compile(_ json: JSONValue, path: String) throws -> Expression {
        var compiler = ExpressionCompiler()
        return Expression(try compiler.compile(json, path: path, depth: 0))
    }

    /// A constant, for defaults and literal property values.
    static func constant(_ value: StyleValue) -> Expression { Expression(.literal(value)) }
}

/// The compiled tree. Operators that evaluate all their arguments are `.call`; those that
/// evaluate lazily or hold tables have cases of their own.
indirect enum Node: Sendable {
    case literal(StyleValue)
    /// `["literal", {...}]`: only `get`/`has` can read into it; as a value it is null.
    case object([String: StyleValue])
    case zoom, id, properties, featureState
    /// `geometry-type`: Point, LineString, Polygon or their Multi… forms.
    case geometryType
    /// A legacy filter's `$type`: Point, LineString or Polygon, never Multi….
    case legacyType
    case get(Node, from: Node?)
    case has(Node, from: Node?)
    case all([Node]), any([Node])
    case caseOf([(Node, Node)], otherwise: Node)
    case coalesce([Node])
    case match(Node, table: [StyleValue: Int], outputs: [Node], otherwise: Node)
    /// A legacy `in`: is the value one of these (same type only)?
    case inSet(Node, Set<StyleValue>)
    case step(Node, first: Node, stops: [(Double, Node)])
    case interpolate(Interpolation, Node, stops: [(Double, Node)])
    /// `let`: the values go on the scope stack, `var` reads them by slot.
    case bind([Node], body: Node)
    case variable(Int)
    /// `format`: each section's text; images are left out of the text.
    case format([Node])
    case numberFormat(Node, minDigits: Int, maxDigits: Int)
    case call(Op, [Node])

    /// Each node of the tree, this one first.
    func visit(_ body: (Node) -> Void) {
        body(self)
        for child in children { child.visit(body) }
    }

    var children: [Node] {
        switch self {
        case .literal, .object, .zoom, .id, .properties, .featureState, .geometryType, .legacyType, .variable: return []
        case let .get(k, from), let .has(k, from): return [k] + (from.map { [$0] } ?? [])
        case let .all(a), let .any(a), let .coalesce(a), let .format(a), let .call(_, a): return a
        case let .caseOf(pairs, otherwise): return pairs.flatMap { [$0.0, $0.1] } + [otherwise]
        case let .match(input, _, outputs, otherwise): return [input] + outputs + [otherwise]
        case let .inSet(input, _): return [input]
        case let .step(input, first, stops): return [input, first] + stops.map(\.1)
        case let .interpolate(_, input, stops): return [input] + stops.map(\.1)
        case let .bind(values, body): return values + [body]
        case let .numberFormat(input, _, _): return [input]
        }
    }

    /// The nodes whose values can become the result (the branches of case, match, step…),
    /// for checking and converting literal outputs against a property's kind.
    func mapOutputs(_ transform: (StyleValue) throws -> StyleValue) throws -> Node {
        switch self {
        case let .literal(v): return .literal(try transform(v))
        case let .caseOf(pairs, otherwise):
            return .caseOf(try pairs.map { ($0.0, try $0.1.mapOutputs(transform)) }, otherwise: try otherwise.mapOutputs(transform))
        case let .coalesce(a): return .coalesce(try a.map { try $0.mapOutputs(transform) })
        case let .match(input, table, outputs, otherwise):
            return .match(input, table: table, outputs: try outputs.map { try $0.mapOutputs(transform) }, otherwise: try otherwise.mapOutputs(transform))
        case let .step(input, first, stops):
            return .step(input, first: try first.mapOutputs(transform), stops: try stops.map { ($0.0, try $0.1.mapOutputs(transform)) })
        case let .interpolate(kind, input, stops):
            return .interpolate(kind, input, stops: try stops.map { ($0.0, try $0.1.mapOutputs(transform)) })
        case let .bind(values, body): return .bind(values, body: try body.mapOutputs(transform))
        default: return self
        }
    }
}

/// How `interpolate` blends between stops.
enum Interpolation: Sendable {
    case linear
    case exponential(Double)
    case cubicBezier(Double, Double, Double, Double)
}

/// The operators that take evaluated arguments.
enum Op: String, Sendable, CaseIterable {
    case not = "!", equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case `in`, indexOf = "index-of", slice, length, at
    case toString = "to-string", toNumber = "to-number", toBoolean = "to-boolean", toColor = "to-color", toRGBA = "to-rgba"
    case number, string, boolean, array, object, typeOf = "typeof"
    case concat, downcase, upcase
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%", power = "^"
    case min, max, round, floor, ceil, abs, sqrt, ln, log10, log2, pi, e, sin, cos, tan, asin, acos, atan
    case rgb, rgba
    case image, isSupportedScript = "is-supported-script", resolvedLocale = "resolved-locale", collator
    case lineProgress = "line-progress", accumulated, heatmapDensity = "heatmap-density"
}

/// `Expression` under a name no other module uses: FoundationEssentials has an `Expression`
/// too, and `MapStyle.Expression` names a member of the `MapStyle` struct, not the module's type.
public typealias StyleExpression = Expression
