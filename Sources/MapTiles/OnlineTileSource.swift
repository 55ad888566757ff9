import FoundationEssentials
import Glibc
import MapGeometry
import MapNetwork
import Platform

/// Tiles from a server, through the disk cache: a fresh cached tile is used as it is; a stale
/// one is shown at once and asked about again in the background (a 304 refreshes it, a new
/// picture replaces it, and offline it simply stays); a missing one is fetched while the
/// worker waits. A fetched picture is cached only once the loader decoded it (`decoded`), and
/// a cached one that does not decode is dropped: answers that are not pictures, or not 200,
/// are never kept. A 429 or 503 pauses every request for as long as its Retry-After says; 5xx
/// answers and broken connections are tried once more after a short, jittered wait; 4xx
/// answers are not. Requests for tiles the view no longer wants are cancelled.
public final class OnlineTileSource: TileSource, @unchecked Sendable { // its state under `lock`
    public let source: OnlineSource
    private let client: HTTPClient
    private let cache: TileDiskCache?
    private let retina: Bool
    private let lock = Lock()
    private var pausedUntil = 0.0
    /// Fetched bodies waiting for the loader's word that they decode, before they are cached.
    private var undecided: [TileID: HTTPFreshness] = [:]
    /// Tiles handed over from the disk cache, not yet decoded.
    private var fromCache = Set<TileID>()
    /// Tiles the server said it has not (404), not asked for again this run: beyond its
    /// deepest zoom a zoom gesture would otherwise ask for them at every pass.
    private var missing = Set<TileID>()
    /// Of those, the ones whose ancestor it did send (beyond its deepest zoom, or past the edge
    /// of what it covers): the tiles under them, as far as they are drawn enlarged, are not
    /// asked for either. (Not under any 404: a server may start deeper than its zoom range says.)
    private var missingBelow = Set<TileID>()
    static let missingLimit = 16384
    /// Requests under way, by tile (to cancel those the view left).
    private var requests: [TileID: HTTPClient.ID] = [:]
    private var cancelled = Set<TileID>()
    /// Why the last request failed for want of the network or the server, until one succeeds.
    private var failure: String?
    /// Requests made (200s, 304s and failures alike): what a test counts.
    public var requestCount: Int {
        lock.lock(); defer { lock.unlock() }
        return requestsMade
    }
    private var requestsMade = 0
    /// Hears every answer: "GET url status" (or "GET url failed: reason"), on the thread that
    /// got it. What the end-to-end tests read to see that no fresh tile is fetched twice.
    public var log: (@Sendable (String) -> Void)?

    public var name: String { source.name }
    public var zoomRange: ClosedRange<Int> { source.zoomRange }
    public var attribution: String { source.attribution }
    public var attributionURL: String? { source.attributionURL }
    /// Workers mostly wait on the network: more of them keep more requests in flight.
    public var concurrency: Int { 8 }
    public var isRemote: Bool { true }

    public var unreachable: String? {
        lock.lock(); defer { lock.unlock() }
        return failure
    }

    /// `retina`: ask for @2x tiles where the template offers them (`{r}`).
    public init(source: OnlineSource, client: HTTPClient, cache: TileDiskCache?, retina: Bool = false) {
        self.source = source
        self.client = client
        self.cache = cache
        self.retina = retina && source.template.offersRetina
    }

    /// A cheap look at the first bytes: PNG, JPEG or WebP. Garbage is not cached even before
    /// the loader's decode says so.
    public static func looksLikeImage(_ d: Data) -> Bool {
        let b = [UInt8](d.prefix(12))
        guard b.count >= 12 else { return false }
        if b[0] == 0x89, b[1] == 0x50, b[2] == 0x4E, b[3] == 0x47 { return true }
        if b[0] == 0xFF, b[1] == 0xD8, b[2] == 0xFF { return true }
        return b[0...3] == [0x52, 0x49, 0x46, 0x46] && b[8...11] == [0x57, 0x45, 0x42, 0x50]
    }

    public func cancel(_ tiles: [TileID]) {
        lock.lock()
        let ids = tiles.compactMap { t -> HTTPClient.ID? in
            guard let id = requests[t] else { return nil }
            cancelled.insert(t)
            return id
        }
        lock.unlock()
        for id in ids { client.cancel(id) }
    }

