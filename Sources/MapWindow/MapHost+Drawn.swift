import FoundationEssentials
import Platform

/// Whether the window shows everything asked for: work that can wait waits for it.
extension MapHost {
    /// Whether the last frame showed everything asked for (tiles, labels, files being read):
    /// work that can wait (a track's statistics) waits for it, so as not to slow the map.
    public var isDrawn: Bool { drawn.value }

    /// What is shown is about to change (call on the frame thread): `isDrawn` is false until
    /// a frame shows it all.
    public func markUndrawn() { setDrawn(false) }

    func setDrawn(_ whole: Bool) { drawn.set(whole) }

    /// Waits (on a worker) until the window has drawn everything asked for, or `timeout`
    /// seconds; call after what changes the picture was handed over with `perform`.
    public func waitUntilDrawn(timeout: Double) { drawn.wait(until: MonotonicClock.now + timeout) }
}
