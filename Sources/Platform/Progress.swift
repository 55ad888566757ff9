/// How far a long piece of work has come, and whether the user asked to stop it: written by
/// the workers doing it, read (and cancelled) from the frame thread.
public final class Progress: @unchecked Sendable {
    private let lock = Lock()
    private var done = 0
    private var total: Int
    private var stopped = false

    /// `total`: units of work (bytes of a file), 0 when unknown.
    public init(total: Int = 0) { self.total = total }

    /// Adds `units` done; false once the work is cancelled (the worker should stop).
    @discardableResult
    public func advance(by units: Int) -> Bool {
        lock.lock(); defer { lock.unlock() }
        done += units
        return !stopped
    }

    /// 0…1, nil when the total is unknown.
    public var fraction: Double? {
        lock.lock(); defer { lock.unlock() }
        return total > 0 ? min(Double(done) / Double(total), 1) : nil
    }

    public func cancel() {
        lock.lock(); stopped = true; lock.unlock()
    }

    public var isCancelled: Bool {
        lock.lock(); defer { lock.unlock() }
        return stopped
    }
}

/// The work was cancelled by the user.
public struct CancelledError: Error, CustomStringConvertible {
    public init() {}
    // TRANSLATORS: the work was stopped by the user.
    public var description: String { tr("cancelled") }
}
