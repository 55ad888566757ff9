import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// The camera's motions in flight: at most one zoom, one glide, one key pan and one turn.
/// `apply` moves a camera to where the motions put it at time t.
public struct CameraAnimator: Sendable {
    public private(set) var zoom: ZoomTransition?
    public private(set) var kinetic: KineticPan?
    public private(set) var keyPan: ScreenPanTransition?
    public private(set) var flight: FlyTransition?
    public private(set) var turn: TurnTransition?
    private var kineticApplied = ScreenPoint(x: 0, y: 0)
    private var keyPanApplied = ScreenPoint(x: 0, y: 0)

    public init() {}

    public func isAnimating(at t: Double) -> Bool { zoom != nil || kinetic != nil || keyPan != nil || flight != nil || turn != nil }

    public mutating func stopAll() { zoom = nil; stopKinetic(); keyPan = nil; flight = nil; turn = nil }

    /// Turns the view about its centre to `bearing`, the shortest way round, from where it
    /// is now (or where a turn under way was going to be).
    public mutating func turn(to bearing: Double, camera: Camera, at t: Double, duration: Double = 0.3) {
        turn = TurnTransition(start: t, duration: duration, from: camera.bearing, to: bearing)
    }

    /// Turns by `degrees` more than where a turn under way ends (key presses in a row add up,
    /// as wheel notches do).
    public mutating func turn(by degrees: Double, camera: Camera, at t: Double, duration: Double = 0.3) {
        turn(to: (turn?.to ?? camera.bearing) + degrees, camera: camera, at: t, duration: duration)
    }

    /// Stops a turn where it is (a hand took the bearing).
    public mutating func stopTurn() { turn = nil }

    /// Flies to show `center` at `zoom` (any other motion stops).
    public mutating func fly(to center: MapPoint, zoom target: Double, camera: Camera, at t: Double) {
        stopAll()
        let side = max(camera.viewportSize.width, camera.viewportSize.height)
        flight = FlyTransition(from: camera.center, zoom: camera.zoom, to: center, zoom: min(max(target, Camera.minZoom), Camera.maxZoom),
                               viewWidth: side, at: t)
    }

    public mutating func stopKinetic() { kinetic = nil; kineticApplied = ScreenPoint(x: 0, y: 0) }

    /// Starts (or extends) a zoom by `step` levels around `anchor`. A step arriving while a zoom
    /// is running adds to that zoom's target, so wheel notches accumulate.
    public mutating func zoom(by step: Double, around anchor: ScreenPoint, camera: Camera,
                              at t: Double, duration: Double, curve: TimingCurve = .easeOut) {
        stopKinetic()
        let base = zoom?.toZoom ?? camera.zoom
        let target = min(max(base + step, Camera.minZoom), Camera.maxZoom)
        zoom = ZoomTransition(start: t, duration: duration, fromZoom: camera.zoom, toZoom: target,
                              anchorScreen: anchor, anchorMap: camera.mapPoint(for: anchor), curve: curve)
    }

    public mutating func fling(velocity: ScreenPoint, at t: Double) {
        stopKinetic()
        let k = KineticPan(start: t, velocity: velocity)
        if k.duration > 0 { kinetic = k }
    }

    public mutating func pan(byScreen delta: ScreenPoint, at t: Double, duration: Double = 0.25) {
        var remaining = ScreenPoint(x: 0, y: 0)
        if let p = keyPan { remaining = p.delta - keyPanApplied }
        keyPan = ScreenPanTransition(start: t, duration: duration, delta: remaining + delta)
        keyPanApplied = ScreenPoint(x: 0, y: 0)
    }

    /// Moves `camera` to time t and drops the motions that have ended.
    public mutating func apply(to camera: inout Camera, at t: Double) {
        if let f = flight {
            let v = f.view(at: t)
            camera.setZoom(v.zoom)
            camera.setCenter(v.center)
            if f.isFinished(at: t) { flight = nil }
        }
        if let k = kinetic {
            let o = k.offset(at: t)
            camera.pan(byScreen: o.x - kineticApplied.x, o.y - kineticApplied.y)
            kineticApplied = o
            if k.isFinished(at: t) { stopKinetic() }
        }
        if let p = keyPan {
            let o = p.offset(at: t)
            camera.pan(byScreen: -(o.x - keyPanApplied.x), -(o.y - keyPanApplied.y))
            keyPanApplied = o
            if p.isFinished(at: t) { keyPan = nil; keyPanApplied = ScreenPoint(x: 0, y: 0) }
        }
        if let r = turn {
            // About the view's centre: the centre stays, whatever else moves it.
            camera.setBearing(r.bearing(at: t))
            if r.isFinished(at: t) { turn = nil }
        }
        if let z = zoom {
            camera.setZoom(z.zoom(at: t))
            camera.keep(z.anchorMap, at: z.anchorScreen)
            if z.isFinished(at: t) { zoom = nil }
        }
    }
}
