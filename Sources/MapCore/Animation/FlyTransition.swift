import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// A flight from one view to another: out, across and in, along the path that feels
/// shortest (van Wijk and Nuij, "Smooth and efficient zooming and panning", 2003 — the
/// path MapKit's and Leaflet's `flyTo` follow). The view's width `w` and the distance
/// travelled `u` are closed-form functions of the path parameter `s`; time eases `s`.
public struct FlyTransition: Hashable, Sendable {
    public let start: Double
    public let duration: Double
    let from: MapPoint, to: MapPoint
    let fromZoom: Double, toZoom: Double
    /// How much the flight zooms out to cover distance (ρ; 1.42 as in Leaflet).
    static let rho = 1.42
    let w0: Double, u1: Double, r0: Double, length: Double
    /// Zoom only (no distance to cover): the direction the width changes in.
    let zoomOnly: Bool

    /// `viewWidth`: the larger side of the view in points.
    public init(from: MapPoint, zoom fromZoom: Double, to: MapPoint, zoom toZoom: Double, viewWidth: Double, at t: Double,
                duration: Double? = nil) {
        self.start = t
        self.from = from; self.to = to
        self.fromZoom = fromZoom; self.toZoom = toZoom
        let rho = Self.rho, rho2 = rho * rho
        // Widths of the view in world units at both ends.
        let w0 = max(viewWidth, 1) / pow(2, fromZoom), w1 = max(viewWidth, 1) / pow(2, toZoom)
        let u1 = (to - from).length
        self.w0 = w0
        self.u1 = u1
        if u1 < 1e-9 * w0 {
            zoomOnly = true
            r0 = 0
            length = abs(log(w1 / w0)) / rho
        } else {
            zoomOnly = false
            func r(_ i: Double) -> Double {
                let wi = i == 0 ? w0 : w1
                let b = (w1 * w1 - w0 * w0 + (i == 0 ? 1 : -1) * rho2 * rho2 * u1 * u1) / (2 * wi * rho2 * u1)
                return log((b * b + 1).squareRoot() - b)
            }
            r0 = r(0)
            length = (r(1) - r0) / rho
        }
        // About as Leaflet: 0.8 s per unit of path, kept between a glance and a wait.
        let d = duration ?? min(max(length * 0.8, 0.5), 2.5)
        self.duration = length.isFinite ? d : 0
    }

    /// How far along the path at time t (0…1), eased out like Leaflet's flights.
    private func progress(at t: Double) -> Double {
        guard duration > 0 else { return 1 }
        let p = min(max((t - start) / duration, 0), 1)
        return 1 - pow(1 - p, 1.5)
    }

    /// The view's centre and zoom at time t.
    public func view(at t: Double) -> (center: MapPoint, zoom: Double) {
        let p = progress(at: t)
        if p >= 1 || !length.isFinite { return (to, toZoom) }
        let s = length * p
        if zoomOnly {
            return (from, fromZoom + (toZoom - fromZoom) * p)
        }
        let rho = Self.rho
        let w = cosh(r0) / cosh(rho * s + r0) // relative to w0
        let u = w0 * (cosh(r0) * tanh(rho * s + r0) - sinh(r0)) / (rho * rho) / u1
        let c = MapPoint(x: from.x + (to.x - from.x) * u, y: from.y + (to.y - from.y) * u)
        return (c, fromZoom - log2(w))
    }

    public func isFinished(at t: Double) -> Bool { t >= start + duration }
}
