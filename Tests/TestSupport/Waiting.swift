import Glibc
import Platform

/// Waits until `done` holds, looking every few milliseconds; whether it came true. The
/// deadline (seconds from now) only keeps a broken build from hanging forever: a test asserts
/// that `done` came true, never how soon, so make it generous.
public func waitUntil(deadline seconds: Double = 30, _ done: () -> Bool) -> Bool {
    let end = MonotonicClock.now + seconds
    while !done() {
        if MonotonicClock.now > end { return done() }
        usleep(5_000)
    }
    return true
}

/// Runs `work` on a thread of its own and waits for it to return; whether it did. As with
/// `waitUntil`, the deadline only guards against a hang (a join that never comes).
public func returns(deadline seconds: Double = 30, _ work: @escaping @Sendable () -> Void) -> Bool {
    let ended = Ended()
    startThread(name: "test-returns") {
        work()
        ended.condition.lock(); ended.done = true; ended.condition.broadcast(); ended.condition.unlock()
    }
    let end = MonotonicClock.now + seconds
    ended.condition.lock(); defer { ended.condition.unlock() }
    while !ended.done { if !ended.condition.wait(until: end) { return ended.done } }
    return true
}

private final class Ended: @unchecked Sendable {
    let condition = Condition()
    var done = false
}
