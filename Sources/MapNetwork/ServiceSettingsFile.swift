import FoundationEssentials
import Platform

/// What geocoder.json and routing.json have in common: a person's file under
/// `$XDG_CONFIG_HOME/meridian` naming an online service, read key by key with the key named in
/// every error, its absence meaning the standard service and its damage meaning the standard
/// service plus one sentence; and a pace no file can make ruder than the service's policy.
public struct ServiceSettingsFile {
    public struct Invalid: Error, CustomStringConvertible, Sendable {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// Larger than this, a file is not settings.
    public static let maxBytes = 64 << 10

    /// The file's keys.
    public let object: [String: JSONValue]

    /// `tooLarge` and `notAnObject`: what the service's own file says when it is not one.
    public init(reading data: Data, tooLarge: @autoclosure () -> String, notAnObject: @autoclosure () -> String) throws(Invalid) {
        guard data.count <= Self.maxBytes else { throw Invalid(tooLarge()) }
        let json: JSONValue
        do { json = try JSONValue.parse(data) } catch { throw Invalid("\(error)") }
        guard let object = json.object else { throw Invalid(notAnObject()) }
        self.object = object
    }

    /// The string at `key` of `object` (the file's own keys by default); nil when absent.
    public func string(_ key: String, in object: [String: JSONValue]? = nil) throws(Invalid) -> String? {
        guard let v = (object ?? self.object)[key] else { return nil }
        // TRANSLATORS: %@ is a key of a settings file (geocoder.json, routing.json): url, kind, credit, engine…
        guard let s = v.string else { throw Invalid(tr("\"%@\" is not a string", key)) }
        return s
    }

    /// "url": the service's base address without a trailing slash (`standard` when absent);
    /// `isWebAddress` says what an address may be.
    public func url(standard: String, isWebAddress: (String) -> Bool) throws(Invalid) -> String {
        var url = try string("url") ?? standard
        while url.hasSuffix("/") { url.removeLast() }
        guard isWebAddress(url), !url.contains("?"), !url.contains("#") else {
            // TRANSLATORS: "url" is a key of a settings file (geocoder.json, routing.json).
            throw Invalid(tr("\"url\": an http(s) address of the service, without ? or #"))
        }
        return url
    }

    /// "credit": what to show beside the service's answers (nil when absent or blank).
    public func credit() throws(Invalid) -> String? {
        try string("credit").map { String($0.trimmed.prefix(200)) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// "minimumInterval": seconds between two requests (nil when absent).
    public func minimumInterval() throws(Invalid) -> Double? {
        guard let v = object["minimumInterval"] else { return nil }
        // TRANSLATORS: "minimumInterval" is a key of a settings file (geocoder.json, routing.json).
        guard let n = v.number, n.isFinite, n >= 0 else { throw Invalid(tr("\"minimumInterval\" is not a number of seconds")) }
        return n
    }

    /// "enabled" (true when absent).
    public func enabled() throws(Invalid) -> Bool {
        guard let v = object["enabled"] else { return true }
        // TRANSLATORS: "enabled" is a key of a settings file; true and false are its values: keep them as they are.
        guard case let .bool(b) = v else { throw Invalid(tr("\"enabled\" is not true or false")) }
        return b
    }

    /// The file named `name`: under `$XDG_CONFIG_HOME/meridian`, else `~/.config/meridian`.
    public static func path(_ name: String, environment env: [String: String]) -> String {
        FileIO.userFolder("XDG_CONFIG_HOME", else: ".config", environment: env) + "/meridian/" + name
    }

    /// The settings in the file `name`: `standard` without one, silently; `standard` too when it
    /// cannot be read, with `problem(path, error)` saying so (for the person, once).
    public static func load<Settings>(_ name: String, environment env: [String: String], standard: Settings,
                                      read: (Data) throws -> Settings, problem: (String, any Error) -> String) -> (config: Settings, problem: String?) {
        let file = path(name, environment: env)
        guard FileIO.exists(file) else { return (standard, nil) }
        do {
            return (try read(try FileIO.read(file, limit: maxBytes)), nil)
        } catch {
            return (standard, problem(file, error))
        }
    }

    /// A sane interval between requests: finite, at most an hour, and never under a second when
    /// the service's policy asks one a second at most (`politeServer`), whatever a file says.
    public static func paced(_ seconds: Double, politeServer: Bool) -> Double {
        let s = seconds.isFinite ? min(max(seconds, 0), 3600) : 1
        return politeServer ? max(s, 1) : s
    }
}
