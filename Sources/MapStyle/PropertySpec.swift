import MapCore
import Platform

/// What the style spec says of one paint or layout property: the kind of value it takes,
/// its default, and its range (values outside are clamped, as MapLibre clamps them).
struct PropertySpec: Sendable {
    enum Kind: Sendable, Equatable {
        case number, color, string, boolean, numbers, strings, formatted
        /// A string from a closed set.
        case enumeration([String])
        /// `icon-padding`, `text-padding`: a number or 1–4 numbers.
        case padding
        /// An image name (`icon-image`, `*-pattern`).
        case image
    }

    var kind: Kind
    var defaultValue: StyleValue
    var range: ClosedRange<Double>? = nil
    /// Legacy `{token}` strings are replaced by the feature's properties.
    var tokens = false

    /// Whether a legacy zoom function interpolates by default (numbers, colours, arrays of
    /// numbers) or steps (everything else).
    var interpolates: Bool {
        switch kind {
        case .number, .color, .numbers, .padding: return true
        default: return false
        }
    }

    /// The kind's name, for "expected a number".
    var expected: String {
        switch kind {
        case .number: return "a number"
        case .color: return "a colour"
        case .string, .formatted: return "a string"
        case .image: return "an image name"
        case .boolean: return "a boolean"
        case .numbers: return "an array of numbers"
        case .strings: return "an array of strings"
        case .padding: return "a number or an array of numbers"
        case let .enumeration(values): return "one of " + values.joined(separator: ", ")
        }
    }

    /// The value when it is of this kind, converted (colour strings to colours); nil otherwise.
    /// Null stays null: it means "the default".
    func accept(_ v: StyleValue) -> StyleValue? {
        if v.isNull { return v }
        switch (kind, v) {
        case (.number, .number), (.boolean, .bool), (.color, .color), (.string, .string), (.image, .string),
             (.formatted, .string), (.formatted, .formatted), (.formatted, .number), (.padding, .number):
            return v
        case let (.color, .string(s)): return CSSColor.parse(s).map { .color($0) }
        case let (.enumeration(values), .string(s)): return values.contains(s) ? v : nil
        case let (.numbers, .array(items)), let (.padding, .array(items)):
            return items.allSatisfy({ $0.number != nil }) ? v : nil
        case let (.strings, .array(items)): return items.allSatisfy({ $0.string != nil }) ? v : nil
        default: return nil
        }
    }

    static func lookup(_ type: StyleLayerType, _ name: String) -> PropertySpec? {
        if name.hasSuffix("-translate-anchor") { return PropertySpec(kind: .enumeration(["map", "viewport"]), defaultValue: .string("map")) }
        if name.hasSuffix("-translate") { return PropertySpec(kind: .numbers, defaultValue: .array([.number(0), .number(0)])) }
        if name.hasSuffix("-sort-key") { return PropertySpec(kind: .number, defaultValue: .null) }
        if name.hasSuffix("-pattern") { return PropertySpec(kind: .image, defaultValue: .null) }
        if name.hasSuffix("-opacity") { return PropertySpec(kind: .number, defaultValue: .number(1), range: 0...1) }
        switch type {
        case .symbol: return symbol[name]
        case .line: return line[name]
        case .fill: return fill[name]
        case .circle: return circle[name]
        case .fillExtrusion: return fillExtrusion[name]
        case .background: return name == "background-color" ? color("#000000") : nil
        case .raster: return raster[name]
        case .hillshade: return hillshade[name]
        case .heatmap: return nil
        }
    }

    static func number(_ d: Double?, _ range: ClosedRange<Double>? = nil) -> PropertySpec {
        PropertySpec(kind: .number, defaultValue: d.map { .number($0) } ?? .null, range: range)
    }
    static func color(_ css: String?) -> PropertySpec {
        PropertySpec(kind: .color, defaultValue: css.flatMap(CSSColor.parse).map { .color($0) } ?? .null)
    }
    static func oneOf(_ values: [String], _ d: String) -> PropertySpec {
        PropertySpec(kind: .enumeration(values), defaultValue: .string(d))
    }
    static func bool(_ d: Bool) -> PropertySpec { PropertySpec(kind: .boolean, defaultValue: .bool(d)) }
    static func numbers(_ d: [Double]?, _ range: ClosedRange<Double>? = nil) -> PropertySpec {
        PropertySpec(kind: .numbers, defaultValue: d.map { .array($0.map { .number($0) }) } ?? .null, range: range)
    }
}
