import FoundationEssentials
import Glibc
import Platform

/// An animated turn of the view about its centre: the bearing goes from `from` to `to` the
/// shortest way round (350° to 10° passes north, through 20°, not back through 340°).
public struct TurnTransition: Hashable, Sendable {
    public var start: Double
    public var duration: Double
    public var from: Double
    /// Where it ends, in [0, 360).
    public var to: Double
    /// The signed turn from `from` to `to`, in (−180, 180].
    public let sweep: Double
    public var curve: TimingCurve

    public init(start: Double, duration: Double, from: Double, to: Double, curve: TimingCurve = .easeOut) {
        self.start = start
        self.duration = duration
        self.from = from
        self.to = Self.normalized(to)
        sweep = Self.shortestTurn(from: from, to: to)
        self.curve = curve
    }

    /// The bearing at time t (not brought into [0, 360): the camera does that).
    public func bearing(at t: Double) -> Double {
        if isFinished(at: t) { return to }
        let p = duration > 0 ? (t - start) / duration : 1
        return from + sweep * curve.value(at: p)
    }

    public func isFinished(at t: Double) -> Bool { t >= start + duration }

    /// An angle in degrees brought into [0, 360).
    public static func normalized(_ degrees: Double) -> Double { Camera.normalizedBearing(degrees) }

    /// The signed turn, in (−180, 180], that takes bearing `a` to bearing `b`.
    public static func shortestTurn(from a: Double, to b: Double) -> Double {
        let d = normalized(b - a)
        return d > 180 ? d - 360 : d
    }
}
