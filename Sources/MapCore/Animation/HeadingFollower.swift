import FoundationEssentials
import Glibc
import Platform

/// The bearing a heading-up view turns to: the position's course, smoothed so that a noisy
/// receiver does not rock the map. Courses are averaged as directions (unit vectors, so 359°
/// and 1° average to north, not 180°); the view follows the average only once it has moved
/// more than a few degrees from where the view points, and turns there gently. With no course
/// for a while (standing still, no fix) the view goes back north-up.
public struct HeadingFollower: Hashable, Sendable {
    /// The smoothed course as a direction: its east and north parts.
    private var east = 0.0, north = 0.0
    /// When a course last came (clock seconds); nil: none yet, or forgotten.
    public private(set) var lastCourse: Double?
    /// The course the view turns to (degrees clockwise from north); nil: none known.
    public private(set) var course: Double?
    /// The average after the fix before (whether it still moves).
    private var lastAverage: Double?

    /// How much each new course counts in the average.
    public static let weight = 0.3
    /// Changes of the average smaller than this (degrees) are noise: the view stays.
    public static let deadBand = 5.0
    /// An average that moved less than this (degrees) since the fix before is at rest.
    public static let resting = 1.0
    /// How long a course holds without news (seconds) before the view goes north-up.
    public static let holdUnknown = 5.0
    /// How quickly the view turns towards the course (the time constant, seconds).
    public static let timeConstant = 0.6
    /// The view is on the course when this close (degrees).
    public static let close = 0.05

    public init() {}

    /// A fix's course (nil: unknown) at time t.
    public mutating func take(_ degrees: Double?, at t: Double) {
        guard let degrees, degrees.isFinite else { return }
        let r = degrees * .pi / 180
        if lastCourse.map({ t - $0 > Self.holdUnknown }) ?? true {
            // The first course, or the first after a long silence: the average starts anew.
            east = sin(r); north = cos(r)
            course = nil
            lastAverage = nil
        } else {
            east += (sin(r) - east) * Self.weight
            north += (cos(r) - north) * Self.weight
        }
        lastCourse = t
        // Courses that cancel out (back and forth) say nothing of a direction.
        guard east * east + north * north > 1e-6 else { return }
        let average = TurnTransition.normalized(atan2(east, north) * 180 / .pi)
        defer { lastAverage = average }
        if let c = course {
            let off = abs(TurnTransition.shortestTurn(from: c, to: average))
            // Within the dead band the view stays, unless the average has come to rest (a
            // steady course after a turn): then it goes the last few degrees too.
            let resting = lastAverage.map { abs(TurnTransition.shortestTurn(from: $0, to: average)) < Self.resting } ?? false
            guard off > Self.deadBand || (resting && off > Self.close) else { return }
        }
        course = average
    }

    /// The bearing the view turns to at t: the course, or nil once none came for a while.
    public func target(at t: Double) -> Double? {
        guard let c = course, let last = lastCourse, t - last <= Self.holdUnknown else { return nil }
        return c
    }

    /// The bearing after `seconds` of turning from `bearing` towards `target`, the shortest
    /// way, eased (quick when far, slow as it arrives).
    public func step(from bearing: Double, toward target: Double, seconds: Double) -> Double {
        let d = TurnTransition.shortestTurn(from: bearing, to: target)
        if abs(d) <= Self.close { return target }
        return bearing + d * (1 - exp(-max(seconds, 0) / Self.timeConstant))
    }

    /// The view at `bearing` still has turning to do at t.
    public func isTurning(_ bearing: Double, at t: Double) -> Bool {
        abs(TurnTransition.shortestTurn(from: bearing, to: target(at: t) ?? 0)) > Self.close
    }
}
