import Glibc
import Platform

/// `number-format` without ICU: an "en" number with grouping commas and between `min` and
/// `max` fraction digits (currency and other locales are not supported).
enum NumberText {
    static func format(_ n: Double, minFractionDigits: Int, maxFractionDigits: Int) -> String {
        let maxDigits = min(15, max(0, maxFractionDigits)), minDigits = min(maxDigits, max(0, minFractionDigits))
        let scale = pow(10, Double(maxDigits))
        let scaled = (abs(n) * scale).rounded()
        // Beyond 2^53 the digits are not exact anyway; JavaScript's own text is as good.
        guard n.isFinite, scaled < 9_007_199_254_740_992 else { return StyleValue.jsString(n) }
        let value = UInt64(saturating: scaled), divisor = UInt64(saturating: scale)
        var whole = String(value / divisor)
        var fraction = maxDigits > 0 ? String(value % divisor) : ""
        if maxDigits > 0 { fraction = String(repeating: "0", count: maxDigits - fraction.count) + fraction }
        while fraction.count > minDigits, fraction.last == "0" { fraction.removeLast() }
        var grouped = ""
        for (i, c) in whole.enumerated() {
            if i > 0, (whole.count - i) % 3 == 0 { grouped.append(",") }
            grouped.append(c)
        }
        whole = grouped
        let sign = n < 0 && value > 0 ? "-" : ""
        return sign + whole + (fraction.isEmpty ? "" : "." + fraction)
    }
}
