import FoundationEssentials
import MapCore
import MapGeometry

/// Live position: fixes from a position source (through `perform`, on the frame thread) move
/// the location annotation; no fix for `position.staleAfter` seconds, or a receiver that lost
/// its fix, turns it grey, with a notice; the next fix brings it back.
extension MapHost {
    /// Takes one event of the position source `source` (its name, for notices).
    public func receive(_ event: PositionEvent, from source: String) {
        let now = clock.now
        switch event {
        case let .fix(f):
            if var loc = state.location {
                loc.update(coordinate: f.coordinate, accuracy: f.accuracy, heading: f.heading, at: now)
                state.location = loc
            } else {
                state.location = LocationAnnotation(coordinate: f.coordinate, accuracy: f.accuracy, heading: f.heading,
                                                    color: position.color, halo: position.halo)
            }
            position.lastFix = now
            position.toldStale = false
        case .noFix:
            guard var loc = state.location, !loc.isStale else { return }
            loc.isStale = true
            state.location = loc
            if !position.toldStale { position.toldStale = true; showNotice("\(source) has lost the position fix; the grey dot is where it was last") }
        case let .unavailable(reason):
            if position.told.insert(reason).inserted { showNotice(reason) }
        }
    }

    /// Turns the position grey when no fix came for `staleAfter` seconds (each frame, and when
    /// the idle loop wakes at `staleDeadline`).
    func checkStaleness() {
        guard let deadline = staleDeadline, clock.now >= deadline, var loc = state.location else { return }
        loc.isStale = true
        state.location = loc
        if !position.toldStale {
            position.toldStale = true
            showNotice(String(cFormat: "No position fix for %.0f s; the grey dot is where it was last", position.staleAfter ?? 0))
        }
    }

    /// When a live position turns stale unless a fix comes first (`clock` seconds); nil when none waits.
    var staleDeadline: Double? {
        guard let after = position.staleAfter, let last = position.lastFix, let loc = state.location, !loc.isStale else { return nil }
        return last + after
    }
}

/// What the host keeps about the live position.
public struct PositionState {
    /// The annotation's colour and pulse, for the first fix.
    public var color = Color.systemBlue
    public var halo = HaloPulse()
    /// Seconds without a fix before the position is shown as stale (nil: never, for a source
    /// that reports only when the device moves).
    public var staleAfter: Double? = 10
    /// When the last fix arrived (`clock` seconds); nil when no source gave one.
    var lastFix: Double?
    var toldStale = false
    /// Reasons already told (a source that keeps failing says so once).
    var told = Set<String>()
}
