/// A value one thread hands to another that waits for it: the answer to a request made on
/// the network's thread, waited for on a worker.
public final class Awaited<Value: Sendable>: @unchecked Sendable { // `value` and `givenUp` under `condition`
    private let condition = Condition()
    private var value: Value?
    private var givenUp = false

    public init() {}

    /// Hands the value over and wakes the waiter.
    public func put(_ v: Value) {
        condition.lock()
        value = v
        condition.broadcast()
        condition.unlock()
    }

    /// Ends the wait with what came so far (nothing, if nothing did): the request was cancelled.
    public func giveUp() {
        condition.lock()
        givenUp = true
        condition.broadcast()
        condition.unlock()
    }

    /// The value, once it came; nil when the wait was given up or `deadline` (MonotonicClock
    /// seconds) passed first.
    public func take(until deadline: Double = .infinity) -> Value? {
        condition.lock()
        defer { condition.unlock() }
        while value == nil && !givenUp {
            if !condition.wait(until: deadline) { break }
        }
        return value
    }
}
