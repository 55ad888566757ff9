import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import Platform

/// NMEA 0183 as GPS receivers (and gpsfake's logs) speak it: `$GPRMC` gives position, time,
/// speed and course and whether there is a fix; `$GPGGA` the fix quality, HDOP and altitude.
/// Sentences are checked (checksum, field count, ranges) and a bad one is skipped, never
/// trusted: a receiver's serial line garbles bytes.
public struct NMEAReader: Sendable {
    /// HDOP times this is the accuracy shown (a typical receiver's range error, in meters).
    static let metersPerHDOP = 5.0
    /// The longest sentence read (the standard allows 82 characters).
    static let maxSentence = 200

    private var hdop: Double?
    private var altitude: Double?
    /// Sentences skipped as broken.
    public private(set) var rejected = 0

    public init() {}

    /// Reads one line; returns what it says, if it is a whole, valid RMC sentence (GGA only
    /// adds to the next RMC's fix).
    public mutating func read(_ line: Substring) -> PositionEvent? {
        guard let fields = Self.fields(of: line) else { rejected += 1; return nil }
        let type = fields[0].suffix(3)
        switch type {
        case "GGA":
            guard fields.count >= 10 else { rejected += 1; return nil }
            hdop = Double(fields[8]).flatMap { $0.isFinite && $0 >= 0 && $0 < 100 ? $0 : nil }
            altitude = Double(fields[9]).flatMap { $0.isFinite && abs($0) < 100_000 ? $0 : nil }
            return nil
        case "RMC":
            guard fields.count >= 10 else { rejected += 1; return nil }
            guard fields[2] == "A" else { return .noFix }
            guard let lat = Self.angle(fields[3], hemisphere: fields[4], degreeDigits: 2),
                  let lon = Self.angle(fields[5], hemisphere: fields[6], degreeDigits: 3),
                  let c = Coordinate(parsing: "\(lat),\(lon)") else { rejected += 1; return nil }
            let knots = Double(fields[7]).flatMap { $0.isFinite && $0 >= 0 && $0 < 10_000 ? $0 : nil }
            let course = Double(fields[8]).flatMap { $0.isFinite && $0 >= 0 && $0 <= 360 ? $0 : nil }
            return .fix(PositionFix(coordinate: c, accuracy: (hdop ?? 1) * Self.metersPerHDOP, course: course,
                                    speed: knots.map { $0 * 1852 / 3600 }, time: Self.time(fields[1], date: fields[9]), altitude: altitude))
        default:
            return nil
        }
    }

    /// The comma-separated fields between '$' and '*', when the checksum matches.
    static func fields(of line: Substring) -> [Substring]? {
        let s = line.utf8
        guard s.count <= maxSentence, s.first == UInt8(ascii: "$"), let star = s.lastIndex(of: UInt8(ascii: "*")) else { return nil }
        let body = s[s.index(after: s.startIndex)..<star]
        let sum = body.reduce(UInt8(0)) { $0 ^ $1 }
        let given = s[s.index(after: star)...].prefix(2)
        guard given.count == 2, let expected = UInt8(String(decoding: given, as: UTF8.self), radix: 16), expected == sum else { return nil }
        let text = Substring(line[line.index(after: line.startIndex)..<String.Index(star, within: line)!])
        let fields = text.split(separator: ",", omittingEmptySubsequences: false)
        guard let first = fields.first, first.count == 5 else { return nil }
        return fields
    }

    /// "4807.038" with "N": degrees and decimal minutes; nil when malformed.
    static func angle(_ value: Substring, hemisphere: Substring, degreeDigits: Int) -> Double? {
        guard value.count > degreeDigits + 1, value.count < 20, let deg = Double(value.prefix(degreeDigits)),
              let min = Double(value.dropFirst(degreeDigits)), min >= 0, min < 60 else { return nil }
        let v = deg + min / 60
        switch hemisphere {
        case "N", "E": return v
        case "S", "W": return -v
        default: return nil
        }
    }

    /// "hhmmss.ss" and "ddmmyy" as seconds since 1970 (UTC); nil when either is malformed.
    static func time(_ hms: Substring, date: Substring) -> Double? {
        guard hms.count >= 6, date.count == 6, let h = Int(hms.prefix(2)), let m = Int(hms.dropFirst(2).prefix(2)),
              let s = Double(hms.dropFirst(4)), let d = Int(date.prefix(2)), let mo = Int(date.dropFirst(2).prefix(2)),
              let y = Int(date.suffix(2)), (0..<24).contains(h), (0..<60).contains(m), s >= 0, s < 61,
              (1...31).contains(d), (1...12).contains(mo) else { return nil }
        // Two-digit years: 80–99 are the 1900s (receivers of the 1980s on), the rest 2000s.
        return CalendarTime.seconds(year: (y >= 80 ? 1900 : 2000) + y, month: mo, day: d, hour: h, minute: m, second: s)
    }
}

/// UTC times as NMEA and gpsd say them, as seconds since 1970.
enum CalendarTime {
    static func seconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Double) -> Double? {
        guard (1970...9999).contains(year) else { return nil }
        return CivilCalendar.seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// "2026-11-21T10:00:00.000Z" (what gpsd sends); nil when it is anything else.
    static func iso8601(_ s: String) -> Double? {
        let u = Array(s.utf8)
        guard u.count >= 20, u.count <= 40, u.last == UInt8(ascii: "Z"), u[4] == 0x2D, u[7] == 0x2D, u[10] == 0x54, u[13] == 0x3A, u[16] == 0x3A else { return nil }
        func int(_ r: Range<Int>) -> Int? { Int(String(decoding: u[r], as: UTF8.self)) }
        guard let y = int(0..<4), let mo = int(5..<7), let d = int(8..<10), let h = int(11..<13), let mi = int(14..<16),
              let sec = Double(String(decoding: u[17..<(u.count - 1)], as: UTF8.self)), sec.isFinite,
              (1...12).contains(mo), (1...31).contains(d), (0..<24).contains(h), (0..<60).contains(mi), sec >= 0, sec < 61 else { return nil }
        return seconds(year: y, month: mo, day: d, hour: h, minute: mi, second: sec)
    }
}
