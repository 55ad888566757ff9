import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapNetwork
import MapTiles
import Platform

/// Routes from an OSRM server, by default FOSSGIS's (routing.openstreetmap.de), within its
/// terms: requests start at least `minimumInterval` apart for the whole process (one
/// `ServiceGate` per server), say who asks (the client's User-Agent), a 429 or 503's
/// Retry-After stops all requests until then, and the engine's name and OpenStreetMap's credit
/// go with every route. Answers are kept for the session (a route asked again costs no
/// request); failures never are.
public final class OSRMEngine: RouteEngine, @unchecked Sendable { // cache and requests under `lock`
    public let config: RoutingConfig
    private let client: HTTPClient
    private let gate: ServiceGate
    /// Seconds an answer may take.
    public let timeout: Double
    private let lock = Lock()
    private var cache: [String: Route] = [:]
    private var cacheOrder: [String] = []
    private var requests = 0

    public convenience init(config: RoutingConfig, client: HTTPClient, timeout: Double = 15) {
        self.init(config: config, client: client, timeout: timeout, gate: ServiceGate.shared(for: config.url))
    }

    /// With a gate of its own (tests: a fresh schedule whatever ran before on the same port).
    public init(config: RoutingConfig, client: HTTPClient, timeout: Double, gate: ServiceGate) {
        self.config = config
        self.client = client
        self.timeout = timeout
        self.gate = gate
    }

    public var name: String { config.url.lowercased().contains("openstreetmap.de") ? "OSRM (FOSSGIS)" : "OSRM" }
    public var isOnline: Bool { true }

    public func covers(_ request: RouteRequest) -> Bool { config.enabled && config.profiles[request.mode] != nil }

    public func delay(now: Double) -> Double { gate.delay(now: now, interval: config.minimumInterval) }

    /// Requests sent so far (what tests count; answers from the session's cache send none).
    public var requestCount: Int { lock.lock(); defer { lock.unlock() }; return requests }

    /// The address a route is asked at.
    public func url(for request: RouteRequest) -> String? {
        guard let profile = config.profiles[request.mode], request.waypoints.count >= 2 else { return nil }
        let points = request.waypoints.map { String(cFormat: "%.6f,%.6f", $0.longitude, $0.latitude) }.joined(separator: ";")
        return "\(config.url)/\(profile)/route/v1/driving/\(points)?overview=full&geometries=geojson&steps=true&alternatives=false"
    }

    public func route(_ request: RouteRequest, cancel: RouteCancellation) -> Result<Route, RouteError> {
        guard config.enabled else { return .failure(.disabled) }
        guard request.waypoints.allSatisfy(\.isValid) else { return .failure(.failed(tr("a waypoint is not a place on Earth"))) }
        guard let url = url(for: request) else { return .failure(.tooFewPoints) }
        lock.lock()
        if let kept = cache[url] { lock.unlock(); return .success(kept) }
        lock.unlock()
        // The turn: the router waited for it, but another engine on the same server may have
        // taken it since. Waits are short (the interval); a longer pause the server asked for
        // is said at once (the router does not wait silently through it).
        while !gate.claim(now: MonotonicClock.now, interval: config.minimumInterval) {
            let wait = gate.delay(now: MonotonicClock.now, interval: config.minimumInterval)
            if gate.isPaused(now: MonotonicClock.now) && wait > Router.longestPace + 1 { return .failure(.busy(seconds: Int(saturating: wait.rounded(.up)))) }
            if cancel.isCancelled { return .failure(.cancelled) }
            usleep(useconds_t(saturating: min(wait, 1) * 1e6) + 1000)
        }
        lock.lock(); requests += 1; lock.unlock()
        let outcome = fetch(url, cancel: cancel)
        switch outcome {
        case .none:
            return .failure(cancel.isCancelled ? .cancelled : .timedOut(seconds: Int(saturating: timeout.rounded(.up))))
        case let .response(r)?:
            return interpret(r, request, url)
        case let .failed(reason, _)?:
            return .failure(RouteError(failure: reason, limit: OSRMAnswer.maxBytes))
        }
    }

    private func interpret(_ r: HTTPResponse, _ request: RouteRequest, _ url: String) -> Result<Route, RouteError> {
        if r.status == 429 || (r.status == 503 && r.header("Retry-After") != nil) {
            let asked = r.header("Retry-After").flatMap { HTTPFreshness.retryAfter($0, now: WallClock.now) } ?? 30
            let seconds = min(max(asked, 1), 3600).rounded(.up)
            gate.pause(until: MonotonicClock.now + seconds)
            return .failure(.busy(seconds: Int(saturating: seconds)))
        }
        // OSRM says why a route is impossible in JSON with a 400 (NoRoute, NoSegment, …).
        if r.status == 200 || r.status == 400 {
            let result = OSRMAnswer.read(r.body, request: request, engine: name, credit: config.credit)
            if case let .success(route) = result { keep(route, url) }
            if case .failure(.unreadable) = result, r.status == 400 { return .failure(.refused(status: 400)) }
            return result
        }
        return .failure(RouteError(status: r.status))
    }

    private func keep(_ route: Route, _ url: String) {
        lock.lock(); defer { lock.unlock() }
        if cache[url] == nil { cacheOrder.append(url) }
        cache[url] = route
        // A session's dragging makes many routes; the last hundred are the ones asked again.
        while cacheOrder.count > 100 { cache[cacheOrder.removeFirst()] = nil }
    }

    /// The answer, or nil when it did not come in time or the route was cancelled.
    private func fetch(_ url: String, cancel: RouteCancellation) -> HTTPOutcome? {
        let answer = Awaited<HTTPOutcome>()
        let id = client.fetch(url, headers: ["Accept: application/json"], limit: OSRMAnswer.maxBytes) { answer.put($0) }
        let stopping = cancel.whenCancelled { answer.giveUp() }
        let outcome = answer.take(until: MonotonicClock.now + timeout)
        cancel.forget(stopping)
        if outcome == nil { client.cancel(id) }
        return outcome
    }
}
