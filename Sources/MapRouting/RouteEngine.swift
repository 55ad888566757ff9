import MapCore
import Platform

/// Something that finds routes: Routino over an offline database, an online service, or an
/// engine an embedding app brings. `route` is called on a worker thread (the `Router`'s),
/// one request at a time per engine, and may take long: it should give up soon after
/// `cancel` says so.
public protocol RouteEngine: AnyObject, Sendable {
    /// The engine's name as shown with its routes ("Routino", "OSRM (FOSSGIS)").
    var name: String { get }
    /// Whether it asks a server (it is then not used with `--offline`, and it is paced).
    var isOnline: Bool { get }
    /// Whether it has what it needs for every point of `request` (an offline engine's data
    /// covers them; an online one says true).
    func covers(_ request: RouteRequest) -> Bool
    /// Seconds until the engine may be asked again (a service's pace); 0: at once.
    func delay(now: Double) -> Double
    /// The route, or why there is none.
    func route(_ request: RouteRequest, cancel: RouteCancellation) -> Result<Route, RouteError>
}

extension RouteEngine {
    public func delay(now: Double) -> Double { 0 }
}

/// Tells an engine at work that its answer is no longer wanted; it may have a process or a
/// request to end (`whenCancelled`, forgotten with `forget` once that work has ended).
public final class RouteCancellation: @unchecked Sendable { // its state under `lock`
    private let lock = Lock()
    private var cancelled = false
    private var handlers: [Int: @Sendable () -> Void] = [:]
    private var next = 0

    public init() {}

    public var isCancelled: Bool { lock.lock(); defer { lock.unlock() }; return cancelled }

    public func cancel() {
        lock.lock()
        guard !cancelled else { return lock.unlock() }
        cancelled = true
        let run = handlers.values
        handlers = [:]
        lock.unlock()
        for h in run { h() }
    }

    /// Runs `body` once when cancelled (at once if it is already); the handle forgets it.
    @discardableResult
    public func whenCancelled(_ body: @escaping @Sendable () -> Void) -> Int {
        lock.lock()
        if cancelled { lock.unlock(); body(); return -1 }
        next += 1
        handlers[next] = body
        let id = next
        lock.unlock()
        return id
    }

    /// Forgets the handler `id` (the work it would stop has ended); the others stay.
    public func forget(_ id: Int) {
        lock.lock(); handlers[id] = nil; lock.unlock()
    }
}
