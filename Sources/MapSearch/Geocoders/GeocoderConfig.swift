import FoundationEssentials
import MapTiles
import Platform

/// Which online geocoder the search asks, from `$XDG_CONFIG_HOME/meridian/geocoder.json`
/// (else `~/.config/meridian/geocoder.json`): Nominatim's usage policy wants the service
/// switchable without a software update. The file, every key optional:
///
///     {"url": "https://photon.example.org", "kind": "photon", "credit": "© OpenStreetMap contributors · Photon",
///      "minimumInterval": 0.5, "enabled": true}
///
/// Without a file: Nominatim's public instance, at most one request a second.
public struct GeocoderConfig: Equatable, Sendable {
    /// The two answer formats read (`GeocoderAnswer`).
    public enum Kind: String, Equatable, Sendable, CaseIterable {
        case nominatim, photon
    }

    /// The service's base address (no trailing slash); requests go to `/search` or `/api` under it.
    public var url: String
    public var kind: Kind
    /// What the app must show beside the service's results.
    public var credit: String
    /// The least time between two request starts, for the whole process (seconds).
    public var minimumInterval: Double
    /// False: online search is off, and no request is ever made.
    public var enabled: Bool

    public init(url: String, kind: Kind, credit: String? = nil, minimumInterval: Double? = nil, enabled: Bool = true) {
        self.url = url
        self.kind = kind
        self.credit = credit ?? Self.defaultCredit(kind)
        self.minimumInterval = Self.checkedInterval(minimumInterval ?? Self.defaultInterval(kind), url: url)
        self.enabled = enabled
    }

    public static let nominatimURL = "https://nominatim.openstreetmap.org"
    public static let photonURL = "https://photon.komoot.io"

    /// Nominatim's public instance, within its usage policy (1 request/s, credited).
    public static let standard = GeocoderConfig(url: nominatimURL, kind: .nominatim)

    static func defaultCredit(_ kind: Kind) -> String {
        kind == .nominatim ? "© OpenStreetMap contributors · Nominatim" : "© OpenStreetMap contributors · Photon"
    }

    static func defaultInterval(_ kind: Kind) -> Double { kind == .nominatim ? 1 : 0.5 }

    /// A sane interval: finite, at most an hour, and never under 1 s for OpenStreetMap's own
    /// Nominatim, whose policy says so whatever a file asks.
    static func checkedInterval(_ seconds: Double, url: String) -> Double {
        let s = seconds.isFinite ? min(max(seconds, 0), 3600) : 1
        return url.lowercased().hasPrefix(nominatimURL) ? max(s, 1) : s
    }

    /// The file's place: `$XDG_CONFIG_HOME/meridian/geocoder.json`, else under `~/.config`.
    public static func path(environment env: [String: String]) -> String {
        FileIO.userFolder("XDG_CONFIG_HOME", else: ".config", environment: env) + "/meridian/geocoder.json"
    }

    /// The configured geocoder. A missing file means the default, silently; a broken one means
    /// the default too, with `problem` saying what is wrong in it (for the user, once).
    public static func load(environment env: [String: String]) -> (config: GeocoderConfig, problem: String?) {
        let file = path(environment: env)
        guard FileIO.exists(file) else { return (standard, nil) }
        do {
            return (try GeocoderConfig(reading: try FileIO.read(file, limit: maxFileBytes)), nil)
        } catch {
            // TRANSLATORS: %1$@ is the file geocoder.json, %2$@ what is wrong in it.
            return (standard, tr("%1$@: %2$@; searching with Nominatim's public instance instead", file, error))
        }
    }

    static let maxFileBytes = 64 << 10

    public struct Invalid: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// Reads a geocoder.json; throws `Invalid` naming the key that is wrong.
    public init(reading data: Data) throws {
        guard data.count <= Self.maxFileBytes else { throw Invalid(description: tr("larger than 64 KiB, not a geocoder setting")) }
        let json: JSONValue
        do { json = try JSONValue.parse(data) } catch { throw Invalid(description: "\(error)") }
        // TRANSLATORS: {"url": …, "kind": …} is the form the file takes: keep it as it is.
        guard let object = json.object else { throw Invalid(description: tr("not a JSON object ({\"url\": …, \"kind\": …})")) }
        func string(_ key: String) throws -> String? {
            guard let v = object[key] else { return nil }
            // TRANSLATORS: %@ is a key of geocoder.json (url, kind, credit).
            guard let s = v.string else { throw Invalid(description: tr("\"%@\" is not a string", key)) }
            return s
        }
        var kind = Kind.nominatim
        if let k = try string("kind") {
            guard let known = Kind(rawValue: k.lowercased()) else {
                // TRANSLATORS: "kind" is a key of geocoder.json, %@ its value; "nominatim" and "photon" are its possible values.
                throw Invalid(description: tr("\"kind\": \"%@\" is neither \"nominatim\" nor \"photon\"", k.prefix(40)))
            }
            kind = known
        }
        var url = try string("url") ?? (kind == .nominatim ? Self.nominatimURL : Self.photonURL)
        while url.hasSuffix("/") { url.removeLast() }
        guard OnlineSource.isWebAddress(url), !url.contains("?"), !url.contains("#") else {
            // TRANSLATORS: "url" is a key of geocoder.json.
            throw Invalid(description: tr("\"url\": an http(s) address of the service, without ? or #"))
        }
        let credit = try string("credit").map { String($0.trimmed.prefix(200)) }
        var interval: Double?
        if let v = object["minimumInterval"] {
            // TRANSLATORS: "minimumInterval" is a key of geocoder.json.
            guard let n = v.number, n.isFinite, n >= 0 else { throw Invalid(description: tr("\"minimumInterval\" is not a number of seconds")) }
            interval = n
        }
        var enabled = true
        if let v = object["enabled"] {
            // TRANSLATORS: "enabled" is a key of geocoder.json; true and false are its values: keep them as they are.
            guard case let .bool(b) = v else { throw Invalid(description: tr("\"enabled\" is not true or false")) }
            enabled = b
        }
        self.init(url: url, kind: kind, credit: credit.flatMap { $0.isEmpty ? nil : $0 }, minimumInterval: interval, enabled: enabled)
    }

    /// The language results are asked in (Accept-Language), from the locale's variables as
    /// the C library reads them: "fi" for fi_FI.UTF-8; nil for C/POSIX or none.
    public static func language(environment env: [String: String]) -> String? {
        guard let value = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap({ env[$0] }).first(where: { !$0.isEmpty }) else { return nil }
        let code = value.prefix { $0 != "_" && $0 != "." && $0 != "@" && $0 != "-" }
        guard (2...3).contains(code.count), code.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) }) else { return nil }
        return String(code)
    }
}
