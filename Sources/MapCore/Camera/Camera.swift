import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// Where the map looks: a centre on the Mercator plane, a fractional zoom and a bearing, seen
/// through a viewport measured in logical points. Pure value; every conversion between screen
/// and map goes through here.
///
/// The bearing is MapLibre's: the compass direction, in degrees clockwise from north, that the
/// top of the view faces. At 90° east is up and the map appears turned counter-clockwise.
public struct Camera: Hashable, Sendable {
    public static let minZoom = 0.0
    public static let maxZoom = 20.0

    /// Centre in world units; x is kept in [0, worldSize) so the world wraps seamlessly.
    public private(set) var center: MapPoint
    public private(set) var zoom: Double
    /// Degrees clockwise from north the top of the view faces, kept in [0, 360).
    public private(set) var bearing: Double = 0
    /// Its cosine and sine, computed once per change (every conversion uses them).
    private var cosB = 1.0, sinB = 0.0
    public var viewportSize: ScreenSize
    /// Device pixels per logical point (2 on a HiDPI screen).
    public var pixelRatio: Double

    public init(center: MapPoint, zoom: Double, viewportSize: ScreenSize, pixelRatio: Double = 1, bearing: Double = 0) {
        self.center = center
        self.zoom = 0
        self.viewportSize = viewportSize
        self.pixelRatio = pixelRatio
        setZoom(zoom)
        setCenter(center)
        setBearing(bearing)
    }

    public init(center: Coordinate, zoom: Double, viewportSize: ScreenSize, pixelRatio: Double = 1, bearing: Double = 0) {
        self.init(center: WebMercator.project(center.normalized), zoom: zoom,
                  viewportSize: viewportSize, pixelRatio: pixelRatio, bearing: bearing)
    }

    public var centerCoordinate: Coordinate {
        let c = WebMercator.unproject(center)
        return Coordinate(latitude: c.latitude, longitude: Coordinate.wrapLongitude(c.longitude))
    }

    /// Screen points per world unit.
    public var scale: Double { pow(2, zoom) }

    public mutating func setCenter(_ p: MapPoint) {
        let y = min(max(p.y, 0), WebMercator.worldSize)
        center = MapPoint(x: WebMercator.wrapX(p.x), y: y)
    }

    public mutating func setZoom(_ z: Double) {
        zoom = z.isFinite ? min(max(z, Self.minZoom), Self.maxZoom) : zoom
    }

    /// Turns the view so that its top faces `degrees` (clockwise from north); any angle is
    /// brought into [0, 360). Angles within a millionth of a degree of north are north, so
    /// that a turn back by the same amount leaves an exactly north-up camera.
    public mutating func setBearing(_ degrees: Double) {
        guard degrees.isFinite else { return }
        var b = Self.normalizedBearing(degrees)
        if b < 1e-6 || 360 - b < 1e-6 { b = 0 }
        bearing = b
        let r = b * .pi / 180
        (cosB, sinB) = b == 0 ? (1, 0) : b == 90 ? (0, 1) : b == 180 ? (-1, 0) : b == 270 ? (0, -1) : (cos(r), sin(r))
    }

    /// Turns the view so that the map point under `anchor` stays under it.
    public mutating func setBearing(_ degrees: Double, around anchor: ScreenPoint) {
        let fixed = mapPoint(for: anchor)
        setBearing(degrees)
        keep(fixed, at: anchor)
    }

    /// The view is turned (not north-up).
    public var isTurned: Bool { bearing != 0 }

    /// The same view, north-up: the frame tiles are laid out in before they are turned.
    public var northUp: Camera {
        var c = self
        c.setBearing(0)
        return c
    }

    /// A screen offset from the view's centre as an offset on the plane in points (turned
    /// back by the bearing), and the reverse.
    @inline(__always) public func unturn(_ dx: Double, _ dy: Double) -> (Double, Double) {
        (dx * cosB - dy * sinB, dx * sinB + dy * cosB)
    }
    @inline(__always) public func turn(_ dx: Double, _ dy: Double) -> (Double, Double) {
        (dx * cosB + dy * sinB, -dx * sinB + dy * cosB)
    }

