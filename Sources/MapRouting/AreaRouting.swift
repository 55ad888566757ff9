import FoundationEssentials
import Glibc
import MapCore
import MapNetwork
import MapTiles
import Platform

/// Routing data for a saved area ("Directions offline too"): the smallest Geofabrik region
/// that holds the area is found in its index, its size said first (and asked about when
/// large), downloaded once (resumably), cut to the area with `osmium extract`, and built into
/// a Routino database beside the area; the download is deleted then.
public struct AreaRouting: Sendable {
    public struct Box: Sendable, Equatable {
        public var west: Double, south: Double, east: Double, north: Double
        public init(west: Double, south: Double, east: Double, north: Double) {
            self.west = west; self.south = south; self.east = east; self.north = north
        }
    }

    /// What the work is doing, for a progress line.
    public enum Stage: Sendable, Equatable {
        case finding
        case downloading(region: String, done: Int64, total: Int64)
        case cutting
        case building
    }

    /// The index's address (Geofabrik's, or a mirror's).
    public var index: String
    public var client: HTTPClient
    public var programs: RoutinoPrograms
    /// Where downloads are kept while they are fetched.
    public var downloads: String
    /// A download larger than this is asked about first (`confirm`).
    public var askAbove: Int64 = 500_000_000

    public init(index: String, client: HTTPClient, programs: RoutinoPrograms, downloads: String) {
        self.index = index
        self.client = client
        self.programs = programs
        self.downloads = downloads
    }

    /// The routing database for `area`, built into `directory` (made or replaced whole).
    /// `confirm` is asked (region name, bytes) before a download above `askAbove`.
    public func build(_ area: Box, into directory: String, environment env: [String: String], cancel: RouteCancellation = RouteCancellation(),
                      confirm: (String, Int64) -> Bool = { _, _ in true }, progress: (Stage) -> Void = { _ in })
        -> Result<(RoutinoDatabase, RoutinoDatabase.BuildReport), RouteError> {
        guard let osmium = Subprocess.find("osmium", environment: env) else { return .failure(.engineMissing(program: "osmium (Debian: apt install osmium-tool)")) }
        progress(.finding)
        let r: HTTPResponse
        switch client.get(index, limit: GeofabrikIndex.maxBytes) {
        case let .response(answer) where answer.status == 200: r = answer
        case let .response(answer): return .failure(RouteError(status: answer.status))
        case let .failed(reason, _): return .failure(RouteError(failure: reason, limit: GeofabrikIndex.maxBytes))
        }
        let regions: GeofabrikIndex
        switch GeofabrikIndex.read(r.body) {
        case let .success(i): regions = i
        case let .failure(e): return .failure(e)
        }
        guard let region = regions.smallestRegion(west: area.west, south: area.south, east: area.east, north: area.north) else {
            return .failure(.failed(tr("no extract of the index holds this area whole")))
        }
        let head: RegionDownload.Head
        switch RegionDownload.head(of: region.pbf, client: client) {
        case let .success(h): head = h
        case let .failure(e): return .failure(e)
        }
        let size = head.size
        if size > askAbove && !confirm(region.name, size) { return .failure(.declined(region: region.name, bytes: size)) }
        if let problem = FileIO.makeDirectories(downloads) { return .failure(.failed(problem)) }
        let download = downloads + "/" + Self.fileName(region)
        if !FileIO.exists(download) || Int64(FileIO.fileSize(download)) != size {
            let fetched = RegionDownload.fetch(region.pbf, head: head, to: download, client: client, cancel: cancel) { done in
                progress(.downloading(region: region.name, done: done, total: size))
            }
            if case let .failure(e) = fetched { return .failure(e) }
        }
        defer { _ = unlink(download) }
        // The area cut out of the region, in a folder of its own.
        progress(.cutting)
        guard let work = TemporaryDirectory.make("meridian-area-routing") else {
            // TRANSLATORS: %@ is the system's reason.
            return .failure(.failed(tr("no temporary folder: %@", FileIO.reason())))
        }
        defer { _ = FileIO.removeTree(work) }
        let cut = work + "/area.osm.pbf", log = work + "/osmium.log"
        let box = String(cFormat: "%.7f,%.7f,%.7f,%.7f", area.west, area.south, area.east, area.north)
        let p: Subprocess
        do { p = try Subprocess(osmium, ["extract", "-b", box, "--overwrite", "-o", cut, download], directory: work, stdout: log, stderr: log) }
        catch { return .failure(RouteError(spawning: error)) }
        let stopping = cancel.whenCancelled { p.terminate() }
        let status = p.wait()
        cancel.forget(stopping)
        if cancel.isCancelled { return .failure(.cancelled) }
        guard status == 0 else {
            // TRANSLATORS: osmium is a program; %1$@ is a region's name ("Finland"), %2$@ what osmium said.
            if let said = RoutinoDatabase.lastError(log) { return .failure(.failed(tr("osmium could not cut the area out of %1$@: %2$@", region.name, said))) }
            // TRANSLATORS: osmium is a program; %1$@ is a region's name ("Finland"), %2$@ the number it ended with.
            return .failure(.failed(tr("osmium could not cut the area out of %1$@: status %2$@", region.name, status)))
        }
        progress(.building)
        return RoutinoDatabase.build(osm: cut, into: directory, programs: programs, environment: env, cancel: cancel)
    }

    /// "finland-1a2b3c.osm.pbf": the region's id and its address's hash (a mirror's file is
    /// not Geofabrik's).
    static func fileName(_ region: GeofabrikIndex.Region) -> String {
        let id = region.id.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "-" }
        return String(id) + "-" + String(FNV1a.hash(region.pbf) & 0xFFFFFF, radix: 16) + ".osm.pbf"
    }

    /// As the app makes it: the index routing.json names, downloads kept under the cache while
    /// they are fetched, with the client below (asking nothing of the network when `offline`).
    public init(config: RoutingConfig, programs: RoutinoPrograms, userAgent: String, offline: Bool = false, environment env: [String: String]) {
        self.init(index: config.extracts, client: Self.downloadClient(userAgent: userAgent, offline: offline), programs: programs,
                  downloads: RoutinoDatabase.defaultCacheRoot(environment: env) + "/downloads")
        askAbove = config.askAbove
    }

    /// The HTTP client downloads are made with: one connection, the app's User-Agent, a
    /// piece (8 MiB) given minutes on a slow line — a stalled transfer still ends in seconds.
    static func downloadClient(userAgent: String, offline: Bool) -> HTTPClient {
        var options = HTTPClient.Options(userAgent: userAgent)
        options.offline = offline
        options.maxBodyBytes = GeofabrikIndex.maxBytes
        options.connectionsPerHost = 1
        options.totalTimeout = 900
        options.stallTimeout = 30
        return HTTPClient(options: options)
    }

    /// The routing database kept beside a saved area (`AREA.pmtiles.routing`).
    public static func directory(forArea path: String) -> String { path + ".routing" }
}
