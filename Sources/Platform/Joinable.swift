import Glibc

/// Work running on a thread of its own, whose result is waited for: a joinable thread.
/// `join` must be called once (it is what keeps memory the work reads alive long enough).
public final class Joinable<T>: @unchecked Sendable {
    private let done = Condition()
    private var result: T?
    private var work: (@Sendable () -> T)?

    public init(name: String, _ body: @escaping @Sendable () -> T) {
        work = body
        startThread(name: name) { [self] in
            let value = runOnce()
            done.lock()
            result = value
            done.broadcast()
            done.unlock()
        }
    }

    /// Runs the work and lets it go before `join` returns: what it holds (a file's lock, an
    /// object with a deinit) is released on this thread before the waiter goes on, not at
    /// some moment after.
    private func runOnce() -> T {
        done.lock()
        let body = work!
        work = nil
        done.unlock()
        return body()
    }

    /// Waits for the work to end and gives its result.
    public func join() -> T {
        done.lock()
        defer { done.unlock() }
        while result == nil { done.wait() }
        return result!
    }
}

/// A value handed to another thread by a caller who knows it is safe to (the caller waits for
/// the thread before the value goes away, and nothing else touches it meanwhile).
public struct UncheckedSendable<T>: @unchecked Sendable {
    public var value: T
    public init(_ value: T) { self.value = value }
}

/// Processors online (at least 1): how many threads work split in pieces can keep busy.
public var processorCount: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

/// Runs `body(0)` … `body(count - 1)` at once, each on a thread of its own (the first on
/// the caller's), and returns when all have ended.
public func inParallel(_ count: Int, name: String, _ body: @escaping @Sendable (Int) -> Void) {
    let others = (1..<max(count, 1)).map { k in Joinable(name: "\(name)-\(k)") { body(k) } }
    body(0)
    for o in others { o.join() }
}
