import Platform

/// Turns expression JSON into a `Node` tree, checking as MapLibre's parser does what can be
/// known before evaluation: operator names, argument counts, match labels, ascending stops,
/// variable names; and bounding what hostile JSON could make large: nesting depth, literal
/// sizes, match labels.
struct ExpressionCompiler {
    static let maxDepth = 64
    static let maxItems = 10_000

    /// Names of the `let` bindings in scope, innermost last; a `var` reads its slot.
    private var scope: [String] = []

    mutating func compile(_ json: JSONValue, path: String, depth: Int) throws -> Node {
        guard depth <= Self.maxDepth else { throw StyleError(path: path, reason: "too deeply nested") }
        switch json {
        case .null: return .literal(.null)
        case let .bool(b): return .literal(.bool(b))
        case let .number(d): return .literal(.number(d))
        case let .string(s): return .literal(.string(s))
        case .object: throw StyleError(path: path, reason: "expected an expression, not an object (use [\"literal\", {…}])")
        case let .array(items):
            guard let first = items.first else { throw StyleError(path: path, reason: "expected an array with at least one element") }
            guard case let .string(name) = first else {
                throw StyleError(path: path, reason: "expected an operator name first (use [\"literal\", […]] for an array)")
            }
            return try compile(operator: name, Array(items.dropFirst()), path: path, depth: depth)
        }
    }

    private mutating func compile(operator name: String, _ args: [JSONValue], path: String, depth: Int) throws -> Node {
        func arg(_ i: Int) throws -> Node { try compile(args[i], path: "\(path)[\(i + 1)]", depth: depth + 1) }
        func all() throws -> [Node] { try args.indices.map(arg) }
        func count(_ range: ClosedRange<Int>) throws {
            guard range.contains(args.count) else {
                let expected = range.lowerBound == range.upperBound ? "\(range.lowerBound)"
                    : range.upperBound == Int.max ? "at least \(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
                let noun = expected.hasSuffix(" 1") || expected == "1" ? "argument" : "arguments"
                throw StyleError(path: path, reason: "'\(name)' expects \(expected) \(noun), not \(args.count)")
            }
        }
        switch name {
        case "literal":
            try count(1...1)
            if case let .object(o) = args[0] {
                var budget = Self.maxItems
                return .object(try o.mapValues { try Self.literal($0, path: "\(path)[1]", budget: &budget, depth: depth + 1) })
            }
            var budget = Self.maxItems
            return .literal(try Self.literal(args[0], path: "\(path)[1]", budget: &budget, depth: depth + 1))
        case "zoom": try count(0...0); return .zoom
        case "id": try count(0...0); return .id
        case "geometry-type": try count(0...0); return .geometryType
        case "properties": try count(0...0); return .properties
        case "feature-state": try count(1...1); _ = try arg(0); return .featureState
        case "get": try count(1...2); return .get(try arg(0), from: args.count == 2 ? try arg(1) : nil)
        case "has": try count(1...2); return .has(try arg(0), from: args.count == 2 ? try arg(1) : nil)
        case "all": return .all(try all())
        case "any": return .any(try all())
        case "none": return .call(.not, [.any(try all())])
        case "coalesce": try count(1...Int.max); return .coalesce(try all())
        case "case":
            guard args.count >= 3, args.count % 2 == 1 else {
                throw StyleError(path: path, reason: "'case' expects condition/output pairs and a fallback")
            }
            let pairs = try stride(from: 0, to: args.count - 1, by: 2).map { (try arg($0), try arg($0 + 1)) }
            return .caseOf(pairs, otherwise: try arg(args.count - 1))
        case "match": return try match(args, path: path, depth: depth)
        case "step": return try step(args, path: path, depth: depth)
        case "interpolate", "interpolate-hcl", "interpolate-lab": return try interpolate(name, args, path: path, depth: depth)
        case "let":
            guard args.count >= 3, args.count % 2 == 1 else { throw StyleError(path: path, reason: "'let' expects name/value pairs and an expression") }
            var values: [Node] = [], names: [String] = []
            for i in stride(from: 0, to: args.count - 1, by: 2) {
                guard case let .string(n) = args[i] else { throw StyleError(path: "\(path)[\(i + 1)]", reason: "expected a variable name") }
                names.append(n)
                values.append(try arg(i + 1))
            }
            scope += names
            defer { scope.removeLast(names.count) }
            return .bind(values, body: try arg(args.count - 1))
        case "var":
            try count(1...1)
            guard case let .string(n) = args[0], let slot = scope.lastIndex(of: n) else {
                throw StyleError(path: path, reason: "unknown variable \(args[0].string.map { "'\($0)'" } ?? "")")
            }
            return .variable(slot)
        case "format":
            var sections: [Node] = []
            for (i, a) in args.enumerated() {
                if case .object = a { continue }  // a section's options: fonts, scale, colour
                if case let .array(inner) = a, inner.first == .string("image") { continue }
                sections.append(try arg(i))
            }
            return .format(sections)
        case "number-format":
            try count(2...2)
            let options = args[1].object ?? [:]
            let minDigits = Int(saturating: options["min-fraction-digits"]?.number ?? 0)
            let maxDigits = Int(saturating: options["max-fraction-digits"]?.number ?? 3)
            // Beyond 15 digits a Double has none left to show (and 10^20 would not fit the digit arithmetic).
            return .numberFormat(try arg(0), minDigits: min(15, max(0, minDigits)), maxDigits: min(15, max(0, minDigits, maxDigits)))
        case "collator":
            return .literal(.null)  // comparisons here are binary; the collator's options are not used
        case "within", "distance", "global-state", "elevation":
            throw StyleError(path: path, reason: "unsupported operator '\(name)'")
        default:
            guard let op = Op(rawValue: name) else { throw StyleError(path: path, reason: "unknown operator '\(name)'") }
            try count(Self.arity(op))
            return .call(op, try all())
        }
    }

