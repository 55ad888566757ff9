import Platform

/// What any thread may do with a host: hand work to its frame thread, and say something on the
/// map. A worker keeps this, not the host: the host is reached only by the work, on the frame
/// thread, so no wrapper has to promise what the compiler cannot check.
public struct MapHostHandle: Sendable {
    let posted: PostedWork
    let wake: WakeSignal
    let drawn: DrawnSignal

    /// Runs `body` on the frame thread before the next frame (waking an idle loop): how
    /// workers hand results to the map.
    public func perform(_ body: @escaping @Sendable (MapHost) -> Void) {
        posted.post(body)
        wake.signal()
    }

    /// Waits until the window has drawn everything asked for, or `timeout` seconds (as
    /// `MapHost.waitUntilDrawn`, from any thread).
    public func waitUntilDrawn(timeout: Double) { drawn.wait(until: MonotonicClock.now + timeout) }

    /// Shows `message` as a notice on the map.
    public func showNotice(_ message: String) {
        perform { $0.session.post(notice: message) }
    }
}
