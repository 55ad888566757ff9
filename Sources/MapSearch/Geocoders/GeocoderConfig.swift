import FoundationEssentials
import MapNetwork
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

    /// Never under 1 s for OpenStreetMap's own Nominatim, whose policy says so.
    static func checkedInterval(_ seconds: Double, url: String) -> Double {
        ServiceSettingsFile.paced(seconds, politeServer: url.lowercased().hasPrefix(nominatimURL))
    }

    /// The file's place: `$XDG_CONFIG_HOME/meridian/geocoder.json`, else under `~/.config`.
    public static func path(environment env: [String: String]) -> String {
        ServiceSettingsFile.path("geocoder.json", environment: env)
    }

    /// The configured geocoder. A missing file means the default, silently; a broken one means
    /// the default too, with `problem` saying what is wrong in it (for the user, once).
    public static func load(environment env: [String: String]) -> (config: GeocoderConfig, problem: String?) {
        ServiceSettingsFile.load("geocoder.json", environment: env, standard: standard, read: { try GeocoderConfig(reading: $0) }) {
            // TRANSLATORS: %1$@ is the file geocoder.json, %2$@ what is wrong in it.
            tr("%1$@: %2$@; searching with Nominatim's public instance instead", $0, $1)
        }
    }

    public typealias Invalid = ServiceSettingsFile.Invalid

    /// Reads a geocoder.json; throws `Invalid` naming the key that is wrong.
    public init(reading data: Data) throws {
        let file = try ServiceSettingsFile(reading: data, tooLarge: tr("larger than 64 KiB, not a geocoder setting"),
                                           // TRANSLATORS: {"url": …, "kind": …} is the form the file takes: keep it as it is.
                                           notAnObject: tr("not a JSON object ({\"url\": …, \"kind\": …})"))
        var kind = Kind.nominatim
        if let k = try file.string("kind") {
            guard let known = Kind(rawValue: k.lowercased()) else {
                // TRANSLATORS: "kind" is a key of geocoder.json, %@ its value; "nominatim" and "photon" are its possible values.
                throw Invalid(tr("\"kind\": \"%@\" is neither \"nominatim\" nor \"photon\"", k.prefix(40)))
            }
            kind = known
        }
        let url = try file.url(standard: kind == .nominatim ? Self.nominatimURL : Self.photonURL, isWebAddress: OnlineSource.isWebAddress)
        self.init(url: url, kind: kind, credit: try file.credit(), minimumInterval: try file.minimumInterval(), enabled: try file.enabled())
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
