import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// Tiles from a server, through the disk cache: a fresh cached tile is used as it is; a stale
/// one is shown at once and asked about again in the background (a 304 refreshes it, a new
/// picture replaces it, and offline it simply stays); a missing one is fetched while the
/// worker waits. Answers that are not pictures, or not 200, are never cached. A 429 or 503
/// pauses every request for as long as its Retry-After says; 5xx answers and broken
/// connections are tried once more after a short, jittered wait; 4xx answers are not.
public final class OnlineTileSource: TileSource, @unchecked Sendable {
    public let source: OnlineSource
    private let client: HTTPClient
    private let cache: TileDiskCache?
    /// Whether a picture can be decoded (checked on the worker before it is cached).
    private let isImage: @Sendable (Data) -> Bool
    private let retina: Bool
    private let lock = Lock()
    private var pausedUntil = 0.0

    public var name: String { source.name }
    public var zoomRange: ClosedRange<Int> { source.zoomRange }
    public var attribution: String { source.attribution }
    /// Workers mostly wait on the network: more of them keep more requests in flight.
    public var concurrency: Int { 8 }

    public init(source: OnlineSource, client: HTTPClient, cache: TileDiskCache?, retina: Bool = false,
                isImage: @escaping @Sendable (Data) -> Bool) {
        self.source = source
        self.client = client
        self.cache = cache
        self.retina = retina && source.template.offersRetina
        self.isImage = isImage
    }

    /// Seconds since 1970 (cache lifetimes are wall-clock times).
    static var wallClock: Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    public func payload(for tile: TileID) throws -> TilePayload? {
        guard tile.isValid, zoomRange.contains(tile.z) else { return nil }
        let now = Self.wallClock
        let cached = cache?.entry(for: tile, now: now)
        if let cached, cached.freshness.isFresh(at: now) { return .encodedImage(cached.body) }
        if let cached {
            revalidate(tile, cached)
            return .encodedImage(cached.body)
        }
        return try fetch(tile, attempt: 0)
    }

    private func fetch(_ tile: TileID, attempt: Int) throws -> TilePayload? {
        let wait = paused()
        if wait > 0 { throw TileSourceError(String(cFormat: "the server asked to wait %.0f s", wait)) }
        let outcome = get(source.template.url(for: tile, retina: retina), headers: [])
        switch outcome {
        case let .response(r) where r.status == 200:
            guard isImage(r.body) else { throw TileSourceError("the server sent something that is not a picture") }
            let freshness = HTTPFreshness(headers: r.headers, receivedAt: Self.wallClock)
            cache?.store(r.body, freshness: freshness, for: tile, now: Self.wallClock)
            return .encodedImage(r.body)
        case let .response(r) where r.status == 404 || r.status == 204:
            return nil // no tile here: what is under it shows
        case let .response(r) where r.status == 429 || r.status == 503:
            let seconds = min(max(r.header("Retry-After").flatMap { Double($0.trimmed) } ?? 30, 1), 600)
            pause(for: seconds)
            throw TileSourceError(String(cFormat: "the server is busy (%d); waiting %.0f s", r.status, seconds))
        case let .response(r) where r.status >= 500 && attempt == 0:
            Self.backOff(attempt: attempt)
            return try fetch(tile, attempt: 1)
        case let .response(r):
            throw TileSourceError("the server answered \(r.status)")
        case let .failed(reason, retryable):
            if retryable && attempt == 0 {
                Self.backOff(attempt: attempt)
                return try fetch(tile, attempt: 1)
            }
            throw TileSourceError(reason)
        }
    }

    /// Asks whether a stale tile changed; whatever happens, the stale one was already shown.
    private func revalidate(_ tile: TileID, _ cached: TileDiskCache.Entry) {
        guard paused() <= 0 else { return }
        let url = source.template.url(for: tile, retina: retina)
        client.fetch(url, headers: cached.freshness.revalidationHeaders) { [cache, isImage] outcome in
            guard case let .response(r) = outcome else { return }
            let answer = HTTPFreshness(headers: r.headers, receivedAt: Self.wallClock)
            if r.status == 304 {
                cache?.refresh(tile, with: answer, now: Self.wallClock)
            } else if r.status == 200, isImage(r.body) {
                cache?.store(r.body, freshness: answer, for: tile, now: Self.wallClock)
            }
        }
    }

    /// Fetches on the network thread and waits here (a tile worker).
    private func get(_ url: String, headers: [String]) -> HTTPOutcome {
        let waiter = Waiter()
        client.fetch(url, headers: headers) { waiter.put($0) }
        return waiter.take()
    }

    private final class Waiter: @unchecked Sendable {
        private let condition = Condition()
        private var outcome: HTTPOutcome?
        func put(_ o: HTTPOutcome) { condition.lock(); outcome = o; condition.broadcast(); condition.unlock() }
        func take() -> HTTPOutcome {
            condition.lock(); defer { condition.unlock() }
            while outcome == nil { condition.wait() }
            return outcome!
        }
    }

    private func paused() -> Double {
        lock.lock(); defer { lock.unlock() }
        return pausedUntil - Self.wallClock
    }

    private func pause(for seconds: Double) {
        lock.lock(); defer { lock.unlock() }
        pausedUntil = max(pausedUntil, Self.wallClock + seconds)
    }

    /// A short wait before a second try, jittered so that tiles do not retry in step.
    private static func backOff(attempt: Int) {
        let seconds = 0.5 * Double(1 << attempt) * Double.random(in: 0.75...1.25)
        usleep(useconds_t(seconds * 1_000_000))
    }
}
