import MapCore
import Platform

/// Typed reads of paint and layout properties: the value evaluated in `ctx`, or the style
/// spec's default when the property is absent or its value is not of the property's kind
/// (a `get` of a missing property, an evaluation error, NaN). Numbers are clamped to the
/// property's range, so widths and radii are never negative.
extension StyleLayer {
    func value(_ property: String, _ ctx: EvaluationContext) -> (StyleValue, PropertySpec?) {
        let spec = PropertySpec.lookup(type, property)
        guard let e = expression(property) else { return (spec?.defaultValue ?? .null, spec) }
        let v = e.evaluate(ctx)
        if let spec {
            if let accepted = spec.accept(v), !accepted.isNull { return (accepted, spec) }
            return (spec.defaultValue, spec)
        }
        return (v, nil)
    }

    public func number(_ property: String, _ ctx: EvaluationContext) -> Double {
        let (v, spec) = value(property, ctx)
        var d: Double
        switch v {
        case let .number(n) where n.isFinite: d = n
        case let .array(items) where spec?.kind == .padding: d = items.first?.number ?? 0
        default: d = spec?.defaultValue.number ?? 0
        }
        if !d.isFinite { d = 0 }
        if let range = spec?.range { d = min(range.upperBound, max(range.lowerBound, d)) }
        return d
    }

    /// nil where the property is not set and its default is none or transparent.
    public func color(_ property: String, _ ctx: EvaluationContext) -> Color? {
        switch value(property, ctx).0 {
        case let .color(c): return c
        case let .string(s): return CSSColor.parse(s)
        default: return nil
        }
    }

    public func string(_ property: String, _ ctx: EvaluationContext) -> String? {
        switch value(property, ctx).0 {
        case let .string(s): return s
        case let .formatted(sections): return sections.joined()
        case let .number(d): return StyleValue.jsString(d)
        default: return nil
        }
    }

    /// line-dasharray, text-offset, icon-offset, *-translate: every item finite (and in range).
    public func numbers(_ property: String, _ ctx: EvaluationContext) -> [Double]? {
        let (v, spec) = value(property, ctx)
        guard case let .array(items) = v else { return nil }
        var out: [Double] = []
        for item in items {
            guard case let .number(d) = item, d.isFinite else { return nil }
            out.append(spec?.range.map { min($0.upperBound, max($0.lowerBound, d)) } ?? d)
        }
        return out
    }

    /// text-font.
    public func strings(_ property: String, _ ctx: EvaluationContext) -> [String]? {
        guard case let .array(items) = value(property, ctx).0 else { return nil }
        let out = items.compactMap(\.string)
        return out.count == items.count ? out : nil
    }

    public func bool(_ property: String, _ ctx: EvaluationContext) -> Bool {
        let (v, spec) = value(property, ctx)
        if case let .bool(b) = v { return b }
        if case let .bool(b)? = spec?.defaultValue { return b }
        return false
    }

    /// text-field as plain text: tokens replaced, `format` sections joined, the blank lines a
    /// missing token leaves ("{name:latin}\n{name:nonlatin}") trimmed; nil when empty.
    /// (text-transform is left to the caller: `string("text-transform", ctx)`.)
    public func text(_ ctx: EvaluationContext) -> String? {
        guard let s = string("text-field", ctx)?.trimmingJSSpace(), !s.isEmpty else { return nil }
        return String(s)
    }
}
