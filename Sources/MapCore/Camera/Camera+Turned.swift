import FoundationEssentials
import MapGeometry
import Platform

extension Camera {
    /// Whether any of `rect` (world units, x unwrapped as the view's) shows in the view,
    /// turned or not: the rectangle and the view overlap along both of their axes.
    public func sees(_ rect: MapRect) -> Bool {
        // Along the plane's axes: the box around the turned view.
        guard visibleMapRect.intersects(rect) else { return false }
        guard isTurned else { return true }
        // Along the view's axes: the box around the rectangle as the view shows it.
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for (x, y) in [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.maxX, rect.maxY), (rect.minX, rect.maxY)] {
            let s = screenPointUnwrapped(for: MapPoint(x: x, y: y))
            x0 = min(x0, s.x); x1 = max(x1, s.x); y0 = min(y0, s.y); y1 = max(y1, s.y)
        }
        return x0 < viewportSize.width && x1 > 0 && y0 < viewportSize.height && y1 > 0
    }

    /// An angle in degrees brought into [0, 360) (0 for one that is not a number).
    public static func normalizedBearing(_ degrees: Double) -> Double {
        guard degrees.isFinite else { return 0 }
        let r = degrees.truncatingRemainder(dividingBy: 360)
        return r < 0 ? r + 360 : r
    }

    /// The tiles at zoom `z` the view shows (x unwrapped), nearest its centre first: those
    /// covering it, and when turned, only those the turned view touches.
    public func tilesInView(atZoom z: Int) -> [TileID] {
        let tiles = TileCover.tiles(covering: visibleMapRect, tileZoom: z)
        return isTurned ? tiles.filter { sees($0.mapRect) } : tiles
    }

    /// The same camera with a view `points` wider on every side (a ring around the view).
    public func grown(by points: Double) -> Camera {
        var c = self
        c.viewportSize = ScreenSize(width: viewportSize.width + 2 * points, height: viewportSize.height + 2 * points)
        return c
    }

    /// Which way is north on screen, in degrees clockwise from straight up: what a compass
    /// needle or a page's north arrow points at.
    public var northOnScreen: Double { bearing == 0 ? 0 : 360 - bearing }
}
