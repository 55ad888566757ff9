import FoundationEssentials
import MapCore
import MapNetwork
import MapTiles
import Platform

/// Which online routing service is asked, from `$XDG_CONFIG_HOME/meridian/routing.json` (else
/// `~/.config/meridian/routing.json`), as `geocoder.json` names the geocoder. Every key
/// optional:
///
///     {"url": "https://routing.openstreetmap.de", "enabled": true, "minimumInterval": 1,
///      "profiles": {"car": "routed-car", "bike": "routed-bike", "foot": "routed-foot"},
///      "credit": "© OpenStreetMap contributors",
///      "extracts": "https://download.geofabrik.de/index-v1.json", "askAboveMB": 500}
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
    /// A download of an extract larger than this (bytes) is asked about first
    /// (`"askAboveMB"`; 500 MB unless said).
    public var askAbove: Int64 = 500_000_000

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

    /// Never under 1 s for FOSSGIS's servers, whose terms say so.
    static func checkedInterval(_ seconds: Double, url: String) -> Double {
        ServiceSettingsFile.paced(seconds, politeServer: url.lowercased().contains("openstreetmap.de"))
    }

    public static func path(environment env: [String: String]) -> String {
        ServiceSettingsFile.path("routing.json", environment: env)
    }

    /// The configured service. A missing file means the default, silently; a broken one means
    /// the default too, with `problem` saying what is wrong in it (for the user, once).
    public static func load(environment env: [String: String]) -> (config: RoutingConfig, problem: String?) {
        ServiceSettingsFile.load("routing.json", environment: env, standard: standard, read: { try RoutingConfig(reading: $0) }) {
            // TRANSLATORS: %1$@ is the file routing.json, %2$@ what is wrong in it; FOSSGIS and OSRM are names.
            tr("%1$@: %2$@; routing online with FOSSGIS's OSRM instead", $0, $1)
        }
    }

    public typealias Invalid = ServiceSettingsFile.Invalid

    /// Reads a routing.json; throws `Invalid` naming the key that is wrong.
    public init(reading data: Data) throws {
        let file = try ServiceSettingsFile(reading: data, tooLarge: tr("larger than 64 KiB, not a routing setting"),
                                           // TRANSLATORS: {"url": …} is the form the file takes: keep it as it is.
                                           notAnObject: tr("not a JSON object ({\"url\": …})"))
        let object = file.object
        let url = try file.url(standard: Self.fossgisURL, isWebAddress: OnlineSource.isWebAddress)
        if let e = try file.string("engine"), e.lowercased() != "osrm" {
            // TRANSLATORS: "engine" is a key of routing.json, %@ its value; "osrm" is the one value known.
            throw Invalid(tr("\"engine\": \"%@\" is not one Meridian speaks (\"osrm\")", e.prefix(40)))
        }
        var profiles = Self.standardProfiles
        if let p = object["profiles"] {
            // TRANSLATORS: "profiles" is a key of routing.json; {"car": "routed-car", …} the form it takes: keep it as it is.
            guard let o = p.object else { throw Invalid(tr("\"profiles\" is not an object ({\"car\": \"routed-car\", …})")) }
            for (key, _) in o {
                guard let mode = TravelMode(rawValue: key) else {
                    // TRANSLATORS: "profiles" is a key of routing.json, %@ a key inside it; car, bike and foot are the keys allowed: keep them.
                    throw Invalid(tr("\"profiles\": \"%@\" is not car, bike or foot", key.prefix(40)))
                }
                guard let s = try file.string(key, in: o), !s.isEmpty, s.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
                    // TRANSLATORS: "profiles" is a key of routing.json, %@ a key inside it (car, bike, foot).
                    throw Invalid(tr("\"profiles\": \"%@\" is not a path segment", key))
                }
                profiles[mode] = s
            }
        }
        self.init(url: url, profiles: profiles, credit: try file.credit() ?? Self.standardCredit, minimumInterval: try file.minimumInterval() ?? 1,
                  enabled: try file.enabled())
        if let v = object["askAboveMB"] {
            guard let n = v.number, n.isFinite, n >= 0, n <= 1_000_000 else {
                // TRANSLATORS: "askAboveMB" is a key of routing.json: keep it.
                throw Invalid(tr("\"askAboveMB\" is not a number of megabytes"))
            }
            askAbove = Int64(saturating: n * 1_000_000)
        }
        if let e = try file.string("extracts") {
            guard OnlineSource.isWebAddress(e) else {
                // TRANSLATORS: "extracts" is a key of routing.json; index-v1.json is a file's name.
                throw Invalid(tr("\"extracts\": an http(s) address of an index of extracts (index-v1.json)"))
            }
            extracts = e
        }
    }
}