    static func arity(_ op: Op) -> ClosedRange<Int> {
        switch op {
        case .pi, .e, .lineProgress, .accumulated, .heatmapDensity: return 0...0
        case .not, .length, .toString, .toBoolean, .toRGBA, .typeOf, .downcase, .upcase, .round, .floor, .ceil, .abs,
             .sqrt, .ln, .log10, .log2, .sin, .cos, .tan, .asin, .acos, .atan, .image, .isSupportedScript, .resolvedLocale:
            return 1...1
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual: return 2...3
        case .in, .at, .divide, .remainder, .power: return 2...2
        case .indexOf, .slice: return 2...3
        case .subtract: return 1...2
        case .array: return 1...3
        case .rgb: return 3...3
        case .rgba: return 4...4
        case .collator: return 1...1
        case .toNumber, .toColor, .number, .string, .boolean, .object, .add, .multiply, .min, .max: return 1...Int.max
        case .concat: return 0...Int.max
        }
    }

    /// A literal's value; objects inside arrays are not values here and read as null.
    static func literal(_ json: JSONValue, path: String, budget: inout Int, depth: Int) throws -> StyleValue {
        guard depth <= maxDepth else { throw StyleError(path: path, reason: "too deeply nested") }
        budget -= 1
        guard budget >= 0 else { throw StyleError(path: path, reason: "too many items (at most \(maxItems))") }
        switch json {
        case .null, .object: return .null
        case let .bool(b): return .bool(b)
        case let .number(d): return .number(d)
        case let .string(s): return .string(s)
        case let .array(items):
            guard items.count <= budget else { throw StyleError(path: path, reason: "too many items (at most \(maxItems))") }
            return .array(try items.enumerated().map { try literal($1, path: "\(path)[\($0)]", budget: &budget, depth: depth + 1) })
        }
    }
}
