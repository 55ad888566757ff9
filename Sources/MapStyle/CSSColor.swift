import MapCore
import Platform

/// CSS colour strings as the style spec takes them: #rgb, #rgba, #rrggbb, #rrggbbaa,
/// rgb()/rgba() with numbers or percentages, hsl()/hsla(), the named colours and "transparent".
/// Components come back in 0...1 with straight alpha; anything else is nil.
enum CSSColor {
    static func parse(_ text: String) -> Color? {
        // Colour strings are short; a long one is not a colour and need not be scanned.
        guard text.utf8.count <= 256 else { return nil }
        let s = text.lowercased().filter { $0 != " " && $0 != "\t" && $0 != "\n" }
        if s.hasPrefix("#") { return hex(s.dropFirst()) }
        if let open = s.firstIndex(of: "("), s.hasSuffix(")") {
            let name = s[..<open]
            let args = s[s.index(after: open)..<s.index(before: s.endIndex)].split(separator: ",", omittingEmptySubsequences: false)
            switch name {
            case "rgb", "rgba": return rgb(args, alpha: name == "rgba")
            case "hsl", "hsla": return hsl(args, alpha: name == "hsla")
            default: return nil
            }
        }
        if s == "transparent" { return Color(r: 0, g: 0, b: 0, a: 0) }
        return named[s].map { Color(hex: $0) }
    }

    private static func hex(_ digits: Substring) -> Color? {
        guard digits.allSatisfy(\.isHexDigit) else { return nil }
        let values = digits.map { Double($0.hexDigitValue ?? 0) }
        switch values.count {
        case 3, 4:
            let c = values.map { $0 * 17 / 255 }
            return Color(r: c[0], g: c[1], b: c[2], a: c.count == 4 ? c[3] : 1)
        case 6, 8:
            // (Typed step by step: as one expression it cost the compiler 15 s.)
            let c: [Double] = stride(from: 0, to: values.count, by: 2).map { (i: Int) -> Double in
                let high: Double = values[i] * 16
                return (high + values[i + 1]) / 255
            }
            return Color(r: c[0], g: c[1], b: c[2], a: c.count == 4 ? c[3] : 1)
        default: return nil
        }
    }

    /// rgb(255, 0, 0), rgb(100%, 0%, 0%), rgba(255, 0, 0, 0.5); a mix of numbers and
    /// percentages is refused, as browsers do.
    private static func rgb(_ args: [Substring], alpha: Bool) -> Color? {
        guard args.count == (alpha ? 4 : 3) else { return nil }
        let percent = args[0].hasSuffix("%")
        var c: [Double] = []
        for arg in args.prefix(3) {
            guard arg.hasSuffix("%") == percent, let v = number(arg) else { return nil }
            c.append(clamp(percent ? v / 100 : v / 255))
        }
        guard let a = alpha ? alphaValue(args[3]) : 1 else { return nil }
        return Color(r: c[0], g: c[1], b: c[2], a: a)
    }

    private static func hsl(_ args: [Substring], alpha: Bool) -> Color? {
        guard args.count == (alpha ? 4 : 3), let hue = number(args[0]),
              args[1].hasSuffix("%"), args[2].hasSuffix("%"),
              let sat = number(args[1]), let light = number(args[2]) else { return nil }
        guard let a = alpha ? alphaValue(args[3]) : 1 else { return nil }
        let h = (hue.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 360
        let s = clamp(sat / 100), l = clamp(light / 100)
        // CSS Color 3's algorithm.
        let m2 = l <= 0.5 ? l * (s + 1) : l + s - l * s
        let m1 = l * 2 - m2
        func channel(_ t: Double) -> Double {
            var t = t
            if t < 0 { t += 1 }
            if t > 1 { t -= 1 }
            if t * 6 < 1 { return m1 + (m2 - m1) * t * 6 }
            if t * 2 < 1 { return m2 }
            if t * 3 < 2 { return m1 + (m2 - m1) * (2.0 / 3 - t) * 6 }
            return m1
        }
        return Color(r: channel(h + 1.0 / 3), g: channel(h), b: channel(h - 1.0 / 3), a: a)
    }

    private static func alphaValue(_ arg: Substring) -> Double? {
        guard let v = number(arg) else { return nil }
        return clamp(arg.hasSuffix("%") ? v / 100 : v)
    }

    /// A finite decimal number, a trailing % allowed.
    private static func number(_ arg: Substring) -> Double? {
        let digits = arg.hasSuffix("%") ? arg.dropLast() : arg
        guard !digits.isEmpty, digits.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" || $0 == "+" || $0 == "e" }),
              let v = Double(digits), v.isFinite else { return nil }
        return v
    }

    static func clamp(_ v: Double) -> Double { v.isNaN ? 0 : min(1, max(0, v)) }
}
