import Platform

/// A legacy function — {"stops": [[in, out], …], "base", "type", "property", "default"} —
/// converted into the expression MapLibre would make of it: zoom functions into
/// interpolate/step over the zoom, property functions over `get`, zoom-and-property
/// functions ({"zoom": z, "value": v} stop keys) into an outer zoom function of inner
/// property functions.
struct LegacyFunction {
    var spec: PropertySpec?
    var path: String

    func compile(_ o: [String: JSONValue]) throws -> Node {
        let property = o["property"]?.string
        let interpolates = spec?.interpolates ?? true
        let type = o["type"]?.string ?? (interpolates ? "exponential" : "interval")
        guard ["exponential", "interval", "categorical", "identity"].contains(type) else {
            throw StyleError(path: path, reason: "unknown function type '\(type)'")
        }
        let base = o["base"]?.number ?? 1
        guard base.isFinite, base > 0 else { throw StyleError(path: "\(path).base", reason: "expected a positive number") }
        let fallback = try o["default"].map { try PropertyCompiler.literal($0, spec: spec, path: "\(path).default") }
        if type == "identity" {
            guard let property else { throw StyleError(path: path, reason: "an identity function needs a property") }
            let get = Node.get(.literal(.string(property)), from: nil)
            return fallback.map { .coalesce([get, $0]) } ?? get
        }
        guard case let .array(stops)? = o["stops"], !stops.isEmpty else {
            throw StyleError(path: path, reason: "expected an expression, a literal or a function with stops")
        }
        guard stops.count <= ExpressionCompiler.maxItems else { throw StyleError(path: "\(path).stops", reason: "too many stops") }
        var pairs: [(JSONValue, Node)] = []
        for (i, stop) in stops.enumerated() {
            guard case let .array(pair) = stop, pair.count == 2 else {
                throw StyleError(path: "\(path).stops[\(i)]", reason: "expected a [input, output] pair")
            }
            pairs.append((pair[0], try PropertyCompiler.literal(pair[1], spec: spec, path: "\(path).stops[\(i)][1]")))
        }
        let curve: Interpolation = base == 1 ? .linear : .exponential(base)
        // Exponential functions of strings, enums and booleans step, as MapLibre's do.
        let kind = type == "exponential" && !interpolates ? "interval" : type
        guard let property else { return try function(kind, curve, input: .zoom, pairs) }
        let input = Node.get(.literal(.string(property)), from: nil)
        let node: Node
        if case .object = pairs[0].0 {
            // Zoom-and-property: group the stops by zoom, one property function per zoom.
            var groups: [(Double, [(JSONValue, Node)])] = []
            for (i, (key, output)) in pairs.enumerated() {
                guard let zoom = key["zoom"]?.number, let value = key["value"] else {
                    throw StyleError(path: "\(path).stops[\(i)][0]", reason: "expected {\"zoom\": …, \"value\": …}")
                }
                if groups.last?.0 == zoom { groups[groups.count - 1].1.append((value, output)) } else { groups.append((zoom, [(value, output)])) }
            }
            let inner = try groups.map { (JSONValue.number($0.0), try function(kind, curve, input: input, $0.1, fallback: fallback)) }
            node = try function(kind == "exponential" ? "exponential" : "interval", curve, input: .zoom, inner)
        } else {
            node = try function(kind, curve, input: input, pairs, fallback: fallback)
        }
        return fallback.map { .coalesce([node, $0]) } ?? node
    }

    private func function(_ type: String, _ curve: Interpolation, input: Node, _ pairs: [(JSONValue, Node)],
                          fallback: Node? = nil) throws -> Node {
        if type == "categorical" {
            var table: [StyleValue: Int] = [:], outputs: [Node] = []
            for (i, (key, output)) in pairs.enumerated() {
                let label: StyleValue
                switch key {
                case let .string(s): label = .string(s)
                case let .number(d): label = .number(d)
                case let .bool(b): label = .bool(b)
                default: throw StyleError(path: "\(path).stops[\(i)][0]", reason: "expected a string, number or boolean")
                }
                if table[label] == nil { table[label] = outputs.count; outputs.append(output) }
            }
            return .match(input, table: table, outputs: outputs, otherwise: fallback ?? .literal(.null))
        }
        var stops: [(Double, Node)] = []
        for (i, (key, output)) in pairs.enumerated() {
            guard case let .number(d) = key else { throw StyleError(path: "\(path).stops[\(i)][0]", reason: "expected a number") }
            if let last = stops.last?.0, d < last {
                throw StyleError(path: "\(path).stops[\(i)][0]", reason: "stop inputs must be in ascending order")
            }
            stops.append((d, output))
        }
        if type == "exponential" { return .interpolate(curve, input, stops: stops) }
        return .step(input, first: stops[0].1, stops: Array(stops.dropFirst()))
    }
}
