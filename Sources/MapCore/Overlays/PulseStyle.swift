import FoundationEssentials
import Glibc
import Platform

/// The pulse of a circle overlay (after YHAnimatedCircleView): scale and opacity animate
/// together over one period, then restart — the bigger it is, the fainter.
public struct CirclePulse: Hashable, Sendable {
    public var scale: ClosedRange<Double> = 0.8...1.2
    public var opacity: ClosedRange<Double> = 0.05...0.5
    public var period = 0.8
    public var curve = TimingCurve.linear

    public init() {}

    public func group(start: Double = 0) -> AnimationGroup { AnimationGroup(start: start, duration: period) }

    /// (scale, opacity) at time t: scale goes up while opacity goes down.
    public func state(at t: Double, start: Double = 0) -> (scale: Double, opacity: Double) {
        let local = group(start: start).localTime(at: t) ?? 0
        let s = BasicAnimation(from: scale.lowerBound, to: scale.upperBound, duration: period, curve: curve).value(at: local)
        let o = BasicAnimation(from: opacity.upperBound, to: opacity.lowerBound, duration: period, curve: curve).value(at: local)
        return (s, o)
    }
}

/// The halo pulse of the location annotation (after SVPulsingAnnotationView): a group of
/// `duration + delay` seconds, repeating forever, holding three animations of `duration`:
/// scale 0 → 1 ease-out, opacity 1 → 0 ease-in, and a discrete switch between halo images
/// rasterized at three sizes so that the ring is crisp at every scale. The delay is the pause.
public struct HaloPulse: Hashable, Sendable {
    public var duration = 1.0
    public var delay = 1.0

    public init(duration: Double = 1.0, delay: Double = 1.0) {
        self.duration = duration
        self.delay = delay
    }

    /// Full halo diameter in points, relative to the 23-point dot (the original's 5.3×).
    public static let diameter = 23.0 * 5.3
    /// The halo is rasterized at these fractions of its full size.
    public static let rasterFractions = [1.0 / 3, 2.0 / 3, 1.0]

    public var group: AnimationGroup { AnimationGroup(duration: duration + delay) }
    var scaleAnimation: BasicAnimation { BasicAnimation(from: 0, to: 1, duration: duration, curve: .easeOut) }
    var opacityAnimation: BasicAnimation { BasicAnimation(from: 1, to: 0, duration: duration, curve: .easeIn) }
    /// Image index by time: each raster is used until the growing halo reaches its size, so
    /// a raster is only ever drawn at or below its own size (never a blurry upscale).
    var imageKeyframes: DiscreteKeyframes<Int> {
        let ease = TimingCurve.easeOut
        return DiscreteKeyframes(values: [0, 1, 2],
                                 keyTimes: [0, ease.time(forProgress: Self.rasterFractions[0]), ease.time(forProgress: Self.rasterFractions[1])],
                                 duration: duration)
    }

    /// (scale, opacity, raster index) at time t.
    public func state(at t: Double, start: Double = 0) -> (scale: Double, opacity: Double, raster: Int) {
        let local = AnimationGroup(start: start, duration: duration + delay).localTime(at: t) ?? 0
        return (scaleAnimation.value(at: local), opacityAnimation.value(at: local), imageKeyframes.value(at: local))
    }
}
