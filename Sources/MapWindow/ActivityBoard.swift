import FoundationEssentials
import MapCore
import Platform

/// Work the user waits for (opening a large file), from any thread: the window shows the
/// oldest at the bottom once it has taken `delay` seconds, redraws it while it lasts, and
/// Esc cancels them all.
public final class ActivityBoard: @unchecked Sendable {
    private struct Activity {
        let id: Int
        let started: Double
        let text: @Sendable () -> String
        let cancel: @Sendable () -> Void
    }

    /// Quick work is not worth a flash of text.
    public static let delay = 0.5
    private let lock = Lock()
    private var activities: [Activity] = []
    private var nextID = 0
    private let wake: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

    /// Starts showing an activity; `text` is asked for each time it is drawn. Returns the id
    /// to end it with.
    public func begin(text: @escaping @Sendable () -> String, cancel: @escaping @Sendable () -> Void) -> Int {
        lock.lock()
        nextID += 1
        let id = nextID
        activities.append(Activity(id: id, started: MonotonicClock.now, text: text, cancel: cancel))
        lock.unlock()
        return id
    }

    public func end(_ id: Int) {
        lock.lock()
        activities.removeAll { $0.id == id }
        lock.unlock()
        wake()
    }

    /// Whether any activity is under way (the loop then wakes to redraw it).
    var isBusy: Bool {
        lock.lock(); defer { lock.unlock() }
        return !activities.isEmpty
    }

    /// What the window shows now: the oldest activity's text once it is `delay` old.
    var status: String? {
        lock.lock()
        let first = activities.first
        lock.unlock()
        guard let first, MonotonicClock.now - first.started >= Self.delay else { return nil }
        return first.text()
    }

    /// Esc: cancels every activity; false when there was none.
    func cancelAll() -> Bool {
        lock.lock()
        let all = activities
        lock.unlock()
        for a in all { a.cancel() }
        return !all.isEmpty
    }
}
