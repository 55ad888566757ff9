import FoundationEssentials
import Glibc
import Platform

/// The thread a position source does its I/O on, and the flag that ends it: `stop` sets the
/// flag and waits for the thread, which checks `isStopping` at least every 50–200 ms.
final class SourceThread: @unchecked Sendable {
    private let lock = Lock()
    private var stopping = false
    private var thread: Joinable<Void>?

    func start(name: String, _ body: @escaping @Sendable (SourceThread) -> Void) {
        lock.lock(); stopping = false; lock.unlock()
        thread = Joinable(name: name) { [self] in body(self) }
    }

    /// `wake` interrupts whatever the thread waits in (a GLib main loop's poll).
    func stop(waking wake: () -> Void = {}) {
        lock.lock(); stopping = true; lock.unlock()
        wake()
        thread?.join()
        thread = nil
    }

    var isStopping: Bool {
        lock.lock(); defer { lock.unlock() }
        return stopping
    }

    /// Sleeps `seconds` in small steps, so that stop() is never kept waiting.
    func pause(_ seconds: Double) {
        let end = MonotonicClock.now + seconds
        while !isStopping, MonotonicClock.now < end { usleep(20_000) }
    }
}