    /// The loader decoded the payload (or could not): a fetched picture is cached now; a
    /// cached one that does not decode is damaged, and dropped so that it is fetched anew.
    public func decoded(_ tile: TileID, payload: TilePayload, ok: Bool) {
        lock.lock()
        let freshness = undecided.removeValue(forKey: tile)
        let cached = fromCache.remove(tile) != nil
        lock.unlock()
        if ok, let freshness, case let .encodedImage(body) = payload {
            cache?.store(body, freshness: freshness, for: tile, now: WallClock.now)
        } else if !ok, cached {
            cache?.remove(tile)
        }
    }

    /// A ring tile kept to decode later, whole as far as its header and chunks tell: cached
    /// now, so that it is not fetched again, and treated from here on as one from the cache
    /// (dropped if it then fails to decode).
    public func keptAhead(_ tile: TileID, payload: TilePayload) {
        lock.lock()
        let freshness = undecided.removeValue(forKey: tile)
        if freshness != nil { fromCache.insert(tile) }
        lock.unlock()
        if let freshness, case let .encodedImage(body) = payload {
            cache?.store(body, freshness: freshness, for: tile, now: WallClock.now)
        }
    }

    /// Not decoded after all: a fetched picture is not cached (it was never seen to decode).
    public func abandoned(_ tile: TileID) {
        lock.lock()
        undecided[tile] = nil
        fromCache.remove(tile)
        lock.unlock()
    }

    public func payload(for tile: TileID) throws -> TilePayload? {
        guard tile.isValid, zoomRange.contains(tile.z) else { return nil }
        lock.lock(); let known = isMissing(tile); lock.unlock()
        if known { return missingTile(tile) }
        let now = WallClock.now
        if let cached = cache?.entry(for: tile, now: now) {
            if !cached.freshness.isFresh(at: now) { revalidate(tile, cached) }
            lock.lock(); fromCache.insert(tile); lock.unlock()
            return .encodedImage(cached.body)
        }
        return try fetch(tile, attempt: 0)
    }

    private func fetch(_ tile: TileID, attempt: Int) throws -> TilePayload? {
        let wait = paused()
        // TRANSLATORS: %@ is a number of seconds.
        if wait > 0 { throw TileSourceError(tr("the server asked to wait %@ s", String(cFormat: "%.0f", wait))) }
        let outcome = try get(source.template.url(for: tile, retina: retina), tile: tile)
        if case .response = outcome { reached() }
        switch outcome {
        case let .response(r) where r.status == 200:
            guard Self.looksLikeImage(r.body) else { throw TileSourceError(tr("the server sent something that is not a picture")) }
            let freshness = HTTPFreshness(headers: r.headers, receivedAt: WallClock.now)
            if freshness.storable {
                lock.lock(); undecided[tile] = freshness; lock.unlock()
            }
            return .encodedImage(r.body)
        case let .response(r) where r.status == 404 || r.status == 204:
            return missingTile(tile)
        case let .response(r) where r.status == 429 || r.status == 503:
            let seconds = min(max(r.header("Retry-After").flatMap { Double($0.trimmed) } ?? 30, 1), 600)
            pause(for: seconds)
            // TRANSLATORS: %1$@ is an HTTP status code (429, 503), %2$@ a number of seconds.
            throw TileSourceError(tr("the server is busy (%1$@); waiting %2$@ s", r.status, String(cFormat: "%.0f", seconds)))
        case let .response(r) where r.status >= 500 && attempt == 0:
            Self.backOff(attempt: attempt)
            return try fetch(tile, attempt: 1)
        case let .response(r):
            // TRANSLATORS: %@ is an HTTP status code (404).
            throw TileSourceError(tr("the server answered %@", r.status))
        case let .failed(reason, retryable):
            if retryable && attempt == 0 {
                Self.backOff(attempt: attempt)
                return try fetch(tile, attempt: 1)
            }
            lock.lock(); failure = reason; lock.unlock()
            throw TileSourceError(reason)
        }
    }

    /// A tile the server has not: noted, and drawn from its nearest ancestor at hand.
    private func missingTile(_ tile: TileID) -> TilePayload? {
        let enlarged = enlargedAncestor(of: tile)
        lock.lock()
        if missing.count >= Self.missingLimit { missing.removeAll(); missingBelow.removeAll() }
        missing.insert(tile)
        if enlarged != nil { missingBelow.insert(tile) }
        lock.unlock()
        return enlarged
    }

