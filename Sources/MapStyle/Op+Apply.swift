import Glibc
import MapCore
import Platform

extension Op {
    /// The operator on evaluated arguments (their count checked at compile). What MapLibre
    /// would raise as an evaluation error is `.null`.
    func apply(_ a: [StyleValue]) -> StyleValue {
        switch self {
        case .not: if case let .bool(b) = a[0] { return .bool(!b) } else { return .null }
        case .equal: return .bool(a[0] == a[1])
        case .notEqual: return .bool(a[0] != a[1])
        case .less, .lessOrEqual, .greater, .greaterOrEqual: return .bool(compare(a[0], a[1]))
        case .in:
            switch a[1] {
            case let .string(haystack):
                guard let needle = a[0].displayString, Self.searchable(haystack, needle) else { return .null }
                return .bool(needle.isEmpty || haystack.contains(needle))
            case let .array(items): return .bool(items.contains(a[0]))
            default: return .null
            }
        case .indexOf: return Self.indexOf(a)
        case .slice: return Self.slice(a)
        case .length:
            switch a[0] {
            case let .string(s): return .number(Double(s.utf16.count))
            case let .array(items): return .number(Double(items.count))
            default: return .null
            }
        case .at:
            guard case let .number(i) = a[0], case let .array(items) = a[1], i >= 0, i == i.rounded(),
                  i < Double(items.count) else { return .null }
            return items[Int(saturating: i)]
        case .toString: return a[0].displayString.map { .string($0) } ?? .null
        case .toNumber:
            for v in a {
                switch v {
                case .null: return .number(0)
                case let .bool(b): return .number(b ? 1 : 0)
                case let .number(d): return .number(d)
                case let .string(s): if let d = Self.jsNumber(s) { return .number(d) }
                default: continue
                }
            }
            return .null
        case .toBoolean: return .bool(a[0].truthy)
        case .toColor:
            for v in a { if let c = Self.color(v) { return .color(c) } }
            return .null
        case .toRGBA:
            guard case let .color(c) = a[0] else { return .null }
            return .array([.number(c.r * 255), .number(c.g * 255), .number(c.b * 255), .number(c.a)])
        case .number: return a.first { if case .number = $0 { true } else { false } } ?? .null
        case .string: return a.first { if case .string = $0 { true } else { false } } ?? .null
        case .boolean: return a.first { if case .bool = $0 { true } else { false } } ?? .null
        case .array: if case .array = a[a.count - 1] { return a[a.count - 1] } else { return .null }
        case .object: return .null  // objects are not values here
        case .typeOf: return .string(a[0].typeName)
        case .concat:
            var out = ""
            for v in a {
                guard let s = v.displayString, out.utf8.count + s.utf8.count <= StyleValue.maxStringBytes else { return .null }
                out += s
            }
            return .string(out)
        case .downcase: return a[0].string.flatMap { StyleValue.bounded($0) }.map { .string($0.lowercased()) } ?? .null
        case .upcase: return a[0].string.flatMap { StyleValue.bounded($0) }.map { .string($0.uppercased()) } ?? .null
        case .pi: return .number(Double.pi)
        case .e: return .number(M_E)
        case .isSupportedScript: return .bool(true)
        case .resolvedLocale: return .string("en")
        case .image: return a[0].string.map { .string($0) } ?? .null
        case .collator, .accumulated: return .null
        case .lineProgress, .heatmapDensity: return .number(0)
        case .rgb, .rgba:
            let n = a.compactMap(\.number)
            guard n.count == a.count, n.prefix(3).allSatisfy({ (0...255).contains($0) }),
                  n.count == 3 || (0...1).contains(n[3]) else { return .null }
            return .color(Color(r: n[0] / 255, g: n[1] / 255, b: n[2] / 255, a: n.count == 4 ? n[3] : 1))
        default:
            return arithmetic(a)
        }
    }

    private func arithmetic(_ a: [StyleValue]) -> StyleValue {
        var n: [Double] = []
        n.reserveCapacity(a.count)
        for v in a { guard case let .number(d) = v else { return .null }; n.append(d) }
        let x = n.first ?? 0
        switch self {
        case .add: return .number(n.reduce(0, +))
        case .multiply: return .number(n.reduce(1, *))
        case .subtract: return .number(n.count == 1 ? -x : x - n[1])
        case .divide: return .number(x / n[1])
        case .remainder: return .number(x.truncatingRemainder(dividingBy: n[1]))
        case .power: return .number(pow(x, n[1]))
        case .min: return .number(n.contains(where: \.isNaN) ? .nan : n.min()!)
        case .max: return .number(n.contains(where: \.isNaN) ? .nan : n.max()!)
        case .round: return .number(x.rounded())  // halves away from zero, as the spec says
        case .floor: return .number(x.rounded(.down))
        case .ceil: return .number(x.rounded(.up))
        case .abs: return .number(Swift.abs(x))
        case .sqrt: return .number(x.squareRoot())
        case .ln: return .number(log(x))
        case .log10: return .number(Glibc.log10(x))
        case .log2: return .number(Glibc.log2(x))
        case .sin: return .number(Glibc.sin(x))
        case .cos: return .number(Glibc.cos(x))
        case .tan: return .number(Glibc.tan(x))
        case .asin: return .number(Glibc.asin(x))
        case .acos: return .number(Glibc.acos(x))
        case .atan: return .number(Glibc.atan(x))
        default: return .null
        }
    }

