import FoundationEssentials
import MapGeometry
import Platform

/// A place typed or pasted as coordinates: decimal degrees (`48.8566, 2.3522`,
/// `48.8566 N 2.3522 E`), degrees–minutes–seconds (`48°51′24″N 2°21′8″E`, or with ASCII
/// `d ' "`), `geo:` URIs (RFC 5870) and OpenStreetMap links (`#map=Z/LAT/LON`, `mlat=`/`mlon=`).
public enum CoordinateParser {
    public struct Place: Equatable, Sendable {
        public var coordinate: Coordinate
        /// The zoom the text asked for (`geo:…?z=`, `#map=Z/…`), if any.
        public var zoom: Double?
        /// Uncertainty in metres (`geo:…;u=`), if given.
        public var uncertainty: Double?
    }

    /// Why text that looks like coordinates is not a place.
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
        init(_ d: String) { description = d }
    }

    /// The place `text` names, nil when it does not look like coordinates at all (a place
    /// name, then), or the reason it is wrong.
    public static func parse(_ text: String) -> Result<Place, Problem>? {
        let s = String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        guard !s.isEmpty, s.utf8.count <= 512 else { return nil }
        let lower = s.lowercased()
        if lower.hasPrefix("geo:") { return geoURI(String(s.dropFirst(4))) }
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("www.") || lower.hasPrefix("openstreetmap.org") {
            return osmURL(s)
        }
        // Coordinates start with a digit, a sign, a decimal point or a hemisphere letter
        // followed by a digit ("N 48.85 E 2.35").
        let u = Array(s.unicodeScalars)
        let first = u[0]
        let startsNumeric = first.properties.numericType != nil || "+-−.".unicodeScalars.contains(first)
        let startsHemisphere = "NSEWnsew".unicodeScalars.contains(first) && u.count > 1
            && u.dropFirst().first { $0 != " " }.map { $0.properties.numericType != nil } == true
        guard startsNumeric || startsHemisphere else { return nil }
        return pair(s)
    }

    // MARK: - Two coordinates

    /// A number with its unit or hemisphere: what a coordinate is made of.
    enum Token: Equatable {
        case number(Double, text: String)
        case degree, minute, second
        case hemisphere(Character)
        case separator
    }

    static func tokens(_ s: String) -> [Token]? {
        var out: [Token] = []
        var number = ""
        func flush() -> Bool {
            guard !number.isEmpty else { return true }
            defer { number = "" }
            guard let v = Double(number), v.isFinite else { return false }
            out.append(.number(v, text: number))
            return true
        }
        for ch in s {
            switch ch {
            case "0"..."9", ".": number.append(ch)
            case "-", "−", "+":
                guard flush() else { return nil }
                if ch != "+" { number = "-" }
            case "°", "º", "d", "D": guard flush() else { return nil }; out.append(.degree)
            case "′", "'", "’", "m", "M": guard flush() else { return nil }; out.append(.minute)
            case "″", "\"", "”": guard flush() else { return nil }; out.append(.second)
            case "s":
                // Seconds after minutes ("24m 12s"), else south.
                guard flush() else { return nil }
                let afterMinutes = out.last == .minute || (out.count >= 2 && out[out.count - 2] == .minute)
                out.append(afterMinutes ? .second : .hemisphere("S"))
            case "N", "n", "S", "E", "e", "W", "w": guard flush() else { return nil }; out.append(.hemisphere(Character(ch.uppercased())))
            case ",", ";", "/": guard flush() else { return nil }; out.append(.separator)
            case " ", "\t": guard flush() else { return nil }
            default: return nil
            }
        }
        guard flush() else { return nil }
        return out
    }

    /// "48.85, 2.35", "48°51′24″N 2°21′8″E", "N 48.85 E 2.35", "48 51 24 N 2 21 8 E"...
    static func pair(_ s: String) -> Result<Place, Problem> {
        // Comma as the decimal mark ("48,85 2,35") is not read: a comma separates the two.
        // TRANSLATORS: the examples are typed as they are (N and E are the hemisphere letters the search reads).
        guard let tokens = tokens(s) else { return .failure(Problem(tr("Not coordinates: use 48.8566, 2.3522 or 48°51′24″N 2°21′8″E"))) }
        var parts: [[Token]] = [[]]
        var hemispheres = 0
        for t in tokens {
            switch t {
            case .separator:
                if !parts[parts.count - 1].isEmpty { parts.append([]) }
            case .hemisphere:
                hemispheres += 1
                // A letter ends the first coordinate when it follows its numbers, and begins
                // the second when the first already has one ("N 48 E 2").
                let current = parts[parts.count - 1]
                let hasNumber = current.contains { if case .number = $0 { return true } else { return false } }
                let hasLetter = current.contains { if case .hemisphere = $0 { return true } else { return false } }
                if hasLetter && hasNumber { parts.append([t]) } else {
                    parts[parts.count - 1].append(t)
                    if hasNumber && parts.count == 1 { parts.append([]) }
                }
            default:
                parts[parts.count - 1].append(t)
            }
        }
        parts.removeAll { $0.isEmpty }
        // Without separators or letters, two bare numbers ("48.85 2.35") are the two.
        if parts.count == 1, hemispheres == 0 {
            let numbers = parts[0].filter { if case .number = $0 { return true } else { return false } }
            if numbers.count == 2, parts[0].count == 2 { parts = [[numbers[0]], [numbers[1]]] }
            else if parts[0].count > 2 {
                // "48 51 24 2 21 8" is ambiguous: ask for a separator.
                return .failure(Problem(tr("Separate latitude and longitude with a comma")))
            }
        }
        guard parts.count == 2 else { return .failure(Problem(tr("Give two coordinates: latitude, then longitude"))) }
        var first: (value: Double, axis: Character?), second: (value: Double, axis: Character?)
        switch (angle(parts[0]), angle(parts[1])) {
        case let (.success(a), .success(b)): first = a; second = b
        case let (.failure(p), _), let (_, .failure(p)): return .failure(p)
        }
        // Letters may put longitude first ("2.35 E 48.85 N").
        if first.axis == "E" || first.axis == "W" || second.axis == "N" || second.axis == "S" { swap(&first, &second) }
        if let a = first.axis, a == "E" || a == "W" { return .failure(Problem(tr("Two longitudes: one must be N or S"))) }
        if let a = second.axis, a == "N" || a == "S" { return .failure(Problem(tr("Two latitudes: one must be E or W"))) }
        return place(latitude: first.value, longitude: second.value)
    }

    /// One coordinate from its tokens: degrees, minutes and seconds (each optional after the
    /// degrees), signed by a minus or a hemisphere letter.
    static func angle(_ tokens: [Token]) -> Result<(value: Double, axis: Character?), Problem> {
        var values: [Double] = []
        var units: [Int] = []
        var texts: [String] = []
        var axis: Character?
        var pendingNumber: (Double, String)?
        func take(_ unit: Int) -> Bool {
            guard let (v, t) = pendingNumber else { return false }
            values.append(v); units.append(unit); texts.append(t)
            pendingNumber = nil
            return true
        }
        for t in tokens {
            switch t {
            case let .number(v, text):
                if pendingNumber != nil { _ = take(units.last.map { $0 + 1 } ?? 0) }
                pendingNumber = (v, text)
            case .degree: guard take(0) else { return .failure(Problem(tr("A ° with no number before it"))) }
            case .minute: guard take(1) else { return .failure(Problem(tr("A ′ with no number before it"))) }
            case .second: guard take(2) else { return .failure(Problem(tr("A ″ with no number before it"))) }
            case let .hemisphere(h):
                guard axis == nil else { return .failure(Problem(tr("Two hemisphere letters in one coordinate"))) }
                axis = h
            case .separator: break
            }
        }
        if pendingNumber != nil { _ = take(units.last.map { $0 + 1 } ?? 0) }
        guard !values.isEmpty else { return .failure(Problem(tr("A coordinate has no number"))) }
        guard units == Array(0..<units.count), units.count <= 3 else { return .failure(Problem(tr("Write degrees, then minutes, then seconds"))) }
        let negative = texts[0].hasPrefix("-")
        if values.count > 1 {
            guard values.dropFirst().allSatisfy({ $0 >= 0 }), !texts.dropFirst().contains(where: { $0.hasPrefix("-") }) else {
                return .failure(Problem(tr("Only the degrees may carry a sign")))
            }
            guard values[0] == values[0].rounded() else { return .failure(Problem(tr("Degrees before minutes must be whole"))) }
            if values.count == 3, values[1] != values[1].rounded() { return .failure(Problem(tr("Minutes before seconds must be whole"))) }
            guard values[1] < 60 else { return .failure(Problem(tr("Minutes must be under 60"))) }
            if values.count == 3 { guard values[2] < 60 else { return .failure(Problem(tr("Seconds must be under 60"))) } }
        }
        var v = abs(values[0])
        if values.count > 1 { v += values[1] / 60 }
        if values.count > 2 { v += values[2] / 3600 }
        if negative { v = -v }
        if let a = axis {
            // TRANSLATORS: %@ is a hemisphere letter (N, S, E or W) as typed.
            if negative { return .failure(Problem(tr("A minus sign and %@ together", a))) }
            if a == "S" || a == "W" { v = -v }
        }
        return .success((v, axis))
    }

    static func place(latitude: Double, longitude: Double, zoom: Double? = nil, uncertainty: Double? = nil) -> Result<Place, Problem> {
        guard latitude.isFinite, abs(latitude) <= 90 else {
            // TRANSLATORS: %@ is the latitude as typed.
            return .failure(Problem(tr("Latitude %@ is beyond ±90°", String(cFormat: "%g", latitude))))
        }
        guard longitude.isFinite, abs(longitude) <= 180 else {
            // TRANSLATORS: %@ is the longitude as typed.
            return .failure(Problem(tr("Longitude %@ is beyond ±180°", String(cFormat: "%g", longitude))))
        }
        return .success(Place(coordinate: Coordinate(latitude: latitude, longitude: longitude), zoom: zoom, uncertainty: uncertainty))
    }

    // MARK: - geo: and links

    /// RFC 5870: `geo:LAT,LON[,ALT][;crs=wgs84][;u=U][?z=Z]` (z is the Android/OSM extension).
    static func geoURI(_ body: String) -> Result<Place, Problem> {
        let (main, query) = split(body, at: "?")
        let params = main.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        let numbers = params[0].split(separator: ",", omittingEmptySubsequences: false)
        guard numbers.count == 2 || numbers.count == 3,
              let lat = Double(numbers[0]), let lon = Double(numbers[1]),
              numbers.count == 2 || Double(numbers[2]) != nil else {
            return .failure(Problem(tr("A geo: link needs geo:LATITUDE,LONGITUDE")))
        }
        var uncertainty: Double?
        for p in params.dropFirst() {
            let (key, value) = split(p, at: "=")
            switch key.lowercased() {
            case "crs": guard value?.lowercased() == "wgs84" else { return .failure(Problem(tr("Only WGS 84 geo: links can be shown"))) }
            case "u":
                guard let u = value.flatMap(Double.init), u.isFinite, u >= 0 else { return .failure(Problem(tr("The geo: link's u= is not a distance"))) }
                uncertainty = u
            default: break
            }
        }
        var zoom: Double?
        for item in (query ?? "").split(separator: "&") {
            let (key, value) = split(String(item), at: "=")
            if key == "z", let z = value.flatMap(Double.init), z.isFinite { zoom = min(max(z, 0), 19) }
        }
        return place(latitude: lat, longitude: lon, zoom: zoom, uncertainty: uncertainty)
    }

    /// An OpenStreetMap link: `…#map=Z/LAT/LON` or `?mlat=LAT&mlon=LON`.
    static func osmURL(_ s: String) -> Result<Place, Problem>? {
        guard after(s, "openstreetmap.org") != nil || after(s, "osm.org") != nil else { return nil }
        if let r = after(s, "map=") {
            let parts = s[r...].prefix { $0 != "&" && $0 != "#" }.split(separator: "/")
            guard parts.count >= 3, let z = Double(parts[0]), let lat = Double(parts[1]), let lon = Double(parts[2]), z.isFinite else {
                return .failure(Problem(tr("The link's #map= needs ZOOM/LATITUDE/LONGITUDE")))
            }
            return place(latitude: lat, longitude: lon, zoom: min(max(z, 0), 19))
        }
        if let a = after(s, "mlat="), let b = after(s, "mlon=") {
            let lat = Double(s[a...].prefix { $0 != "&" && $0 != "#" })
            let lon = Double(s[b...].prefix { $0 != "&" && $0 != "#" })
            guard let lat, let lon else { return .failure(Problem(tr("The link's mlat= and mlon= are not numbers"))) }
            return place(latitude: lat, longitude: lon)
        }
        return .failure(Problem(tr("This OpenStreetMap link names no place (no #map=)")))
    }

    /// Where the first `needle` in `s` ends.
    private static func after(_ s: String, _ needle: String) -> String.Index? {
        let n = Array(needle.utf8)
        var i = s.utf8.startIndex
        while i != s.utf8.endIndex {
            if s.utf8[i...].starts(with: n) { return s.utf8.index(i, offsetBy: n.count) }
            i = s.utf8.index(after: i)
        }
        return nil
    }

    private static func split(_ s: String, at mark: Character) -> (String, String?) {
        guard let i = s.firstIndex(of: mark) else { return (s, nil) }
        return (String(s[..<i]), String(s[s.index(after: i)...]))
    }
}
