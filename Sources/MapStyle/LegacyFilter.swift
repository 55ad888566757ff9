import Platform

/// Layer filters in either syntax: legacy (["==", "class", "motorway"], ["in", "$type", …],
/// ["!has", "name"]) or expression, told apart as MapLibre's `isExpressionFilter` does, and
/// the legacy kind converted as its `convertFilter` does (strictly typed comparisons,
/// `$type` without Multi…, `$id` for the feature id).
enum LegacyFilter {
    static func compile(_ json: JSONValue, path: String) throws -> Expression {
        if isExpressionFilter(json) { return try Expression.compile(json, path: path) }
        return Expression(try convert(json, path: path, depth: 0))
    }

    static func isExpressionFilter(_ json: JSONValue) -> Bool {
        if case .bool = json { return true }
        guard case let .array(f) = json, case let .string(op)? = f.first else { return false }
        switch op {
        case "has": return f.count >= 2 && f[1] != .string("$id") && f[1] != .string("$type")
        case "in":
            if f.count < 3 { return false }
            if case .string = f[1] { if case .array = f[2] { return true } else { return false } }
            return true
        case "!in", "!has", "none": return false
        case "==", "!=", ">", ">=", "<", "<=":
            guard f.count == 3 else { return true }
            if case .array = f[1] { return true }
            if case .array = f[2] { return true }
            return false
        case "any", "all":
            return f.dropFirst().allSatisfy { v in
                if case .bool = v { return true }
                return isExpressionFilter(v)
            }
        default: return true
        }
    }

    private static func convert(_ json: JSONValue, path: String, depth: Int) throws -> Node {
        guard depth <= ExpressionCompiler.maxDepth else { throw StyleError(path: path, reason: "too deeply nested") }
        if case let .bool(b) = json { return .literal(.bool(b)) }
        if case .null = json { return .literal(.bool(true)) }
        guard case let .array(f) = json, case let .string(op)? = f.first else {
            throw StyleError(path: path, reason: "expected a filter")
        }
        let args = Array(f.dropFirst())
        func key(_ i: Int) throws -> String {
            guard i < args.count, case let .string(k) = args[i] else {
                throw StyleError(path: "\(path)[\(i + 1)]", reason: "expected a property name")
            }
            return k
        }
        func value(_ i: Int) throws -> StyleValue {
            guard i < args.count else { throw StyleError(path: path, reason: "'\(op)' expects a key and a value") }
            switch args[i] {
            case .null: return .null
            case let .bool(b): return .bool(b)
            case let .number(d): return .number(d)
            case let .string(s): return .string(s)
            default: throw StyleError(path: "\(path)[\(i + 1)]", reason: "expected a string, number, boolean or null")
            }
        }
        func children() throws -> [Node] {
            try args.enumerated().map { try convert($1, path: "\(path)[\($0 + 1)]", depth: depth + 1) }
        }
        switch op {
        case "all": return .all(try children())
        case "any": return .any(try children())
        case "none": return .call(.not, [.any(try children())])
        case "has", "!has":
            guard args.count == 1 else { throw StyleError(path: path, reason: "'\(op)' expects a key") }
            let k = try key(0)
            let has: Node
            switch k {
            case "$type": has = .literal(.bool(true))
            case "$id": has = .call(.notEqual, [.id, .literal(.null)])
            default: has = .has(.literal(.string(k)), from: nil)
            }
            return op == "has" ? has : .call(.not, [has])
        case "in", "!in":
            guard !args.isEmpty else { throw StyleError(path: path, reason: "'\(op)' expects a key and values") }
            let k = try key(0)
            guard args.count <= ExpressionCompiler.maxItems else { throw StyleError(path: path, reason: "too many values") }
            let values = Set(try (1..<args.count).map(value))
            let test = Node.inSet(lookup(k), values)
            return op == "in" ? test : .call(.not, [test])
        case "==", "!=", "<", "<=", ">", ">=":
            guard args.count == 2 else { throw StyleError(path: path, reason: "'\(op)' expects a key and a value") }
            let k = try key(0), v = try value(1)
            let compare = Node.call(Op(rawValue: op)!, [lookup(k), .literal(v)])
            // A legacy null compares with a property that is there and null: one never is here.
            if v == .null, k != "$id", k != "$type" {
                let has = Node.has(.literal(.string(k)), from: nil)
                return op == "==" ? .all([has, compare]) : op == "!=" ? .any([.call(.not, [has]), compare]) : compare
            }
            return compare
        default:
            // Not legacy: an expression inside a legacy filter.
            return try Expression.compile(json, path: path).node
        }
    }

    private static func lookup(_ key: String) -> Node {
        switch key {
        case "$type": return .legacyType
        case "$id": return .id
        default: return .get(.literal(.string(key)), from: nil)
        }
    }
}
