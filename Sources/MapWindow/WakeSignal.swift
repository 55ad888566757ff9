import CSDL2
import Platform

/// Wakes the frame loop from a worker thread with one SDL user event, coalesced. Closed
/// before the window goes: on X11 SDL wakes a waiting loop with an XSendEvent to the window,
/// and one sent to a window already destroyed is a fatal X error.
final class WakeSignal: @unchecked Sendable {
    private let lock = Lock()
    private var pending = false
    private var closed = false
    private let eventType: UInt32

    init(eventType: UInt32) { self.eventType = eventType }

    func signal() {
        // Held while pushing, so that close() returns only once no push is under way.
        lock.lock(); defer { lock.unlock() }
        guard !pending, !closed else { return }
        pending = true
        var e = SDL_Event()
        e.type = eventType
        SDL_PushEvent(&e)
    }

    /// No more wake-ups (workers may still finish; their results are dropped with the host).
    func close() {
        lock.lock(); closed = true; lock.unlock()
    }

    func clear() {
        lock.lock(); pending = false; lock.unlock()
    }
}
