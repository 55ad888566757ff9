import MapCore
import Platform

/// Finds routes on a thread of its own, one at a time: the engine for a request is the first
/// offline one whose data covers its points, else the first online one (unless offline was
/// asked). While a route is being found, a newer request waits; a newer one still replaces
/// it (the replaced one is told `.superseded`), so a dragged waypoint costs one route per
/// turn of the engine, always for the newest position. An online engine's pace is waited
/// for here, where a newer request can still replace the waiting one.
public final class Router: @unchecked Sendable {
    public typealias Done = @Sendable (Result<Route, RouteError>) -> Void

    /// Which engines a request may use.
    public enum Preference: Sendable { case any, offline, online }

    private struct Job {
        let request: RouteRequest
        let preference: Preference
        let done: Done
    }

    private let condition = Condition()
    private var engineList: [RouteEngine]
    private var pending: Job?
    private var current: RouteCancellation?
    private var started = false
    private var stopped = false
    private var busy = false

    public init(engines: [RouteEngine] = []) {
        engineList = engines
    }

    deinit { stop() }

    /// The engines, in the order they are tried.
    public var engines: [RouteEngine] {
        get { condition.lock(); defer { condition.unlock() }; return engineList }
        set { condition.lock(); engineList = newValue; condition.unlock() }
    }

    /// Whether a route is being found or waits to be.
    public var isBusy: Bool { condition.lock(); defer { condition.unlock() }; return busy || pending != nil }

    /// The engine `request` would go to, or why none.
    public func engine(for request: RouteRequest, preference: Preference = .any) -> Result<RouteEngine, RouteError> {
        Self.choose(engines, request, preference)
    }

    static func choose(_ engines: [RouteEngine], _ request: RouteRequest, _ preference: Preference) -> Result<RouteEngine, RouteError> {
        guard request.waypoints.count >= 2 else { return .failure(.tooFewPoints) }
        if preference != .online, let e = engines.first(where: { !$0.isOnline && $0.covers(request) }) { return .success(e) }
        if preference != .offline, let e = engines.first(where: { $0.isOnline && $0.covers(request) }) { return .success(e) }
        if preference == .online { return .failure(.disabled) }
        return .failure(.notCovered)
    }

    /// Finds a route for `request`; `done` is called once, on the router's thread (keep it
    /// short: hand the result to the frame loop's queue).
    public func route(_ request: RouteRequest, preference: Preference = .any, done: @escaping Done) {
        condition.lock()
        guard !stopped else { condition.unlock(); return done(.failure(.cancelled)) }
        if !started {
            started = true
            startThread(name: "router") { [self] in run() }
        }
        let replaced = pending
        pending = Job(request: request, preference: preference, done: done)
        condition.broadcast()
        condition.unlock()
        replaced?.done(.failure(.superseded))
    }

    /// Drops the waiting request and stops the one under way (each told `.cancelled`).
    public func cancel() {
        condition.lock()
        let waiting = pending
        pending = nil
        let running = current
        condition.unlock()
        running?.cancel()
        waiting?.done(.failure(.cancelled))
    }

    /// Cancels everything and ends the thread; later requests are told `.cancelled` at once.
    public func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
        cancel()
    }

    /// Waits until no route is being found or waiting (tests, the command line).
    public func waitUntilIdle() {
        condition.lock(); defer { condition.unlock() }
        while busy || pending != nil { condition.wait() }
    }

    private func run() {
        condition.lock()
        while true {
            if stopped { condition.broadcast(); condition.unlock(); return }
            guard let job = pending else { condition.wait(); continue }
            let chosen = Self.choose(engineList, job.request, job.preference)
            if case let .success(engine) = chosen {
                let wait = engine.delay(now: MonotonicClock.now)
                if wait > 0 {
                    // Waiting for the service's turn; a newer request may take this one's place.
                    _ = condition.wait(until: MonotonicClock.now + wait)
                    continue
                }
            }
            pending = nil
            busy = true
            let token = RouteCancellation()
            current = token
            condition.unlock()
            let result: Result<Route, RouteError>
            switch chosen {
            case let .success(engine): result = token.isCancelled ? .failure(.cancelled) : engine.route(job.request, cancel: token)
            case let .failure(error): result = .failure(error)
            }
            token.done()
            job.done(token.isCancelled ? .failure(.cancelled) : result)
            condition.lock()
            current = nil
            busy = false
            condition.broadcast()
        }
    }
}
