import FoundationEssentials
import Glibc
import Platform

/// A value going from `from` to `to` over `duration` seconds along a timing curve, starting
/// `beginTime` seconds into its group. Before it begins it holds `from`; after it ends it
/// holds `to` (Core Animation's fill mode "both"). Pure: a function of local time.
public struct BasicAnimation: Hashable, Sendable {
    public var from: Double
    public var to: Double
    public var duration: Double
    public var curve: TimingCurve
    public var beginTime: Double

    public init(from: Double, to: Double, duration: Double, curve: TimingCurve = .linear, beginTime: Double = 0) {
        self.from = from; self.to = to; self.duration = duration; self.curve = curve; self.beginTime = beginTime
    }

    public func value(at localTime: Double) -> Double {
        let p = duration > 0 ? (localTime - beginTime) / duration : (localTime >= beginTime ? 1 : 0)
        return from + (to - from) * curve.value(at: p)
    }
}

/// Discrete keyframes: `values[i]` holds from `keyTimes[i]` (a fraction of `duration`)
/// until the next key time, like Core Animation's discrete calculation mode.
public struct DiscreteKeyframes<Value: Hashable & Sendable>: Hashable, Sendable {
    public var values: [Value]
    public var keyTimes: [Double]
    public var duration: Double

    public init(values: [Value], keyTimes: [Double], duration: Double) {
        precondition(!values.isEmpty && values.count == keyTimes.count, "one key time per value")
        self.values = values; self.keyTimes = keyTimes; self.duration = duration
    }

    public func value(at localTime: Double) -> Value {
        let f = duration > 0 ? localTime / duration : 1
        var v = values[0]
        for (i, k) in keyTimes.enumerated() where f >= k { v = values[i] }
        return v
    }
}

/// The clock of a group of animations: repeats every `duration` seconds from `start`,
/// `repeatCount` times (infinite by default). The time inside the current cycle is what
/// its animations are evaluated at; an animation that ends before the cycle does holds its
/// last value for the rest of it (the pause between pulses).
public struct AnimationGroup: Hashable, Sendable {
    public var start: Double
    public var duration: Double
    public var repeatCount: Double

    public init(start: Double = 0, duration: Double, repeatCount: Double = .infinity) {
        self.start = start; self.duration = duration; self.repeatCount = repeatCount
    }

    /// Time within the current cycle; nil before the start and after the last repeat.
    public func localTime(at t: Double) -> Double? {
        let e = t - start
        guard e >= 0, duration > 0 else { return duration > 0 ? nil : 0 }
        guard e < duration * repeatCount else { return nil }
        return e.truncatingRemainder(dividingBy: duration)
    }
}
