import MapCore
import Platform

/// Whether the map moves, and when a changed zoom has settled, from the cameras of the frames
/// drawn (monotonic seconds).
struct CameraMotion {
    /// A frame this long after the camera last changed is a rest's: drawn filtered, whole.
    static let restsAfter = 0.15
    /// How long the zoom stays the same before the view counts as settled there.
    static let zoomSettling = 0.15

    /// The camera of the last frame drawn: a frame with another one moves the map.
    private var lastCamera: Camera?
    /// When the camera last changed between frames.
    private var lastMove = -Double.infinity
    /// When the zoom, changed in a recent frame, counts as settled if it stays: the loop
    /// wakes then to paint for it.
    private(set) var zoomSettles: Double?

    /// A frame at `now` shows `camera`. `zoomSettled`: unchanged for a moment (a wheel's
    /// animation over, a touchpad's stream of small zooms paused; a pan keeps it), so styled
    /// tiles are painted for it. `moving`: the camera changed a moment ago or less (frames
    /// between a drag's pointer events, a label placed again), drawn as motion's frames.
    mutating func frame(_ camera: Camera, at now: Double) -> (zoomSettled: Bool, moving: Bool) {
        if let last = lastCamera, last.zoom != camera.zoom { zoomSettles = now + Self.zoomSettling }
        let settled = zoomSettles.map { now >= $0 } ?? true
        if settled { zoomSettles = nil }
        if lastCamera.map({ $0 != camera }) == true { lastMove = now }
        lastCamera = camera
        return (settled, now - lastMove < Self.restsAfter)
    }
}
