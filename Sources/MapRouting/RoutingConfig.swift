import FoundationEssentials
import MapCore
import MapTiles
import Platform

/// Which online routing service is asked, from `$XDG_CONFIG_HOME/meridian/routing.json` (else
/// `~/.config/meridian/routing.json`), as `geocoder.json` names the geocoder. Every key
/// optional:
///
///     {"url": "https://routing.openstreetmap.de", "enabled": true, "minimumInterval": 1,
///      "profiles": {"car": "routed-car", "bike": "routed-bike", "foot": "routed-foot"},
///      "credit": "© OpenStreetMap contributors",
///      "extracts": "https://download.geofabrik.de/index-v1.json"}
///
/// Without a file: FOSSGIS's OSRM instance, within its terms (at most one request a second,
/// credited, the app's User-Agent). `"enabled": false` turns online routing off.
public struct RoutingConfig: Equatable, Sendable {
    /// The service's base address; a route is asked at `URL/PROFILE/route/v1/driving/…`.
    public var url: String
    /// The path segment for each mode (OSRM runs one server per profile).
    public var profiles: [TravelMode: String]
    public var credit: String
    /// The least time between two request starts, for the whole process (seconds).
    public var minimumInterval: Double
    public var enabled: Bool
    /// The index of OpenStreetMap extracts a saved area's routing data is cut from
    /// (Geofabrik's, or a mirror's with the same shape).
    public var extracts = GeofabrikIndex.standardURL

    public static let fossgisURL = "https://routing.openstreetmap.de"
    public static let standardProfiles: [TravelMode: String] = [.car: "routed-car", .bike: "routed-bike", .foot: "routed-foot"]
    public static let standardCredit = "© OpenStreetMap contributors"

    public init(url: String = fossgisURL, profiles: [TravelMode: String] = standardProfiles, credit: String = standardCredit,
                minimumInterval: Double = 1, enabled: Bool = true) {
        self.url = url
        self.profiles = profiles
        self.credit = credit
        self.minimumInterval = Self.checkedInterval(minimumInterval, url: url)
        self.enabled = enabled
    }

    public static let standard = RoutingConfig()

    /// A sane interval: finite, at most an hour, and never under 1 s for FOSSGIS's servers,
    /// whose terms say so whatever a file asks.
    static func checkedInterval(_ seconds: Double, url: String) -> Double {
        let s = seconds.isFinite ? min(max(seconds, 0), 3600) : 1
        return url.lowercased().contains("openstreetmap.de") ? max(s, 1) : s
    }

    public static func path(environment env: [String: String]) -> String {
        FileIO.userFolder("XDG_CONFIG_HOME", else: ".config", environment: env) + "/meridian/routing.json"
    }

    /// The configured service. A missing file means the default, silently; a broken one means
    /// the default too, with `problem` saying what is wrong in it (for the user, once).
    public static func load(environment env: [String: String]) -> (config: RoutingConfig, problem: String?) {
        let file = path(environment: env)
        guard FileIO.exists(file) else { return (standard, nil) }
        do {
            return (try RoutingConfig(reading: try FileIO.read(file, limit: 64 << 10)), nil)
        } catch {
            return (standard, "\(file): \(error); routing online with FOSSGIS's OSRM instead")
        }
    }

    public struct Invalid: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// Reads a routing.json; throws `Invalid` naming the key that is wrong.
    public init(reading data: Data) throws {
        guard data.count <= 64 << 10 else { throw Invalid(description: "larger than 64 KiB, not a routing setting") }
        let json: JSONValue
        do { json = try JSONValue.parse(data) } catch { throw Invalid(description: "\(error)") }
        guard let object = json.object else { throw Invalid(description: "not a JSON object ({\"url\": …})") }
        func string(_ key: String, in o: [String: JSONValue]) throws -> String? {
            guard let v = o[key] else { return nil }
            guard let s = v.string else { throw Invalid(description: "\"\(key)\" is not a string") }
            return s
        }
        var url = try string("url", in: object) ?? Self.fossgisURL
        while url.hasSuffix("/") { url.removeLast() }
        guard OnlineSource.isWebAddress(url), !url.contains("?"), !url.contains("#") else {
            throw Invalid(description: "\"url\": an http(s) address of the service, without ? or #")
        }
        if let e = try string("engine", in: object), e.lowercased() != "osrm" {
            throw Invalid(description: "\"engine\": \"\(e.prefix(40))\" is not one Meridian speaks (\"osrm\")")
        }
        var profiles = Self.standardProfiles
        if let p = object["profiles"] {
            guard let o = p.object else { throw Invalid(description: "\"profiles\" is not an object ({\"car\": \"routed-car\", …})") }
            for (key, _) in o {
                guard let mode = TravelMode(rawValue: key) else { throw Invalid(description: "\"profiles\": \"\(key.prefix(40))\" is not car, bike or foot") }
                guard let s = try string(key, in: o), !s.isEmpty, s.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
                    throw Invalid(description: "\"profiles\": \"\(key)\" is not a path segment")
                }
                profiles[mode] = s
            }
        }
        let credit = try string("credit", in: object).map { String($0.trimmed.prefix(200)) }.flatMap { $0.isEmpty ? nil : $0 }
        var interval = 1.0
        if let v = object["minimumInterval"] {
            guard let n = v.number, n.isFinite, n >= 0 else { throw Invalid(description: "\"minimumInterval\" is not a number of seconds") }
            interval = n
        }
        var enabled = true
        if let v = object["enabled"] {
            guard case let .bool(b) = v else { throw Invalid(description: "\"enabled\" is not true or false") }
            enabled = b
        }
        self.init(url: url, profiles: profiles, credit: credit ?? Self.standardCredit, minimumInterval: interval, enabled: enabled)
        if let e = try string("extracts", in: object) {
            guard OnlineSource.isWebAddress(e) else { throw Invalid(description: "\"extracts\": an http(s) address of an index of extracts (index-v1.json)") }
            extracts = e
        }
    }
}
