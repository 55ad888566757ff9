import Foundation
import MapCore
import MapPosition

/// What a position source delivered, collected across its thread.
final class PositionEvents: @unchecked Sendable {
    let lock = NSLock()
    var all: [PositionEvent] = []
    func add(_ e: PositionEvent) { lock.lock(); all.append(e); lock.unlock() }
    var snapshot: [PositionEvent] { lock.lock(); defer { lock.unlock() }; return all }
    var fixes: [PositionFix] { snapshot.compactMap { if case let .fix(f) = $0 { return f } else { return nil } } }
    var reasons: [String] { snapshot.compactMap { if case let .unavailable(r) = $0 { return r } else { return nil } } }
}

/// Waits up to `seconds` for `done`; whether it came true.
func waitFor(_ seconds: Double, _ done: () -> Bool) -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while !done(), Date() < end { Thread.sleep(forTimeInterval: 0.05) }
    return done()
}

extension PositionSource {
    /// Starts the source, collecting what it delivers.
    func collect() -> PositionEvents {
        let events = PositionEvents()
        start { events.add($0) }
        return events
    }
}
