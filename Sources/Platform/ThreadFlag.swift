import Glibc

/// A yes/no that each thread has its own of (pthread thread-specific data): a mode one thread
/// works in without its neighbours seeing it, such as drawing for a page instead of a screen.
public final class ThreadFlag: @unchecked Sendable {
    private var key = pthread_key_t()

    public init() { pthread_key_create(&key, nil) }

    public var isSet: Bool { pthread_getspecific(key) != nil }

    /// Runs `body` with the flag set on this thread, then clears it.
    public func with<T>(_ body: () throws -> T) rethrows -> T {
        let was = pthread_getspecific(key)
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
        defer { pthread_setspecific(key, was) }
        return try body()
    }
}
