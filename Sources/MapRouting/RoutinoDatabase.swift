import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapTiles
import Platform

/// A Routino database built by `planetsplitter` from an OpenStreetMap extract, with a note
/// beside it (`meridian-routing.json`) of what it was built from, by which Routino version,
/// and the box its data covers. A database another Routino version built is stale: Routino's
/// files change between versions.
public struct RoutinoDatabase: Sendable {
    public let directory: String
    public let prefix: String
    /// The Routino version that built it.
    public let version: String
    /// South, west, north, east of the extract's data; nil when it could not be measured
    /// (then every point is tried, and Routino says if it is too far from a road).
    public let bounds: [Double]?
    /// The extract it was built from, its size and modification time then.
    public let source: String
    public let sourceSize: Int
    public let sourceTime: Int
    /// The day it was built ("2026-12-06", UTC), if the note says.
    public var built: String? = nil

    static let noteName = "meridian-routing.json"
    static let files = ["nodes", "segments", "ways", "relations"]

    /// Whether `c` is in the data's box, widened by the kilometre Routino looks for a road in.
    public func covers(_ c: Coordinate) -> Bool {
        guard let b = bounds, b.count == 4 else { return true }
        let margin = 0.01, lonMargin = 0.01 / max(0.1, cos(c.latitude * .pi / 180))
        return c.latitude >= b[0] - margin && c.latitude <= b[2] + margin && c.longitude >= b[1] - lonMargin && c.longitude <= b[3] + lonMargin
    }

    /// Bytes the database's files take.
    public var size: Int { Self.files.reduce(0) { $0 + FileIO.fileSize("\(directory)/\(prefix)-\($1).mem") } }

    /// The database in `directory`, if its note and files are there.
    public static func open(_ directory: String) -> Result<RoutinoDatabase, RouteError> {
        let note = directory + "/" + noteName
        guard FileIO.exists(note) else { return .failure(.databaseMissing(directory)) }
        guard let data = try? FileIO.read(note, limit: 64 << 10), let json = try? JSONValue.parse(data), let o = json.object,
              let version = o["routino"]?.string, let prefix = o["prefix"]?.string, !prefix.isEmpty, !prefix.contains("/") else {
            // TRANSLATORS: %@ is a file's name (meridian-routing.json).
            return .failure(.databaseDamaged(directory, reason: tr("its note %@ is unreadable", noteName)))
        }
        let bounds = o["bounds"]?.array?.compactMap(\.number)
        var db = RoutinoDatabase(directory: directory, prefix: prefix, version: version,
                                 bounds: bounds?.count == 4 && bounds!.allSatisfy(\.isFinite) ? bounds : nil,
                                 source: o["source"]?.string ?? "", sourceSize: Int(saturating: o["size"]?.number ?? -1),
                                 sourceTime: Int(saturating: o["mtime"]?.number ?? -1))
        db.built = o["built"]?.number.flatMap { $0 > 0 ? ExtractDates.day(of: $0) : nil }
        for f in files where !FileIO.exists("\(directory)/\(prefix)-\(f).mem") {
            // TRANSLATORS: %@ is a file's name (osm-nodes.mem).
            return .failure(.databaseDamaged(directory, reason: tr("%@ is missing", "\(prefix)-\(f).mem")))
        }
        return .success(db)
    }

    /// What a build took.
    public struct BuildReport: Sendable {
        public var seconds: Double
        public var peakRSS: Int
        public var bytes: Int
    }

