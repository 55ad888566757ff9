import Platform

/// A paint or layout property's JSON (a literal, a legacy function or an expression) compiled
/// into an `Expression` and checked against what the spec says the property takes.
enum PropertyCompiler {
    /// Operator names that are not `Op`s; with `Op`'s, what marks an array as an expression.
    static let specialOperators: Set<String> = [
        "literal", "zoom", "id", "geometry-type", "properties", "feature-state", "get", "has", "all", "any", "none",
        "coalesce", "case", "match", "step", "interpolate", "interpolate-hcl", "interpolate-lab", "let", "var",
        "format", "number-format", "collator", "within", "distance", "global-state", "elevation",
    ]

    static func isOperator(_ name: String) -> Bool { Op(rawValue: name) != nil || specialOperators.contains(name) }

    static func compile(_ json: JSONValue, spec: PropertySpec?, path: String) throws -> Expression {
        switch json {
        case let .object(o):
            return Expression(try LegacyFunction(spec: spec, path: path).compile(o))
        case let .array(items):
            // ["Noto Sans Regular"] is a font list, ["get", "name"] an expression; for the
            // properties that take arrays only a known operator name makes one.
            if case let .string(head)? = items.first, spec.map({ !takesArrays($0.kind) }) ?? true || isOperator(head) {
                var compiler = ExpressionCompiler()
                let node = try compiler.compile(json, path: path, depth: 0)
                guard let spec else { return Expression(node) }
                return Expression(try node.mapOutputs { try check($0, spec, path) })
            }
            return Expression(try literal(json, spec: spec, path: path))
        default:
            return Expression(try literal(json, spec: spec, path: path))
        }
    }

    private static func takesArrays(_ kind: PropertySpec.Kind) -> Bool {
        kind == .numbers || kind == .strings || kind == .padding
    }

    /// A literal value (a whole property's, or a legacy function's output): `{token}` strings
    /// where the property takes them, colours parsed, the kind checked.
    static func literal(_ json: JSONValue, spec: PropertySpec?, path: String) throws -> Node {
        var budget = ExpressionCompiler.maxItems
        let value = try ExpressionCompiler.literal(json, path: path, budget: &budget, depth: 1)
        if let spec, spec.tokens, case let .string(s) = value, let node = tokens(s) { return node }
        guard let spec else { return .literal(value) }
        return .literal(try check(value, spec, path))
    }

    static func check(_ v: StyleValue, _ spec: PropertySpec, _ path: String) throws -> StyleValue {
        guard let accepted = spec.accept(v) else { throw StyleError(path: path, reason: "expected \(spec.expected)") }
        return accepted
    }

    /// "{name:latin} {name:nonlatin}" as a concat of the feature's properties (a missing one is
    /// ""), as MapLibre converts legacy token strings; nil when there is no token.
    static func tokens(_ s: String) -> Node? {
        var parts: [Node] = [], text = "", found = false
        var rest = Substring(s)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(where: { $0 == "}" || $0 == "{" }), after[close] == "}", close > after.startIndex else {
                text += rest[...open]
                rest = after
                continue
            }
            text += rest[..<open]
            if !text.isEmpty { parts.append(.literal(.string(text))); text = "" }
            parts.append(.get(.literal(.string(String(after[..<close]))), from: nil))
            found = true
            rest = after[after.index(after: close)...]
        }
        text += rest
        guard found else { return nil }
        if !text.isEmpty { parts.append(.literal(.string(text))) }
        return .call(.concat, parts)
    }
}
