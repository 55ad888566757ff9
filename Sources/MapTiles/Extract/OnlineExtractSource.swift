import FoundationEssentials
import Glibc
import MapGeometry
import MapNetwork
import Platform

/// An extract's tiles from a tile server, only one whose `sources.json` entry says it allows
/// bulk downloads (OpenStreetMap's and OpenTopoMap's do not). Politely: a few requests at a
/// time, with the client's User-Agent; a 404 is a tile the server does not have; 429 and 5xx
/// pause every worker for the server's Retry-After (seconds or a date, up to a minute), or a
/// second when it gives none, and the request is asked again after 1, 2, 4… s.
///
/// Updating a saved area, it is given the area's tiles (`previous`): each tile the server
/// gave an ETag or date for is asked for conditionally, and a 304 keeps the old bytes.
public final class OnlineExtractSource: ExtractSource, @unchecked Sendable {
    /// A saved area's tiles, for an update's conditional requests.
    public struct Previous: Sendable {
        public let archive: PMTilesArchive
        public let validators: [UInt64: String]
        public init(archive: PMTilesArchive, validators: [UInt64: String]) { self.archive = archive; self.validators = validators }
    }

    public let source: OnlineSource
    private let client: HTTPClient
    private let lock = Lock()
    private var made = 0
    private var stopped = false
    /// No request leaves before this (monotonic seconds): a 429 or 503 pauses all workers.
    private var pausedUntil = 0.0
    /// The newest Last-Modified the server sent: when its data is from.
    private var newest: Double?
    private var previousTiles: Previous?

    public init(_ source: OnlineSource, client: HTTPClient) throws {
        if let refusal = source.bulkRefusal { throw ExtractError.refused(refusal) }
        self.source = source
        self.client = client
    }

    /// The saved area being updated (set before the extract runs).
    public var previous: Previous? {
        get { lock.lock(); defer { lock.unlock() }; return previousTiles }
        set { lock.lock(); previousTiles = newValue; lock.unlock() }
    }

    public var name: String { source.name }
    public var zoomRange: ClosedRange<Int> { source.zoomRange }
    public var tileType: PMTilesHeader.TileType? { source.kind == .vector ? .mvt : nil }
    public var tileCompression: PMTilesHeader.Compression? { nil }
    /// At most this many requests in flight to the server.
    public var concurrency: Int { 2 }
    public var batchSize: Int { 8 }
    public var bytesPerTile: UInt64 { source.kind == .vector ? 30_000 : 20_000 }
    public var metadata: [String: JSONValue] {
        ["name": .string(source.title), "attribution": .string(source.attribution)]
    }

    /// The tile address, hashed (it may carry a key, which a saved file must not): OpenFreeMap's
    /// names the planet it serves, so a new planet is a new revision; a saved area's
    /// validators are only asked with under the same address.
    public var revision: String? { "tiles-" + String(FNV1a.hash(source.template.text), radix: 16) }

    /// The planet's date in the tile address, else the newest Last-Modified seen.
    public var dataDate: String? {
        if let d = ExtractDates.day(in: source.template.text) { return d }
        lock.lock(); defer { lock.unlock() }
        return newest.flatMap(ExtractDates.day(of:))
    }

    public var requests: Int {
        lock.lock(); defer { lock.unlock() }
        return made
    }

    public func fetch(_ ids: [UInt64]) throws -> [ExtractTile] {
        try ids.map { id in
            guard let tile = PMTilesTileID.tile(for: id) else { return ExtractTile(nil) }
            let before = previous.flatMap { p in p.validators[id].flatMap { TileValidators.condition($0) == nil ? nil : (p.archive, $0) } }
            return try retrying(5, stopped: isStopped) { try get(tile, asking: before) }
        }
    }

    private func get(_ tile: TileID, asking before: (archive: PMTilesArchive, validator: String)?) throws -> ExtractTile {
        let url = source.template.url(for: tile)
        waitForPause()
        lock.lock(); made += 1; lock.unlock()
        var headers = [String]()
        if let v = before?.validator, let header = TileValidators.condition(v) { headers.append(header) }
        switch client.get(url, headers: headers) {
        case let .failed(reason, _):
            // TRANSLATORS: %1$@ is a map source's name, %2$@ a tile's z/x/y, %3$@ what is wrong.
            throw ExtractError.failed(tr("%1$@: tile %2$@: %3$@", source.name, tile, reason))
        case let .response(r):
            let validator = TileValidators.validator(etag: r.header("ETag"), lastModified: r.header("Last-Modified"))
            if let modified = r.header("Last-Modified").flatMap(HTTPFreshness.parseDate) {
                lock.lock(); newest = max(newest ?? modified, modified); lock.unlock()
            }
            switch r.status {
            case 200: return ExtractTile(r.body.isEmpty ? nil : r.body, validator: validator)
            case 204, 404: return ExtractTile(nil)
            case 304:
                guard let before else { throw ExtractError.failed(tr("%1$@: tile %2$@: the server answered 304 to a plain request", source.name, tile)) }
                // Unchanged; should the saved area lack it after all, it is asked for plainly.
                guard let old = try? before.archive.tileData(tile) else { return try get(tile, asking: nil) }
                return ExtractTile(old, validator: validator ?? before.validator, unchanged: true)
            case 429, 500...599:
                // Asked to slow down: every worker waits as told (bounded), then the retry
                // asks again; without a Retry-After the retry's own back-off paces it.
                var after = r.header("Retry-After").flatMap { HTTPFreshness.retryAfter($0, now: WallClock.now) } ?? 1
                if !after.isFinite || after <= 0 { after = 1 }
                lock.lock(); pausedUntil = max(pausedUntil, MonotonicClock.now + min(after, 60)); lock.unlock()
                // TRANSLATORS: %1$@ is a map source's name, %2$@ a tile's z/x/y, %3$@ an HTTP status code.
                throw ExtractError.failed(tr("%1$@: tile %2$@: the server answered %3$@", source.name, tile, r.status))
            default:
                throw ExtractError.refused(tr("%1$@: tile %2$@: the server answered %3$@", source.name, tile, r.status))
            }
        }
    }

    /// Sleeps while the server asked everyone to wait (a stop ends the wait).
    private func waitForPause() {
        while !isStopped() {
            lock.lock(); let left = pausedUntil - MonotonicClock.now; lock.unlock()
            guard left > 0 else { return }
            usleep(useconds_t(saturating: min(left, 0.1) * 1_000_000))
        }
    }

    private func isStopped() -> Bool {
        lock.lock(); defer { lock.unlock() }
        return stopped
    }

    public func cancel() {
        lock.lock(); stopped = true; lock.unlock()
    }
}
