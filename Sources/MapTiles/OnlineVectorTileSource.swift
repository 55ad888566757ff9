import FoundationEssentials
import MapGeometry
import MapNetwork
import Platform

/// Mapbox Vector Tiles from a server, from a `{z}/{x}/{y}.pbf` template or a TileJSON
/// document, through the disk cache. As MBTilesSource does, tiles beyond the data's deepest
/// zoom are served from their ancestor there (vector over-zoom). Bodies still gzipped (a
/// server that sends `Content-Encoding: gzip` regardless; libcurl's decoding is not turned on
/// in HTTPClient) are inflated here, bounded. A fetched tile is cached only once the loader
/// decoded it; a stale cached one is asked about again (If-None-Match) and used as it is when
/// the server cannot be reached.
public final class OnlineVectorTileSource: TileSource, @unchecked Sendable { // its state under `lock`
    /// The source, resolved (a TileJSON source's template is the one its document gives).
    public let source: OnlineSource
    /// The document the tiles were described by, when there was one.
    public let tileJSON: TileJSON?
    private let client: HTTPClient
    private let cache: TileDiskCache?
    private let lock = Lock()
    private var undecided: [TileID: (Data, HTTPFreshness)] = [:]
    private var requests: [TileID: HTTPClient.ID] = [:]
    private var cancelled = Set<TileID>()
    private var failure: String?
    /// Sibling tiles' asks for one data tile, answered by one request.
    private let shared = SharedFetches()

    public var name: String { source.name }
    public var dataZoomRange: ClosedRange<Int> { source.zoomRange }
    public var zoomRange: ClosedRange<Int> { dataZoomRange.lowerBound...max(dataZoomRange.upperBound, MBTilesSource.maxDisplayZoom) }
    public var attribution: String { source.attribution }
    public var attributionURL: String? { source.attributionURL }
    public var concurrency: Int { 8 }
    /// From the TileJSON document; for a bare `{z}/{x}/{y}` address, as learned from its
    /// first tile (this run), or from the z0 tile kept from before (nothing is fetched to tell
    /// it), else nil.
    public let schema: TileSchema?
    /// Its tiles are made for 512 points (OpenMapTiles', Protomaps').
    public var zoomShift: Int { VectorOverzoom.shift(tilePoints: 512) }
    /// The schemas of bare addresses, learned from their first telling tile this run, by
    /// address.
    private static let learned = LockedValue<[String: TileSchema]>()
    /// A source's address, the key of `learned`.
    private static func address(of source: OnlineSource) -> String { source.tileJSON ?? source.template.url(for: TileID(z: 0, x: 0, y: 0)) }
    /// A tile has told this source's schema (or it was known): no more tiles are looked at.
    private let decided = LockedValue<Bool>()
    /// Called (on a tile worker) when a source opened without knowing its schema has learned
    /// it from a tile: the app opens it again, to draw it in that schema's style.
    public static let schemaLearned = LockedValue<@Sendable (String) -> Void>()
    public var isRemote: Bool { true }
    public var unreachable: String? {
        lock.lock(); defer { lock.unlock() }
        return failure
    }

    /// Opens `source` (a vector one): reads its TileJSON document first when it has one (from
    /// the server, else as kept from before). `cacheRoot`: the disk cache's tiles folder.
    public static func open(_ source: OnlineSource, client: HTTPClient, cacheRoot: String?) throws -> OnlineVectorTileSource {
        guard let url = source.tileJSON else {
            let cache = cacheRoot.map { TileDiskCache(root: $0, source: source) }
            return OnlineVectorTileSource(source: source, tileJSON: nil, client: client, cache: cache)
        }
        let documentCache = cacheRoot.map { TileDiskCache(root: $0, name: source.name, key: url) }
        let document = try TileJSON.fetch(url, client: client, keptIn: documentCache.map { $0.directory + "/tilejson" })
        let resolved = source.resolved(by: document)
        return OnlineVectorTileSource(source: resolved, tileJSON: document, client: client,
                                      cache: cacheRoot.map { TileDiskCache(root: $0, source: resolved) })
    }

    public init(source: OnlineSource, tileJSON: TileJSON?, client: HTTPClient, cache: TileDiskCache?) {
        self.source = source
        self.tileJSON = tileJSON
        self.client = client
        self.cache = cache
        // (Only the world's one z0 tile is looked for in the cache: nothing is fetched here.)
        schema = tileJSON?.schema ?? Self.learned.get()?[Self.address(of: source)] ?? TileSchema.detect(layers: [], name: nil, version: nil, probing: [0]) { z in
            source.zoomRange.lowerBound == 0 ? cache?.entry(for: TileID(z: z, x: 0, y: 0), now: WallClock.now)?.body : nil
        }
    }