    /// The middle of the view, in points.
    public var screenCenter: ScreenPoint { ScreenPoint(x: viewportSize.width / 2, y: viewportSize.height / 2) }

    /// The screen position of a map point, taking the copy of the world nearest the centre.
    public func screenPoint(for p: MapPoint) -> ScreenPoint {
        var dx = p.x - center.x
        let w = WebMercator.worldSize
        if dx > w / 2 { dx -= w } else if dx < -w / 2 { dx += w }
        let (x, y) = turn(dx * scale, (p.y - center.y) * scale)
        return ScreenPoint(x: screenCenter.x + x, y: screenCenter.y + y)
    }

    /// The screen position of a map point without choosing a world copy (for tiles, whose x
    /// is already unwrapped around the centre).
    public func screenPointUnwrapped(for p: MapPoint) -> ScreenPoint {
        let (x, y) = turn((p.x - center.x) * scale, (p.y - center.y) * scale)
        return ScreenPoint(x: screenCenter.x + x, y: screenCenter.y + y)
    }

    /// The map point under a screen position (x unwrapped; wrap it if you need it in the world).
    public func mapPoint(for s: ScreenPoint) -> MapPoint {
        let (x, y) = unturn(s.x - screenCenter.x, s.y - screenCenter.y)
        return MapPoint(x: center.x + x / scale, y: center.y + y / scale)
    }

    public func coordinate(for s: ScreenPoint) -> Coordinate {
        let c = WebMercator.unproject(mapPoint(for: s))
        return Coordinate(latitude: c.latitude, longitude: Coordinate.wrapLongitude(c.longitude))
    }

    public func screenPoint(for c: Coordinate) -> ScreenPoint { screenPoint(for: WebMercator.project(c)) }

    /// The part of the plane in view (x may extend beyond the world when it wraps); when
    /// turned, the box around the turned view (`visibleCorners` is the view itself).
    public var visibleMapRect: MapRect {
        let hw = viewportSize.width / 2, hh = viewportSize.height / 2
        let w = (abs(cosB) * hw + abs(sinB) * hh) * 2 / scale, h = (abs(sinB) * hw + abs(cosB) * hh) * 2 / scale
        return MapRect(x: center.x - w / 2, y: center.y - h / 2, width: w, height: h)
    }

    /// The view's corners on the plane, clockwise on screen from its top left (x unwrapped).
    public var visibleCorners: [MapPoint] {
        let v = viewportSize
        return [ScreenPoint(x: 0, y: 0), ScreenPoint(x: v.width, y: 0), ScreenPoint(x: v.width, y: v.height),
                ScreenPoint(x: 0, y: v.height)].map(mapPoint(for:))
    }

    /// Moves the map with the pointer: a drag of (dx, dy) points moves the centre the other way.
    public mutating func pan(byScreen dx: Double, _ dy: Double) {
        let (x, y) = unturn(dx, dy)
        setCenter(MapPoint(x: center.x - x / scale, y: center.y - y / scale))
    }

    /// Sets the zoom so that the map point under `anchor` stays under it.
    public mutating func zoom(to z: Double, around anchor: ScreenPoint) {
        let fixed = mapPoint(for: anchor)
        setZoom(z)
        keep(fixed, at: anchor)
    }

    /// Moves the centre so that `p` appears at `screen`.
    public mutating func keep(_ p: MapPoint, at screen: ScreenPoint) {
        let (x, y) = unturn(screen.x - screenCenter.x, screen.y - screenCenter.y)
        setCenter(MapPoint(x: p.x - x / scale, y: p.y - y / scale))
    }

    /// The largest zoom at which `rect` fits inside the viewport with `padding` points each side
    /// (when turned: the turned rectangle's box on screen).
    public func zoomToFit(_ rect: MapRect, padding: Double = 32) -> Double {
        let w = max(viewportSize.width - 2 * padding, 1), h = max(viewportSize.height - 2 * padding, 1)
        let rw = abs(cosB) * rect.size.width + abs(sinB) * rect.size.height
        let rh = abs(sinB) * rect.size.width + abs(cosB) * rect.size.height
        let zx = log2(w / max(rw, 1e-12)), zy = log2(h / max(rh, 1e-12))
        return min(max(min(zx, zy), Self.minZoom), Self.maxZoom)
    }
}
