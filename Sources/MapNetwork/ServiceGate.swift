import Platform

/// When the next request to a shared service (a geocoder, a routing server) may start, for the
/// whole process: Nominatim's and FOSSGIS's policies count requests per application, not per
/// search box or route, so everything asking the same service shares one gate (`shared(for:)`).
/// Starts are at least the configured interval apart, and none comes before a time the service
/// asked for (Retry-After). Times are `MonotonicClock` seconds, passed in so that the schedule
/// can be tested as it is.
public final class ServiceGate: @unchecked Sendable {
    private let lock = Lock()
    private var lastStart = -Double.infinity
    private var notBefore = -Double.infinity

    public init() {}

    /// Seconds from `now` until a request may start (0 when it may start now).
    public func delay(now: Double, interval: Double) -> Double {
        lock.lock(); defer { lock.unlock() }
        return delayLocked(now: now, interval: interval)
    }

    /// Takes the turn if it has come: true, and the request is counted as started `now`.
    public func claim(now: Double, interval: Double) -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard delayLocked(now: now, interval: interval) <= 0 else { return false }
        lastStart = now
        return true
    }

    /// No request before `time` (the service said so).
    public func pause(until time: Double) {
        lock.lock(); defer { lock.unlock() }
        notBefore = max(notBefore, time)
    }

    /// Whether the wait is one the service asked for, rather than the interval's.
    public func isPaused(now: Double) -> Bool {
        lock.lock(); defer { lock.unlock() }
        return notBefore > now
    }

    private func delayLocked(now: Double, interval: Double) -> Double {
        max(0, max(lastStart + interval, notBefore) - now)
    }

    private static let registryLock = Lock()
    nonisolated(unsafe) private static var registry: [String: ServiceGate] = [:] // under `registryLock`

    /// The gate of the service at `url` (its scheme, host and port: one service however its
    /// paths are written).
    public static func shared(for url: String) -> ServiceGate {
        let lower = url.lowercased()
        let afterScheme = lower.firstRange(of: "://").map { lower[$0.upperBound...] } ?? lower[...]
        let origin = lower[..<afterScheme.startIndex] + afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        registryLock.lock(); defer { registryLock.unlock() }
        if let gate = registry[String(origin)] { return gate }
        // Few services are ever configured; a bound keeps a hostile caller from growing it.
        if registry.count >= 64 { registry.removeAll() }
        let gate = ServiceGate()
        registry[String(origin)] = gate
        return gate
    }
}
