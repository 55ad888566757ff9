import MapCore
import MapPosition
import Platform

/// What a position source delivered, collected across its thread.
final class PositionEvents: @unchecked Sendable {
    let lock = Lock()
    var all: [PositionEvent] = []
    func add(_ e: PositionEvent) { lock.lock(); all.append(e); lock.unlock() }
    var snapshot: [PositionEvent] { lock.lock(); defer { lock.unlock() }; return all }
    var fixes: [PositionFix] { snapshot.compactMap { if case let .fix(f) = $0 { return f } else { return nil } } }
    var reasons: [String] { snapshot.compactMap { if case let .unavailable(r) = $0 { return r } else { return nil } } }
}

extension PositionSource {
    /// Starts the source, collecting what it delivers.
    func collect() -> PositionEvents {
        let events = PositionEvents()
        start { events.add($0) }
        return events
    }
}
