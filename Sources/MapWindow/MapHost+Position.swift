import FoundationEssentials
import MapCore
import MapGeometry

/// Live position: fixes from a position source (through `perform`, on the frame thread) move
/// the location annotation; no fix for `staleAfter` seconds, or a receiver that lost its fix,
/// turns it grey, with a notice; the next fix brings it back.
extension MapHost {
    /// Seconds without a fix before the position is shown as stale.
    public static let staleAfter = 10.0

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
        guard let last = position.lastFix, var loc = state.location, !loc.isStale, clock.now - last >= Self.staleAfter else { return }
        loc.isStale = true
        state.location = loc
        if !position.toldStale {
            position.toldStale = true
            showNotice(String(cFormat: "No position fix for %.0f s; the grey dot is where it was last", Self.staleAfter))
        }
    }

    /// When a live position turns stale unless a fix comes first (`clock` seconds); nil when none waits.
    var staleDeadline: Double? {
        guard let last = position.lastFix, let loc = state.location, !loc.isStale else { return nil }
        return last + Self.staleAfter
    }
}

/// What the host keeps about the live position.
public struct PositionState {
    /// The annotation's colour and pulse, for the first fix.
    public var color = Color.systemBlue
    public var halo = HaloPulse()
    /// When the last fix arrived (`clock` seconds); nil when no source gave one.
    var lastFix: Double?
    var toldStale = false
    /// Reasons already told (a source that keeps failing says so once).
    var told = Set<String>()
}
