import FoundationEssentials
import Glibc
import Platform
import Dispatch
import MapCore

/// Saves pins off the frame thread: each change hands over the whole collection, the latest
/// one wins (a burst of changes is one write), and every write is atomic. `flush` waits for
/// the last write, for quitting.
public final class PinSaver: @unchecked Sendable {
    public let file: PinFile
    private let queue = DispatchQueue(label: "meridian.pins.save", qos: .utility)
    private let lock = Lock()
    private var pending: [Pin]?
    private var scheduled = false
    /// Told of a failed save (on the saving thread) with a message for the user.
    private let onError: @Sendable (String) -> Void
    /// Saves done, for tests and the curious.
    public private(set) var saves = 0

    public init(file: PinFile, onError: @escaping @Sendable (String) -> Void) {
        self.file = file
        self.onError = onError
    }

    public func save(_ pins: [Pin]) {
        lock.lock()
        pending = pins
        let start = !scheduled
        scheduled = true
        lock.unlock()
        if start { queue.async { self.drain() } }
    }

    /// Returns once everything handed over is on disk (or has failed and been reported): a
    /// save schedules its drain before returning, and a drain runs until nothing is pending.
    public func flush() {
        queue.sync {}
    }

    private func drain() {
        while true {
            lock.lock()
            guard let pins = pending else { scheduled = false; lock.unlock(); return }
            pending = nil
            lock.unlock()
            do {
                try file.save(pins)
                saves += 1
            } catch {
                // The pins are still in memory; the next change tries again.
                // TRANSLATORS: %@ says why.
                onError(tr("could not save pins: %@", error))
            }
        }
    }
}