    public func payload(for tile: TileID) throws -> TilePayload? {
        // OpenMapTiles' tiles are made for 512 points: each serves the tiles a zoom below.
        guard tile.isValid, let dataTile = VectorOverzoom.dataTile(for: tile, dataZoomRange: dataZoomRange, vectorTileSize: 512) else { return nil }
        guard let body = try shared.data(for: dataTile, { try body(for: dataTile) }) else { return nil }
        return .vector(try VectorOverzoom.inflated(body, dataTile, in: name), tile: dataTile)
    }

    /// The tile's body as served (maybe gzipped), from the cache or the server; nil for none.
    private func body(for tile: TileID) throws -> Data? {
        let now = WallClock.now
        let cached = cache?.entry(for: tile, now: now)
        if let cached, cached.freshness.isFresh(at: now) { return cached.body }
        let outcome = try get(source.template.url(for: tile), tile: tile, headers: cached?.freshness.revalidationHeaders ?? [])
        switch outcome {
        case let .response(r) where r.status == 304 && cached != nil:
            cache?.refresh(tile, with: HTTPFreshness(headers: r.headers, receivedAt: now), now: now)
            return cached?.body
        case let .response(r) where r.status == 200:
            let freshness = HTTPFreshness(headers: r.headers, receivedAt: now)
            if freshness.storable { lock.lock(); undecided[tile] = (r.body, freshness); lock.unlock() }
            return r.body
        case let .response(r) where r.status == 404 || r.status == 204:
            return nil // no tile here: what is under it shows
        case let .response(r):
            if let cached { return cached.body }
            // TRANSLATORS: %1$@ is an HTTP status code (404), %2$@ a tile's z/x/y.
            throw TileSourceError(tr("the server answered %1$@ for %2$@", r.status, tile))
        case let .failed(reason, _):
            if let cached { return cached.body } // offline: the stale tile is better than none
            throw TileSourceError(reason)
        }
    }

    /// The loader decoded the tile: its body is worth keeping. (Keyed by the data tile, which
    /// for an over-zoomed tile is the ancestor the payload names.)
    public func decoded(_ tile: TileID, payload: TilePayload, ok: Bool) {
        guard case let .vector(bytes, dataTile) = payload else { return }
        if schema == nil, ok, decided.get() != true, let found = TileSchema.detect(tile: bytes) {
            decided.set(true)
            let key = Self.address(of: source)
            let first = Self.learned.update { known in
                var all = known ?? [:]
                guard all[key] == nil else { return false }
                all[key] = found
                known = all
                return true
            }
            // (Drawn in OpenMapTiles' style meanwhile: only another schema needs a new start.)
            if first, found != .openMapTiles { Self.schemaLearned.get()?(source.name) }
        }
        lock.lock()
        let pending = undecided.removeValue(forKey: dataTile)
        lock.unlock()
        if ok, let (body, freshness) = pending { cache?.store(body, freshness: freshness, for: dataTile, now: WallClock.now) }
        if !ok { cache?.remove(dataTile) }
    }

    public func cancel(_ tiles: [TileID]) {
        lock.lock()
        let ids = tiles.compactMap { t -> HTTPClient.ID? in
            // Requests are kept under the data tile a tile is drawn from (a zoom up).
            guard let key = VectorOverzoom.dataTile(for: t, dataZoomRange: dataZoomRange, vectorTileSize: 512), let id = requests[key] else { return nil }
            cancelled.insert(key)
            return id
        }
        lock.unlock()
        for id in ids { client.cancel(id) }
    }

    /// Fetches on the network thread and waits here; a cancelled request throws `TileLoadCancelled`.
    private func get(_ url: String, tile: TileID, headers: [String]) throws -> HTTPOutcome {
        let answer = Awaited<HTTPOutcome>()
        lock.lock()
        requests[tile] = client.fetch(url, headers: headers) { answer.put($0) }
        lock.unlock()
        let outcome = answer.take()!
        lock.lock()
        requests[tile] = nil
        let wasCancelled = cancelled.remove(tile) != nil
        switch outcome {
        case .response: failure = nil
        case let .failed(reason, retryable): if retryable || client.isOffline { failure = reason }
        }
        lock.unlock()
        if wasCancelled, case .failed = outcome { throw TileLoadCancelled() }
        return outcome
    }
}