    /// <, <=, >, >= on two numbers or two strings; any other pair is false.
    private func compare(_ l: StyleValue, _ r: StyleValue) -> Bool {
        switch (l, r) {
        case let (.number(x), .number(y)):
            switch self { case .less: return x < y; case .lessOrEqual: return x <= y; case .greater: return x > y; default: return x >= y }
        case let (.string(x), .string(y)):
            // JavaScript orders strings by UTF-16 code units.
            let (p, q) = (Array(x.utf16), Array(y.utf16))
            switch self {
            case .less: return p.lexicographicallyPrecedes(q)
            case .lessOrEqual: return !q.lexicographicallyPrecedes(p)
            case .greater: return q.lexicographicallyPrecedes(p)
            default: return !p.lexicographicallyPrecedes(q)
            }
        default: return false
        }
    }

    static func color(_ v: StyleValue) -> Color? {
        switch v {
        case let .color(c): return c
        case let .string(s): return CSSColor.parse(s)
        case let .array(items) where items.count == 3 || items.count == 4:
            return Op.rgba.apply(items.count == 3 ? items + [.number(1)] : items).colorValue
        default: return nil
        }
    }

    /// JavaScript's Number(string): surrounding space ignored, "" is 0, 0x hex, "Infinity";
    /// nil for what would be NaN.
    static func jsNumber(_ text: String) -> Double? {
        let s = text.trimmingJSSpace()
        if s.isEmpty { return 0 }
        guard s.utf8.count <= 400 else { return nil }
        if s.hasPrefix("0x") || s.hasPrefix("0X") { return UInt64(s.dropFirst(2), radix: 16).map(Double.init) }
        switch s {
        case "Infinity", "+Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: break
        }
        // Swift also reads "nan", "inf" and hex floats, which JavaScript does not.
        guard s.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }) else { return nil }
        return Double(s)
    }

    private static func indexOf(_ a: [StyleValue]) -> StyleValue {
        let start = a.count > 2 ? a[2].number ?? 0 : 0
        switch a[1] {
        case let .array(items):
            let from = Self.clampIndex(start, items.count)
            return .number(Double(items[from...].firstIndex(of: a[0]) ?? -1))
        case let .string(s):
            guard let needle = a[0].displayString, Self.searchable(s, needle) else { return .null }
            let h = Array(s.utf16), n = Array(needle.utf16)
            var i = Self.clampIndex(start, h.count)
            while i + n.count <= h.count {
                if h[i..<(i + n.count)].elementsEqual(n) { return .number(Double(i)) }
                i += 1
            }
            return .number(-1)
        default: return .null
        }
    }

    /// Substring search is quadratic at worst: refused (an evaluation error) for texts longer
    /// than labels ever are.
    private static func searchable(_ haystack: String, _ needle: String) -> Bool {
        haystack.utf8.count <= 4096 && needle.utf8.count <= 4096
    }

    private static func slice(_ a: [StyleValue]) -> StyleValue {
        guard case let .number(s) = a[1] else { return .null }
        let end = a.count > 2 ? a[2].number : nil
        switch a[0] {
        case let .array(items):
            let (from, to) = range(s, end, items.count)
            return .array(Array(items[from..<to]))
        case let .string(text):
            let units = Array(text.utf16)
            let (from, to) = range(s, end, units.count)
            return .string(String(decoding: units[from..<to], as: UTF16.self))
        default: return .null
        }
    }

    /// JavaScript's slice bounds: negative counts from the end, clamped, end ≥ start.
    private static func range(_ start: Double, _ end: Double?, _ count: Int) -> (Int, Int) {
        func resolve(_ d: Double) -> Int { d < 0 ? clampIndex(Double(count) + d, count) : clampIndex(d, count) }
        let from = resolve(start), to = end.map(resolve) ?? count
        return (from, Swift.max(from, to))
    }

    private static func clampIndex(_ d: Double, _ count: Int) -> Int {
        d.isNaN ? 0 : Int(saturating: Swift.min(Double(count), Swift.max(0, d.rounded(.towardZero))))
    }
}

extension StyleValue {
    var colorValue: Color? { if case let .color(c) = self { return c } else { return nil } }
}

extension String {
    /// Without the spaces and line breaks JavaScript's Number() ignores around a number.
    func trimmingJSSpace() -> Substring {
        let space: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !space($0) }), let last = lastIndex(where: { !space($0) }) else { return "" }
        return self[first...last]
    }
}
