import CSystem
import Glibc

/// A mutual-exclusion lock (pthread), what NSLock was before the app left full Foundation.
public final class Lock: @unchecked Sendable {
    fileprivate let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }
}

/// A lock with a condition to wait on (NSCondition's role): lock, wait until signalled, unlock.
public final class Condition: @unchecked Sendable {
    private let lockObject: Lock
    private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public convenience init() { self.init(lock: Lock()) }

    /// A further condition on the lock of `other`: waiters for different things wait apart,
    /// and waking one kind leaves the others asleep.
    public convenience init(sharingLockOf other: Condition) { self.init(lock: other.lockObject) }

    private init(lock: Lock) {
        lockObject = lock
        // Deadlines are measured on the monotonic clock, which wall-clock changes cannot move.
        var attr = pthread_condattr_t()
        pthread_condattr_init(&attr)
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC)
        pthread_cond_init(cond, &attr)
        pthread_condattr_destroy(&attr)
    }

    deinit {
        pthread_cond_destroy(cond)
        cond.deallocate()
    }

    public func lock() { lockObject.lock() }
    public func unlock() { lockObject.unlock() }
    public func wait() { pthread_cond_wait(cond, lockObject.mutex) }
    public func broadcast() { pthread_cond_broadcast(cond) }
    /// Wakes one waiter (if any waits).
    public func signal() { pthread_cond_signal(cond) }

    /// Waits until signalled or `deadline` (seconds on `MonotonicClock.now`); false on time-out.
    public func wait(until deadline: Double) -> Bool {
        guard deadline.isFinite else { wait(); return true }
        var ts = timespec()
        let whole = deadline.rounded(.down)
        ts.tv_sec = Int(saturating: whole)
        ts.tv_nsec = Int(saturating: (deadline - whole) * 1e9)
        return pthread_cond_timedwait(cond, lockObject.mutex, &ts) == 0
    }
}

/// Seconds since 1970 on the wall clock (for what outlives the process: cache lifetimes,
/// the times of recorded fixes).
public enum WallClock {
    public static var now: Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// Seconds on the monotonic clock (not wall time: never jumps).
public enum MonotonicClock {
    public static var now: Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// CPU seconds the calling thread has run (user + system).
    public static var threadCPU: Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// Starts `body` on a new detached thread named `name` (Thread.detachNewThread's role).
public func startThread(name: String, _ body: @escaping @Sendable () -> Void) {
    let box = Unmanaged.passRetained(ThreadBox(body, name)).toOpaque()
    var thread = pthread_t()
    var attr = pthread_attr_t()
    pthread_attr_init(&attr)
    pthread_attr_setdetachstate(&attr, Int32(PTHREAD_CREATE_DETACHED))
    let rc = pthread_create(&thread, &attr, { raw in
        let box = Unmanaged<ThreadBox>.fromOpaque(raw!).takeRetainedValue()
        meridian_set_thread_name(box.name)
        box.body()
        return nil
    }, box)
    pthread_attr_destroy(&attr)
    if rc != 0 {
        // No thread could be had: run it here rather than lose the work.
        Unmanaged<ThreadBox>.fromOpaque(box).release()
        body()
    }
}

private final class ThreadBox {
    let body: @Sendable () -> Void
    let name: String
    init(_ body: @escaping @Sendable () -> Void, _ name: String) { self.body = body; self.name = name }
}
