import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// An animated zoom that keeps one map point fixed under one screen point (the cursor).
public struct ZoomTransition: Hashable, Sendable {
    public var start: Double
    public var duration: Double
    public var fromZoom: Double
    public var toZoom: Double
    public var anchorScreen: ScreenPoint
    public var anchorMap: MapPoint
    public var curve: TimingCurve

    public func zoom(at t: Double) -> Double {
        let p = duration > 0 ? (t - start) / duration : 1
        return fromZoom + (toZoom - fromZoom) * curve.value(at: p)
    }

    public func isFinished(at t: Double) -> Bool { t >= start + duration }
}

/// A pan by a screen distance, eased (arrow keys). Applied incrementally so it composes with drags.
public struct ScreenPanTransition: Hashable, Sendable {
    public var start: Double
    public var duration: Double
    public var delta: ScreenPoint
    public var curve: TimingCurve = .easeOut

    public func offset(at t: Double) -> ScreenPoint {
        let p = curve.value(at: duration > 0 ? (t - start) / duration : 1)
        return ScreenPoint(x: delta.x * p, y: delta.y * p)
    }

    public func isFinished(at t: Double) -> Bool { t >= start + duration }
}
