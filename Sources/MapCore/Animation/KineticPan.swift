import FoundationEssentials
import Glibc
import Platform

/// Momentum after a flick: velocity decays exponentially, v(t) = v0·e^(−t/τ), so the
/// distance travelled is v0·τ·(1 − e^(−t/τ)) and the map glides to a stop at v0·τ.
public struct KineticPan: Hashable, Sendable {
    public var start: Double
    /// Initial velocity of the content in points per second.
    public var velocity: ScreenPoint
    /// Time constant in seconds.
    public var timeConstant: Double
    /// Below this speed (points per second) the glide is over.
    public static let stopSpeed = 8.0

    public init(start: Double, velocity: ScreenPoint, timeConstant: Double = 0.325) {
        self.start = start
        self.velocity = velocity
        self.timeConstant = timeConstant
    }

    public func offset(at t: Double) -> ScreenPoint {
        let dt = min(max(t - start, 0), duration)
        let k = timeConstant * (1 - exp(-dt / timeConstant))
        return ScreenPoint(x: velocity.x * k, y: velocity.y * k)
    }

    public func speed(at t: Double) -> Double { velocity.length * exp(-max(t - start, 0) / timeConstant) }

    /// How long until the speed falls below `stopSpeed`.
    public var duration: Double {
        let v = velocity.length
        return v > Self.stopSpeed ? timeConstant * log(v / Self.stopSpeed) : 0
    }

    public func isFinished(at t: Double) -> Bool { t >= start + duration }
}

/// Estimates release velocity from the last pointer samples of a drag.
public struct VelocityTracker: Sendable {
    private var samples: [(t: Double, p: ScreenPoint)] = []
    /// Only motion this recent counts.
    public static let window = 0.1
    /// A pointer that rested this long before release throws nothing.
    public static let restThreshold = 0.05

    public init() {}

    public mutating func reset() { samples.removeAll(keepingCapacity: true) }

    public mutating func add(_ p: ScreenPoint, at t: Double) {
        samples.append((t, p))
        while let first = samples.first, t - first.t > Self.window { samples.removeFirst() }
    }

    /// Velocity in points per second at release time `t`; zero if the pointer was still.
    public func velocity(releasedAt t: Double) -> ScreenPoint {
        guard let last = samples.last, t - last.t <= Self.restThreshold,
              let first = samples.first(where: { last.t - $0.t <= Self.window }) else { return ScreenPoint(x: 0, y: 0) }
        let dt = last.t - first.t
        guard dt >= 0.008 else { return ScreenPoint(x: 0, y: 0) }
        var v = ScreenPoint(x: (last.p.x - first.p.x) / dt, y: (last.p.y - first.p.y) / dt)
        let speed = v.length, maxSpeed = 6000.0
        if speed > maxSpeed { v = ScreenPoint(x: v.x * maxSpeed / speed, y: v.y * maxSpeed / speed) }
        return v
    }
}