    /// The server said it has not this tile, or one a few levels above it whose ancestor it
    /// sent (`missingBelow`). (Under `lock`.)
    private func isMissing(_ tile: TileID) -> Bool {
        if missing.contains(tile) { return true }
        guard !missingBelow.isEmpty else { return false }
        return stride(from: tile.z - 1, through: max(0, tile.z - Self.enlargeLevels), by: -1).contains {
            missingBelow.contains(tile.ancestor(atZoom: $0))
        }
    }

    /// Levels up a tile the server has not is drawn from a tile it sent: 16 times larger at most.
    static let enlargeLevels = 4

    /// No tile here. Beyond a server's deepest zoom every tile is missing: the nearest ancestor
    /// it did send (from the cache) is drawn enlarged, so the map stays itself rather than
    /// turning into the basemap under it. Nil where none is at hand: what is under it shows.
    private func enlargedAncestor(of tile: TileID) -> TilePayload? {
        guard let cache else { return nil }
        let now = WallClock.now
        for z in stride(from: tile.z - 1, through: max(0, tile.z - Self.enlargeLevels), by: -1) {
            let ancestor = tile.ancestor(atZoom: z)
            if let entry = cache.entry(for: ancestor, now: now) { return .encodedImageRegion(entry.body, tile: ancestor) }
        }
        return nil
    }

    private func reached() {
        lock.lock(); failure = nil; lock.unlock()
    }

    /// Asks whether a stale tile changed; whatever happens, the stale one was already shown.
    private func revalidate(_ tile: TileID, _ cached: TileDiskCache.Entry) {
        guard paused() <= 0 else { return }
        let url = source.template.url(for: tile, retina: retina)
        lock.lock(); requestsMade += 1; lock.unlock()
        // The answer is a small write at most (no decoding): done on the network thread.
        client.fetch(url, headers: cached.freshness.revalidationHeaders) { [weak self, cache] outcome in
            guard case let .response(r) = outcome else { return }
            self?.log?("GET \(url) \(r.status) (revalidation)")
            self?.reached()
            let answer = HTTPFreshness(headers: r.headers, receivedAt: WallClock.now)
            if r.status == 304 {
                cache?.refresh(tile, with: answer, now: WallClock.now)
            } else if r.status == 200, Self.looksLikeImage(r.body) {
                // A new picture that does not decode is dropped when the loader meets it.
                cache?.store(r.body, freshness: answer, for: tile, now: WallClock.now)
            }
        }
    }

    /// Fetches on the network thread and waits here (a tile worker); the request can be
    /// cancelled meanwhile (`cancel`), and then this throws `TileLoadCancelled`.
    private func get(_ url: String, tile: TileID) throws -> HTTPOutcome {
        let waiter = Awaited<HTTPOutcome>()
        lock.lock()
        requestsMade += 1
        let id = client.fetch(url, headers: []) { waiter.put($0) }
        requests[tile] = id
        lock.unlock()
        let outcome = waiter.take()!
        // The request and its cancellation end together: a cancel that came too late to stop
        // an answer leaves nothing behind.
        lock.lock()
        requests[tile] = nil
        let cancelledNow = cancelled.remove(tile) != nil
        lock.unlock()
        if let log {
            switch outcome {
            case let .response(r): log("GET \(url) \(r.status)")
            case let .failed(reason, _): log("GET \(url) failed: \(reason)")
            }
        }
        if cancelledNow, case .failed = outcome { throw TileLoadCancelled() }
        return outcome
    }

    private func paused() -> Double {
        lock.lock(); defer { lock.unlock() }
        return pausedUntil - WallClock.now
    }

    private func pause(for seconds: Double) {
        lock.lock(); defer { lock.unlock() }
        pausedUntil = max(pausedUntil, WallClock.now + seconds)
    }

    /// A short wait before a second try, jittered so that tiles do not retry in step.
    private static func backOff(attempt: Int) {
        let seconds = 0.5 * Double(1 << attempt) * Double.random(in: 0.75...1.25)
        usleep(useconds_t(saturating: seconds * 1_000_000))
    }
}