    /// Builds the database for the extract `osm` into `directory` (made or replaced whole: the
    /// build goes to a directory beside it, renamed into place when complete, so a failed or
    /// cancelled build leaves the old database as it was). `progress` hears planetsplitter's
    /// stage now and then.
    public static func build(osm: String, into directory: String, programs: RoutinoPrograms, environment env: [String: String],
                             cancel: RouteCancellation = RouteCancellation()) -> Result<(RoutinoDatabase, BuildReport), RouteError> {
        // planetsplitter runs in a directory of its own: it is given the extract from the root.
        let osm = FileIO.absolute(osm)
        var st = stat()
        // TRANSLATORS: a file, and the system's reason it cannot be read.
        guard stat(osm, &st) == 0 else { return .failure(.failed(tr("%@: %@", osm, FileIO.reason()))) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { return .failure(.failed(tr("%@: not a file", osm))) }
        let parent = String(directory[..<(directory.lastIndex(of: "/") ?? directory.startIndex)])
        if !parent.isEmpty, let problem = FileIO.makeDirectories(parent) { return .failure(.failed(problem)) }
        // A folder of this build's own beside the database (another build of the same one, by
        // another window, never shares it), renamed into place when whole.
        let name = String(directory.split(separator: "/").last ?? "routing")
        guard let building = TemporaryDirectory.make(".\(name).building", in: parent.isEmpty ? "." : parent) else {
            return .failure(.failed(tr("%@: %@", parent, FileIO.reason())))
        }
        let prefix = "osm"
        let log = building + "/planetsplitter.log"
        let start = MonotonicClock.now
        let process: Subprocess
        do {
            process = try Subprocess(programs.planetsplitter, ["--dir=\(building)", "--prefix=\(prefix)", "--tagging=\(programs.tagging)",
                                                               "--loggable", osm],
                                     directory: building, stdout: log, stderr: log)
        } catch {
            _ = FileIO.removeTree(building)
            return .failure(RouteError(spawning: error))
        }
        let stopping = cancel.whenCancelled { process.terminate() }
        let (status, rss) = process.waitMeasuring()
        cancel.forget(stopping)
        let seconds = MonotonicClock.now - start
        guard !cancel.isCancelled else { _ = FileIO.removeTree(building); return .failure(.cancelled) }
        guard status == 0 else {
            // TRANSLATORS: planetsplitter is a program; %@ is the number it ended with.
            let said = lastError(log) ?? tr("planetsplitter ended with status %@", status)
            _ = FileIO.removeTree(building)
            // TRANSLATORS: %1$@ is an OpenStreetMap extract (a file), %2$@ what the program said.
            return .failure(.failed(tr("%1$@ could not be read for routing: %2$@", osm, said)))
        }
        _ = unlink(log)
        // What planetsplitter leaves beside the database that routing never reads.
        for f in ["nodes", "segments", "ways", "relations", "errorlogs"] { _ = unlink("\(building)/\(prefix)-\(f).mem.tmp") }
        let bounds = measureBounds(osm, environment: env)
        var note: [String: JSONValue] = [
            "routino": .string(programs.version()), "prefix": .string(prefix), "source": .string(osm),
            "size": .number(Double(st.st_size)), "mtime": .number(Double(st.st_mtim.tv_sec)), "built": .number(WallClock.now.rounded()),
        ]
        if let bounds { note["bounds"] = .array(bounds.map { .number($0) }) }
        guard let data = try? JSONEncoder().encode(JSONValue.object(note)),
              FileIO.writeText(String(decoding: data, as: UTF8.self), to: building + "/" + noteName) else {
            _ = FileIO.removeTree(building)
            // TRANSLATORS: %1$@ is a folder, %2$@ a file's name.
            return .failure(.failed(tr("%1$@: cannot write %2$@", building, noteName)))
        }
        let old = building + "-old"
        if FileIO.exists(directory) { _ = rename(directory, old) }
        guard rename(building, directory) == 0 else {
            let reason = FileIO.reason()
            if FileIO.exists(old) { _ = rename(old, directory) }
            _ = FileIO.removeTree(building)
            return .failure(.failed(tr("%@: %@", directory, reason)))
        }
        _ = FileIO.removeTree(old)
        return open(directory).map { db in (db, BuildReport(seconds: seconds, peakRSS: rss, bytes: db.size)) }
    }

    /// The database kept for the extract `osm` under `cacheRoot` (`routing/` there, one
    /// directory per extract, keyed by its path, size and modification time as the search
    /// index is), built first if there is none or it is stale.
    public static func cached(osm: String, cacheRoot: String, programs: RoutinoPrograms, environment env: [String: String],
                              cancel: RouteCancellation = RouteCancellation()) -> Result<(RoutinoDatabase, BuildReport?), RouteError> {
        let osm = FileIO.absolute(osm)
        guard let directory = cacheDirectory(osm: osm, cacheRoot: cacheRoot) else { return .failure(.failed(tr("%@: %@", osm, FileIO.reason()))) }
        if let db = cachedIfCurrent(osm: osm, cacheRoot: cacheRoot, programs: programs) { return .success((db, nil)) }
        return build(osm: osm, into: directory, programs: programs, environment: env, cancel: cancel).map { ($0.0, $0.1) }
    }

    /// The kept database for `osm` if it is there and of this Routino version.
    public static func cachedIfCurrent(osm: String, cacheRoot: String, programs: RoutinoPrograms) -> RoutinoDatabase? {
        guard let directory = cacheDirectory(osm: osm, cacheRoot: cacheRoot),
              case let .success(db) = open(directory), db.version == programs.version() else { return nil }
        return db
    }

    /// Where the database for `osm` is kept: keyed by its path, size and modification time.
    static func cacheDirectory(osm: String, cacheRoot: String) -> String? {
        var st = stat()
        guard stat(osm, &st) == 0 else { return nil }
        return cacheRoot + "/routing/" + String(FNV1a.hash("\(osm)\u{0}\(st.st_size)\u{0}\(st.st_mtim.tv_sec)"), radix: 16)
    }

    /// `$XDG_CACHE_HOME/meridian`, else `~/.cache/meridian`.
    public static func defaultCacheRoot(environment env: [String: String]) -> String {
        FileIO.userFolder("XDG_CACHE_HOME", else: ".cache", environment: env) + "/meridian"
    }

    /// South, west, north, east of the extract's data, from `osmium fileinfo -e` (osmium-tool):
    /// nil when osmium is not installed or cannot say.
    static func measureBounds(_ osm: String, environment env: [String: String]) -> [Double]? {
        guard let osmium = Subprocess.find("osmium", environment: env), let dir = TemporaryDirectory.make("meridian-bounds") else { return nil }
        defer { _ = FileIO.removeTree(dir) }
        guard let p = try? Subprocess(osmium, ["fileinfo", "-e", "-g", "data.bbox", osm], directory: dir, stdout: dir + "/out"),
              p.wait() == 0, let data = try? FileIO.read(dir + "/out", limit: 4096) else { return nil }
        // "(24.9351766,60.1641551,24.9534132,60.1791074)": west, south, east, north.
        let numbers = String(decoding: data, as: UTF8.self).split(whereSeparator: { "(),\n ".contains($0) }).compactMap { Double($0) }
        guard numbers.count == 4, numbers.allSatisfy(\.isFinite) else { return nil }
        return [numbers[1], numbers[0], numbers[3], numbers[2]]
    }

    /// The last line of a log that says "Error", else its last line.
    static func lastError(_ log: String) -> String? {
        guard let data = try? FileIO.read(log, limit: 1 << 20) else { return nil }
        let lines = String(decoding: data.suffix(16 << 10), as: UTF8.self).split(whereSeparator: \.isNewline).map { $0.trimmed }.filter { !$0.isEmpty }
        return (lines.last { $0.contains("Error") } ?? lines.last).map { String($0.prefix(300)) }
    }
}
