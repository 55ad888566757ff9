import MapCore
import Platform

/// Finds routes on a thread of its own, one at a time: the engines for a request are the
/// offline ones whose data covers its points, then the online ones (unless offline was
/// asked); the next is tried when one's data does not serve the points (no road near, no
/// database). While a route is being found, a newer request waits; a newer one still replaces
/// it (the replaced one is told `.superseded`), so a dragged waypoint costs one route per
/// turn of the engine, always for the newest position. An online engine's pace (a second) is
/// waited for here, where a newer request can still replace the waiting one; a longer pause
/// the service asked for is the engine's to say (`.busy`), not a silent wait.
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

    /// Adds `engine`, tried before the others (`first`) or after them.
    public func add(_ engine: RouteEngine, first: Bool) {
        condition.lock(); defer { condition.unlock() }
        if first { engineList.insert(engine, at: 0) } else { engineList.append(engine) }
    }

    /// Takes out the engines `gone` says (a saved area deleted).
    public func remove(where gone: (RouteEngine) -> Bool) {
        condition.lock(); defer { condition.unlock() }
        engineList.removeAll(where: gone)
    }

    /// The engine `request` would go to, or why none.
    public func engine(for request: RouteRequest, preference: Preference = .any) -> Result<RouteEngine, RouteError> {
        Self.choose(engines, request, preference)
    }

    static func choose(_ engines: [RouteEngine], _ request: RouteRequest, _ preference: Preference) -> Result<RouteEngine, RouteError> {
        candidates(engines, request, preference).map { $0[0] }
    }

    /// The engines to try, in order, or why there are none.
    static func candidates(_ engines: [RouteEngine], _ request: RouteRequest, _ preference: Preference) -> Result<[RouteEngine], RouteError> {
        guard request.waypoints.count >= 2 else { return .failure(.tooFewPoints) }
        var list: [RouteEngine] = []
        if preference != .online { list += engines.filter { !$0.isOnline && $0.covers(request) } }
        if preference != .offline { list += engines.filter { $0.isOnline && $0.covers(request) } }
        if !list.isEmpty { return .success(list) }
        return .failure(preference == .online ? .disabled : .notCovered)
    }

    /// Whether another engine may serve what this one's data did not.
    static func triesNext(_ error: RouteError) -> Bool {
        switch error {
        case .noRoadNear, .notCovered, .databaseMissing, .databaseDamaged, .engineMissing: return true
        default: return false
        }
    }

    /// Waits no longer than this for an online engine's turn: its pace, not a pause.
    static let longestPace = 2.0

    /// Finds a route for `request`; `done` is called once: on the router's thread with the
    /// route or why none, or on the thread of the call that replaced or cancelled it (keep it
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
            let chosen = Self.candidates(engineList, job.request, job.preference)
            if case let .success(list) = chosen {
                let wait = list[0].delay(now: MonotonicClock.now)
                if wait > 0 && wait <= Self.longestPace {
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
            var result: Result<Route, RouteError> = .failure(.notCovered)
            switch chosen {
            case let .success(list):
                for engine in list {
                    if token.isCancelled { result = .failure(.cancelled); break }
                    result = engine.route(job.request, cancel: token)
                    // The first engine's word stands unless its data could not serve the points.
                    if case let .failure(e) = result, Self.triesNext(e) { continue }
                    break
                }
            case let .failure(error): result = .failure(error)
            }
            job.done(token.isCancelled ? .failure(.cancelled) : result)
            condition.lock()
            current = nil
            busy = false
            condition.broadcast()
        }
    }
}
