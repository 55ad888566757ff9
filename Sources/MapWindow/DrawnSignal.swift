import Platform

/// Whether the last frame showed everything asked for, set on the frame thread and read or
/// waited for on any other (`MapHost.isDrawn`, `waitUntilDrawn`).
final class DrawnSignal: @unchecked Sendable { // its flag is read and written under its condition's lock
    private let condition = Condition()
    private var flag = false

    var value: Bool {
        condition.lock(); defer { condition.unlock() }
        return flag
    }

    func set(_ drawn: Bool) {
        condition.lock()
        flag = drawn
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until it is set, or until `deadline` (`MonotonicClock` seconds).
    func wait(until deadline: Double) {
        condition.lock()
        while !flag, condition.wait(until: deadline) {}
        condition.unlock()
    }
}
