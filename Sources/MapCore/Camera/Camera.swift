import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// Where the map looks: a centre on the Mercator plane and a fractional zoom, seen through a
/// viewport measured in logical points. Pure value; every conversion between screen and map
/// goes through here.
public struct Camera: Hashable, Sendable {
    public static let minZoom = 0.0
    public static let maxZoom = 20.0

    /// Centre in world units; x is kept in [0, worldSize) so the world wraps seamlessly.
    public private(set) var center: MapPoint
    public private(set) var zoom: Double
    public var viewportSize: ScreenSize
    /// Device pixels per logical point (2 on a HiDPI screen).
    public var pixelRatio: Double

    public init(center: MapPoint, zoom: Double, viewportSize: ScreenSize, pixelRatio: Double = 1) {
        self.center = center
        self.zoom = 0
        self.viewportSize = viewportSize
        self.pixelRatio = pixelRatio
        setZoom(zoom)
        setCenter(center)
    }

    public init(center: Coordinate, zoom: Double, viewportSize: ScreenSize, pixelRatio: Double = 1) {
        self.init(center: WebMercator.project(center.normalized), zoom: zoom,
                  viewportSize: viewportSize, pixelRatio: pixelRatio)
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

    /// The middle of the view, in points.
    public var screenCenter: ScreenPoint { ScreenPoint(x: viewportSize.width / 2, y: viewportSize.height / 2) }

    /// The screen position of a map point, taking the copy of the world nearest the centre.
    public func screenPoint(for p: MapPoint) -> ScreenPoint {
        var dx = p.x - center.x
        let w = WebMercator.worldSize
        if dx > w / 2 { dx -= w } else if dx < -w / 2 { dx += w }
        return ScreenPoint(x: screenCenter.x + dx * scale, y: screenCenter.y + (p.y - center.y) * scale)
    }

    /// The screen position of a map point without choosing a world copy (for tiles, whose x
    /// is already unwrapped around the centre).
    public func screenPointUnwrapped(for p: MapPoint) -> ScreenPoint {
        ScreenPoint(x: screenCenter.x + (p.x - center.x) * scale, y: screenCenter.y + (p.y - center.y) * scale)
    }

    /// The map point under a screen position (x unwrapped; wrap it if you need it in the world).
    public func mapPoint(for s: ScreenPoint) -> MapPoint {
        MapPoint(x: center.x + (s.x - screenCenter.x) / scale, y: center.y + (s.y - screenCenter.y) / scale)
    }

    public func coordinate(for s: ScreenPoint) -> Coordinate {
        let c = WebMercator.unproject(mapPoint(for: s))
        return Coordinate(latitude: c.latitude, longitude: Coordinate.wrapLongitude(c.longitude))
    }

    public func screenPoint(for c: Coordinate) -> ScreenPoint { screenPoint(for: WebMercator.project(c)) }

    /// The part of the plane in view (x may extend beyond the world when it wraps).
    public var visibleMapRect: MapRect {
        let w = viewportSize.width / scale, h = viewportSize.height / scale
        return MapRect(x: center.x - w / 2, y: center.y - h / 2, width: w, height: h)
    }

    /// Moves the map with the pointer: a drag of (dx, dy) points moves the centre the other way.
    public mutating func pan(byScreen dx: Double, _ dy: Double) {
        setCenter(MapPoint(x: center.x - dx / scale, y: center.y - dy / scale))
    }

    /// Sets the zoom so that the map point under `anchor` stays under it.
    public mutating func zoom(to z: Double, around anchor: ScreenPoint) {
        let fixed = mapPoint(for: anchor)
        setZoom(z)
        keep(fixed, at: anchor)
    }

    /// Moves the centre so that `p` appears at `screen`.
    public mutating func keep(_ p: MapPoint, at screen: ScreenPoint) {
        setCenter(MapPoint(x: p.x - (screen.x - screenCenter.x) / scale,
                           y: p.y - (screen.y - screenCenter.y) / scale))
    }

    /// The largest zoom at which `rect` fits inside the viewport with `padding` points each side.
    public func zoomToFit(_ rect: MapRect, padding: Double = 32) -> Double {
        let w = max(viewportSize.width - 2 * padding, 1), h = max(viewportSize.height - 2 * padding, 1)
        let zx = log2(w / max(rect.size.width, 1e-12)), zy = log2(h / max(rect.size.height, 1e-12))
        return min(max(min(zx, zy), Self.minZoom), Self.maxZoom)
    }
}
