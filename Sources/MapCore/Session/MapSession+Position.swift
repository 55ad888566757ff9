import FoundationEssentials
import MapGeometry
import Platform

/// Live position: fixes from a position source move the location annotation; no fix for
/// `position.staleAfter` seconds, or a receiver that lost its fix, turns it grey, with a
/// notice; the next fix brings it back.
extension MapSession {
    /// Takes one event of the position source `source` (its name, for notices) at `t`.
    public mutating func receive(_ event: PositionEvent, from source: String, at t: Double) {
        switch event {
        case let .fix(f):
            if var loc = scene.location {
                loc.update(coordinate: f.coordinate, accuracy: f.accuracy, heading: f.heading, at: t)
                scene.location = loc
            } else {
                scene.location = LocationAnnotation(coordinate: f.coordinate, accuracy: f.accuracy, heading: f.heading,
                                                    color: position.color, halo: position.halo)
            }
            position.lastFix = t
            position.toldStale = false
            // Heading-up turns with the course (smoothed; unknown while standing still).
            controller.takeCourse(f.heading, at: t)
        case .noFix:
            guard var loc = scene.location, !loc.isStale else { return }
            loc.isStale = true
            scene.location = loc
            if !position.toldStale {
                position.toldStale = true
                // TRANSLATORS: %@ names the position source ("gpsd at 127.0.0.1:2947", "GeoClue").
                post(notice: tr("%@ has lost the position fix; the grey dot is where it was last", source))
            }
        case let .unavailable(reason):
            if position.told.insert(reason).inserted { post(notice: reason) }
        }
    }

    /// Turns the position grey when no fix came for `staleAfter` seconds.
    mutating func checkStaleness(at t: Double) {
        guard let deadline = staleDeadline, t >= deadline, var loc = scene.location else { return }
        loc.isStale = true
        scene.location = loc
        if !position.toldStale {
            position.toldStale = true
            // TRANSLATORS: %@ is a whole number of seconds.
            post(notice: tr("No position fix for %@ s; the grey dot is where it was last", String(cFormat: "%.0f", position.staleAfter ?? 0)))
        }
    }

    /// When a live position turns stale unless a fix comes first (clock seconds); nil when none waits.
    public var staleDeadline: Double? {
        guard let after = position.staleAfter, let last = position.lastFix, let loc = scene.location, !loc.isStale else { return nil }
        return last + after
    }
}

/// What the session keeps about the live position.
public struct PositionState: Sendable {
    /// The annotation's colour and pulse, for the first fix.
    public var color = Color.systemBlue
    public var halo = HaloPulse()
    /// Seconds without a fix before the position is shown as stale (nil: never, for a source
    /// that reports only when the device moves).
    public var staleAfter: Double? = 10
    /// What following asked for before the first fix says: the host's words for where a
    /// position comes from (nil: a sentence that names no source).
    public var noFixYet: String?
    /// When the last fix arrived (clock seconds); nil when no source gave one.
    var lastFix: Double?
    var toldStale = false
    /// Reasons already told (a source that keeps failing says so once).
    var told = Set<String>()
    public init() {}
}
