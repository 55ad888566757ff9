import FoundationEssentials
import Platform

/// How long a fetched tile may be shown without asking the server again, from its response
/// headers: the parts of HTTP caching (RFC 9111) a private tile cache needs. `no-store` keeps
/// it off disk; `max-age` (less `Age`) wins over `Expires` (measured against the server's own
/// `Date`, so a wrong clock here does not matter); with neither, a week, as OpenStreetMap's
/// tile policy asks. A stale tile is still shown, and revalidated with its validators.
public struct HTTPFreshness: Equatable, Sendable {
    /// Whether the response may be kept at all.
    public var storable: Bool
    /// Seconds since 1970 after which the tile is stale.
    public var expires: Double
    public var etag: String?
    public var lastModified: String?

    public static let defaultLifetime = 7 * 86_400.0
    /// Lifetimes are capped: a server's "forever" is a year here.
    public static let maxLifetime = 365 * 86_400.0

    public init(storable: Bool, expires: Double, etag: String? = nil, lastModified: String? = nil) {
        self.storable = storable
        self.expires = expires
        self.etag = etag
        self.lastModified = lastModified
    }

    /// `headers`: name and value pairs as received (names in any case); `now`: when the
    /// response arrived, in seconds since 1970.
    public init(headers: [(String, String)], receivedAt now: Double) {
        func header(_ name: String) -> String? {
            headers.last { $0.0.lowercased() == name }.map { $0.1.trimmed }
        }
        var lifetime: Double?
        var storable = true
        if let cc = header("cache-control") {
            for directive in cc.split(separator: ",") {
                let d = directive.trimmed.lowercased()
                if d == "no-store" { storable = false }
                if d == "no-cache" { lifetime = 0 }
                if d.hasPrefix("max-age="), lifetime == nil {
                    let digits = d.dropFirst(8).filter { $0 != "\"" }
                    // Malformed is stale (RFC 9111 §5.2.2.1); huge is capped.
                    lifetime = digits.isEmpty || !digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) ? 0
                        : min(Double(digits.prefix(12)) ?? 0, Self.maxLifetime)
                }
            }
        }
        if let max = lifetime, let age = header("age").flatMap({ Double($0.prefix(12)) }), age >= 0 {
            lifetime = Swift.max(0, max - age)
        }
        if lifetime == nil, let expires = header("expires") {
            // An invalid date means already expired (RFC 9111 §5.3).
            if let e = Self.parseDate(expires) {
                let date = header("date").flatMap(Self.parseDate) ?? now
                lifetime = min(Swift.max(0, e - date), Self.maxLifetime)
            } else {
                lifetime = 0
            }
        }
        self.storable = storable
        self.expires = now + (lifetime ?? Self.defaultLifetime)
        etag = header("etag").flatMap { $0.isEmpty || $0.utf8.count > 256 ? nil : $0 }
        lastModified = header("last-modified").flatMap { Self.parseDate($0) == nil ? nil : $0 }
    }

    public func isFresh(at now: Double) -> Bool { now < expires }

    /// Headers asking the server whether a stale tile is still good (a 304 says it is).
    public var revalidationHeaders: [String] {
        var out: [String] = []
        if let etag { out.append("If-None-Match: \(etag)") }
        if let lastModified { out.append("If-Modified-Since: \(lastModified)") }
        return out
    }

    /// After a 304: the new lifetime, keeping validators the answer did not replace.
    public func refreshed(by answer: HTTPFreshness) -> HTTPFreshness {
        HTTPFreshness(storable: answer.storable, expires: answer.expires, etag: answer.etag ?? etag,
                      lastModified: answer.lastModified ?? lastModified)
    }
}

extension HTTPFreshness {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Seconds to wait from a Retry-After value, which is seconds or an HTTP date (RFC 9110
    /// §10.2.3); nil when it is neither. `now`: seconds since 1970.
    public static func retryAfter(_ value: String, now: Double) -> Double? {
        let v = value.trimmed
        if !v.isEmpty, v.utf8.count <= 12, v.utf8.allSatisfy({ (0x30...0x39).contains($0) }) { return Double(v) }
        return HTTPFreshness.parseDate(v).map { max(0, $0 - now) }
    }

    /// An HTTP date in any of the three forms recipients must accept (RFC 9110 §5.6.7):
    /// "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT" and
    /// "Sun Nov  6 08:49:37 1994". Seconds since 1970, or nil.
    public static func parseDate(_ text: String) -> Double? {
        guard text.utf8.count <= 64 else { return nil }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        var day: Int?, month: Int?, year: Int?, clock: [Int]?
        func time(_ s: String) -> [Int]? {
            let p = s.split(separator: ":", omittingEmptySubsequences: false)
            guard p.count == 3, p.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }) else { return nil }
            let v = p.compactMap { Int($0) }
            return v.count == 3 && v[0] < 24 && v[1] < 60 && v[2] <= 60 ? v : nil
        }
        func monthIndex(_ s: String) -> Int? { months.firstIndex(of: s.lowercased()).map { $0 + 1 } }
        if words.count == 6, words[5] == "GMT" {
            // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT (the comma split off).
            day = Int(words[1]); month = monthIndex(words[2]); year = Int(words[3]); clock = time(words[4])
        } else if words.count == 4, words[3] == "GMT" {
            // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT; two-digit years are 1970–2069.
            let d = words[1].split(separator: "-").map(String.init)
            guard d.count == 3 else { return nil }
            day = Int(d[0]); month = monthIndex(d[1]); clock = time(words[2])
            year = Int(d[2]).map { d[2].count == 2 ? ($0 < 70 ? 2000 + $0 : 1900 + $0) : $0 }
        } else if words.count == 5 {
            // asctime: Sun Nov  6 08:49:37 1994
            month = monthIndex(words[1]); day = Int(words[2]); clock = time(words[3]); year = Int(words[4])
        }
        guard let d = day, let m = month, let y = year, let c = clock, (1...31).contains(d), (1970...9999).contains(y) else { return nil }
        return Double(CivilCalendar.days(year: y, month: m, day: d)) * 86_400 + Double(c[0] * 3600 + c[1] * 60 + c[2])
    }
}
