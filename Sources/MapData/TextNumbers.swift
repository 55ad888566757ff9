import FoundationEssentials
import Glibc
import Platform

/// Numbers and times read straight from bytes, without making strings: a million-point GPX
/// has three million of them, and `Double(String)` costs more than the rest of the parse.
enum TextNumbers {
    private static let powersOf10: [Double] = (0...22).map { pow(10, Double($0)) }

    /// A decimal number (`-12.5`, `3e2`, `+7`), surrounded by optional blanks; nil when the
    /// bytes are anything else. Up to 15 significant digits with a small exponent are exact
    /// (one multiplication or division of exact doubles); longer ones go through strtod.
    static func double(_ p: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0, n = p.count
        while i < n, isBlank(p[i]) { i += 1 }
        while n > i, isBlank(p[n - 1]) { n -= 1 }
        guard i < n else { return nil }
        let start = i
        var negative = false
        if p[i] == UInt8(ascii: "-") || p[i] == UInt8(ascii: "+") { negative = p[i] == UInt8(ascii: "-"); i += 1 }
        var mantissa: UInt64 = 0, digits = 0, scale = 0, sawDigit = false
        while i < n, p[i] &- 48 < 10 {
            sawDigit = true
            if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(p[i] &- 48); if mantissa != 0 { digits += 1 } } else { scale += 1 }
            i += 1
        }
        if i < n, p[i] == UInt8(ascii: ".") {
            i += 1
            while i < n, p[i] &- 48 < 10 {
                sawDigit = true
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(p[i] &- 48); if mantissa != 0 { digits += 1 }; scale -= 1 }
                i += 1
            }
        }
        guard sawDigit else { return nil }
        var exponent = 0
        if i < n, p[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            var expNegative = false
            if i < n, p[i] == UInt8(ascii: "-") || p[i] == UInt8(ascii: "+") { expNegative = p[i] == UInt8(ascii: "-"); i += 1 }
            var sawExp = false
            while i < n, p[i] &- 48 < 10 { sawExp = true; if exponent < 100_000 { exponent = exponent * 10 + Int(p[i] &- 48) }; i += 1 }
            guard sawExp else { return nil }
            if expNegative { exponent = -exponent }
        }
        guard i == n else { return nil }
        let e = scale + exponent
        if digits <= 15, abs(e) <= 22 {
            let m = Double(mantissa)
            let v = e >= 0 ? m * powersOf10[e] : m / powersOf10[-e]
            return negative ? -v : v
        }
        // Rare: many digits or a large exponent. strtod wants a terminated copy.
        var copy = [CChar](repeating: 0, count: n - start + 1)
        for k in start..<n { copy[k - start] = CChar(bitPattern: p[k]) }
        return strtod(copy, nil)
    }

    /// An ISO 8601 / XML Schema date-time (`2026-05-01T08:00:00Z`, with optional fraction
    /// and `±hh:mm` offset; no zone is read as UTC) as seconds since 1970; nil otherwise.
    static func time(_ p: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0, n = p.count
        while i < n, isBlank(p[i]) { i += 1 }
        while n > i, isBlank(p[n - 1]) { n -= 1 }
        func number(_ width: Int) -> Int? {
            guard i + width <= n else { return nil }
            var v = 0
            for k in i..<(i + width) { guard p[k] &- 48 < 10 else { return nil }; v = v * 10 + Int(p[k] &- 48) }
            i += width
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < n, p[i] == c else { return false }
            i += 1
            return true
        }
        let dash = UInt8(ascii: "-"), colon = UInt8(ascii: ":")
        guard let year = number(4), expect(dash), let month = number(2), expect(dash), let day = number(2),
              i < n, p[i] == UInt8(ascii: "T") || p[i] == UInt8(ascii: "t") || p[i] == UInt8(ascii: " ") else { return nil }
        i += 1
        guard let hour = number(2), expect(colon), let minute = number(2), expect(colon), let second = number(2),
              (1...12).contains(month), (1...31).contains(day), hour <= 24, minute < 60, second <= 60 else { return nil }
        var fraction = 0.0
        if i < n, p[i] == UInt8(ascii: ".") || p[i] == UInt8(ascii: ",") {
            i += 1
            var scale = 0.1
            while i < n, p[i] &- 48 < 10 { fraction += Double(p[i] &- 48) * scale; scale /= 10; i += 1 }
        }
        var offset = 0
        if i < n {
            if p[i] | 0x20 == UInt8(ascii: "z") { i += 1 } else if p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-") {
                let sign = p[i] == UInt8(ascii: "-") ? -1 : 1
                i += 1
                guard let oh = number(2) else { return nil }
                _ = expect(colon)
                let om = number(2) ?? 0
                offset = sign * (oh * 3600 + om * 60)
            }
        }
        guard i == n else { return nil }
        let days = CivilCalendar.days(year: year, month: month, day: day)
        return Double(days * 86400 + hour * 3600 + minute * 60 + second - offset) + fraction
    }

    static func isBlank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
}
