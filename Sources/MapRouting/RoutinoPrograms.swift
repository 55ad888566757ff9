import FoundationEssentials
import Glibc
import MapCore
import Platform

/// Where Routino's programs and files are (Debian's `routino` package: /usr/bin and
/// /usr/share/routino). Routino is AGPL: Meridian runs its programs as processes of their
/// own and never links its library, so Meridian stays MIT.
public struct RoutinoPrograms: Sendable {
    public let router: String
    public let planetsplitter: String
    public let profiles: String
    public let translations: String
    public let tagging: String

    /// The installed programs, or `.engineMissing` naming the first that is not there.
    public static func find(environment env: [String: String]) -> Result<RoutinoPrograms, RouteError> {
        guard let router = Subprocess.find("routino-router", environment: env) else { return .failure(.engineMissing(program: "routino-router")) }
        guard let splitter = Subprocess.find("planetsplitter", environment: env) else { return .failure(.engineMissing(program: "planetsplitter")) }
        let share = env["MERIDIAN_ROUTINO_DATA"] ?? "/usr/share/routino"
        for file in ["profiles.xml", "translations.xml", "tagging.xml"] where !FileIO.exists("\(share)/\(file)") {
            return .failure(.engineMissing(program: "\(share)/\(file)"))
        }
        return .success(RoutinoPrograms(router: router, planetsplitter: splitter, profiles: "\(share)/profiles.xml",
                                        translations: "\(share)/translations.xml", tagging: "\(share)/tagging.xml"))
    }

    /// "3.3.3": what `routino-router --version` says. A database is tied to the version that
    /// built it, so it is kept beside the database and a change means a rebuild.
    public func version() -> String {
        Self.versionLock.lock(); defer { Self.versionLock.unlock() }
        if let known = Self.versions[router] { return known }
        let v = Self.askVersion(router) ?? "unknown"
        Self.versions[router] = v
        return v
    }

    private static let versionLock = Lock()
    nonisolated(unsafe) private static var versions: [String: String] = [:] // under `versionLock`

    private static func askVersion(_ router: String) -> String? {
        guard let dir = TemporaryDirectory.make("meridian-routino") else { return nil }
        defer { _ = FileIO.removeTree(dir) }
        let out = dir + "/version"
        guard let p = try? Subprocess(router, ["--version"], directory: dir, stdout: out, stderr: out) else { return nil }
        p.wait()
        guard let text = try? FileIO.read(out, limit: 4096) else { return nil }
        // "Routino version 3.3.3 <http://www.routino.org/>."
        let words = String(decoding: text, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard let i = words.firstIndex(of: "version"), i + 1 < words.count else { return nil }
        return String(words[i + 1].prefix(32))
    }

    /// Routino's profile for a mode.
    public static func profile(_ mode: TravelMode) -> String {
        switch mode {
        case .car: "motorcar"
        case .bike: "bicycle"
        case .foot: "foot"
        }
    }
}
