import MapCore
import MapTiles
import Platform

/// A value an expression produces. Colours are straight-alpha `Color`s; `formatted` is the
/// text of a `format` expression's sections (their fonts and scales are not kept).
public enum StyleValue: Hashable, Sendable {
    case null, bool(Bool), number(Double), string(String), color(Color), array([StyleValue]), formatted([String])

    init(_ v: VectorTile.Value) {
        switch v {
        case let .string(s): self = .string(s)
        case let .double(d): self = .number(d)
        case let .int(i): self = .number(Double(i))
        case let .bool(b): self = .bool(b)
        }
    }

    /// Longest string an expression may build (concat, to-string, number-format): labels are
    /// short, and hostile styles must not be able to build huge strings in a loop.
    static let maxStringBytes = 64 * 1024

    var number: Double? { if case let .number(d) = self { return d } else { return nil } }
    var string: String? { if case let .string(s) = self { return s } else { return nil } }
    var isNull: Bool { if case .null = self { return true } else { return false } }

    /// The spec's type names, as `typeof` returns them.
    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .color: return "color"
        case .formatted: return "formatted"
        case let .array(items):
            let kinds = Set(items.map(\.typeName))
            let item = kinds.count == 1 ? kinds.first! : "value"
            return "array<\(item), \(items.count)>"
        }
    }

    /// JavaScript's truthiness, as `to-boolean` uses it.
    var truthy: Bool {
        switch self {
        case .null: return false
        case let .bool(b): return b
        case let .number(d): return d != 0 && !d.isNaN
        case let .string(s): return !s.isEmpty
        default: return true
        }
    }

    /// `to-string`: JavaScript's String() for scalars (1 → "1", 1.5 → "1.5", null → ""),
    /// "rgba(r,g,b,a)" for colours, JSON for arrays. Nil past `maxStringBytes`.
    var displayString: String? {
        switch self {
        case .null: return ""
        case let .bool(b): return b ? "true" : "false"
        case let .number(d): return Self.jsString(d)
        case let .string(s): return s
        case let .formatted(sections): return Self.bounded(sections.joined())
        case let .color(c):
            return "rgba(\(Self.jsString((c.r * 255).rounded())),\(Self.jsString((c.g * 255).rounded())),"
                + "\(Self.jsString((c.b * 255).rounded())),\(Self.jsString(c.a)))"
        case .array:
            var out = ""
            return appendJSON(to: &out) ? out : nil
        }
    }

    private func appendJSON(to out: inout String) -> Bool {
        switch self {
        case .null: out += "null"
        case let .string(s): out += "\"" + s.replacingAll("\\", "\\\\").replacingAll("\"", "\\\"") + "\""
        case let .array(items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                guard item.appendJSON(to: &out) else { return false }
            }
            out += "]"
        default: out += displayString ?? ""
        }
        return out.utf8.count <= Self.maxStringBytes
    }

    static func bounded(_ s: String) -> String? { s.utf8.count <= maxStringBytes ? s : nil }

    /// A number as JavaScript prints it, for the common cases: integers without ".0".
    static func jsString(_ d: Double) -> String {
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
        if d == d.rounded(), abs(d) < 1e18 { return String(Int64(saturating: d)) }
        return d.description
    }
}

extension String {
    /// Every `target` replaced (no Foundation here).
    func replacingAll(_ target: Character, _ replacement: String) -> String {
        guard contains(target) else { return self }
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
