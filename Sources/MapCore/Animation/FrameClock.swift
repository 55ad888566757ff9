import FoundationEssentials
import Glibc

/// The source of animation time. The window's clock follows vsync; tests and `render --at`
/// use a manual one. Animations are pure functions of the time it gives.
public protocol FrameClock: AnyObject {
    /// Seconds on the clock's own monotonic timeline, now.
    var now: Double { get }
    /// The time at which the frame being built will be seen.
    func frameTime() -> Double
    /// Tells the clock a frame was just presented.
    func didPresent()
}

public final class ManualClock: FrameClock {
    public var time: Double
    public init(_ time: Double = 0) { self.time = time }
    public var now: Double { time }
    public func frameTime() -> Double { time }
    public func didPresent() {}
    public func advance(by dt: Double) { time += dt }
}
