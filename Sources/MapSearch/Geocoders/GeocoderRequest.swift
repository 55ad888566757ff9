import FoundationEssentials
import MapGeometry
import Platform

/// One search as it is asked: the address sent, and the key its answer is cached under. The
/// same key means the same request: the query folded as the services fold it (case and runs
/// of spaces do not matter), and the place it is biased towards rounded to a tenth of a degree
/// (about 10 km), so that panning a little does not make a search new.
struct GeocoderRequest: Equatable, Sendable {
    let url: String
    let key: String

    /// Results asked for (Nominatim's public instance gives at most 40; the list shows 10).
    static let limit = 10
    /// Characters of a query sent: nobody types more, and the address stays short.
    static let maxQueryLength = 256
    /// Half the side of the box Nominatim is asked to prefer results in, in degrees.
    static let viewboxRadius = 0.5

    /// `language`: the Accept-Language sent, which changes the answer's names.
    init(query: String, near: Coordinate?, config: GeocoderConfig, language: String?) {
        let q = Self.tidy(query)
        let bias = near.flatMap(Self.rounded)
        var url = config.url
        switch config.kind {
        case .nominatim:
            url += "/search?q=" + Self.percentEncoded(q) + "&format=jsonv2&addressdetails=1&limit=\(Self.limit)"
            if let bias {
                let r = Self.viewboxRadius
                let west = max(bias.longitude - r, -180), east = min(bias.longitude + r, 180)
                let north = min(bias.latitude + r, 90), south = max(bias.latitude - r, -90)
                // Preferred, not required: bounded=0 still finds a place on the other side of the world.
                url += "&viewbox=\(Self.decimal(west)),\(Self.decimal(north)),\(Self.decimal(east)),\(Self.decimal(south))&bounded=0"
            }
        case .photon:
            url += "/api?q=" + Self.percentEncoded(q) + "&limit=\(Self.limit)"
            if let bias { url += "&lat=\(Self.decimal(bias.latitude))&lon=\(Self.decimal(bias.longitude))" }
        }
        self.url = url
        let place = bias.map { "\(Self.decimal($0.latitude)),\(Self.decimal($0.longitude))" } ?? "-"
        key = [config.url, config.kind.rawValue, Self.folded(q), place, language ?? "-"].joined(separator: "\n")
    }

    /// What is at `c`: Nominatim's /reverse (one place, the nearest address at zoom 18),
    /// Photon's /reverse. The point is sent to 1e-5° (a metre) and cached to 1e-4° (ten).
    init(reverse c: Coordinate, config: GeocoderConfig, language: String?) {
        func fixed(_ d: Double, _ scale: UInt) -> String {
            let n = Int(saturating: (d * Double(scale)).rounded())
            let whole = n.magnitude / scale, part = String(n.magnitude % scale)
            let pad = String(repeating: "0", count: max(0, String(scale).count - 1 - part.count))
            return (n < 0 ? "-" : "") + "\(whole).\(pad)\(part)"
        }
        let lat = fixed(c.latitude, 100_000), lon = fixed(c.longitude, 100_000)
        switch config.kind {
        case .nominatim: url = config.url + "/reverse?lat=\(lat)&lon=\(lon)&format=jsonv2&addressdetails=1&zoom=18"
        case .photon: url = config.url + "/reverse?lat=\(lat)&lon=\(lon)&limit=1"
        }
        key = [config.url, config.kind.rawValue, "reverse", fixed(c.latitude, 10_000), fixed(c.longitude, 10_000), language ?? "-"].joined(separator: "\n")
    }

    /// The query as sent: runs of spaces (and line breaks) as one space, trimmed, bounded.
    static func tidy(_ query: String) -> String {
        let words = query.prefix(maxQueryLength * 4).split(whereSeparator: { $0.isWhitespace || $0.isNewline })
        return String(words.joined(separator: " ").prefix(maxQueryLength))
    }

    /// The query as the cache knows it: lower case, spaces tidied.
    static func folded(_ query: String) -> String { tidy(query).lowercased() }

    /// `c` to the nearest tenth of a degree; nil for a coordinate that is not a place.
    static func rounded(_ c: Coordinate) -> Coordinate? {
        guard c.isValid else { return nil }
        return Coordinate(latitude: (c.latitude * 10).rounded() / 10, longitude: (c.longitude * 10).rounded() / 10)
    }

    /// A rounded coordinate as the address writes it ("60.2", "-0.1"), whatever the C locale.
    static func decimal(_ d: Double) -> String {
        let tenths = Int(saturating: (d * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }

    /// UTF-8 percent-encoding of a query value (RFC 3986): only unreserved characters stay.
    static func percentEncoded(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(b >> 4)]))
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(b & 15)]))
            }
        }
        return out
    }
}
