/// One value behind a lock: a memo a value type keeps of its last result (layers are
/// structs shared with other threads, so what they remember between frames lives here).
public final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value?

    public init() {}

    public func get() -> Value? { lock.lock(); defer { lock.unlock() }; return value }
    public func set(_ v: Value?) { lock.lock(); value = v; lock.unlock() }
    /// Reads and changes the value in one hold of the lock.
    public func update<R>(_ body: (inout Value?) -> R) -> R { lock.lock(); defer { lock.unlock() }; return body(&value) }
}
