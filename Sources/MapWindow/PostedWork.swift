import Platform

/// Work other threads hand to the frame thread (`MapHost.perform`), run there before the next
/// frame. Guarded by a condition, signalled when work is posted.
// @unchecked: every field is read and written under `posted`.
final class PostedWork: @unchecked Sendable {
    private let posted = Condition()
    private var work: [@Sendable (MapHost) -> Void] = []

    func post(_ body: @escaping @Sendable (MapHost) -> Void) {
        posted.lock()
        work.append(body)
        posted.broadcast()
        posted.unlock()
    }

    var isEmpty: Bool {
        posted.lock(); defer { posted.unlock() }
        return work.isEmpty
    }

    /// Sleeps until `deadline` (`MonotonicClock` seconds), or until work is posted: what a
    /// worker hands over (a file read) waits for no frame's latch.
    func sleep(until deadline: Double) {
        posted.lock(); defer { posted.unlock() }
        while work.isEmpty, posted.wait(until: deadline) {}
    }

    /// The work posted so far, in order; the queue is empty after.
    func take() -> [@Sendable (MapHost) -> Void] {
        posted.lock(); defer { posted.unlock() }
        defer { work.removeAll() }
        return work
    }
}
