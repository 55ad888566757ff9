import FoundationEssentials
import Glibc

/// A position on the Web Mercator plane in "world units": the whole world is
/// `WebMercator.worldSize` (256) units square at zoom 0 and x grows east, y grows south.
/// At zoom z one world unit spans 2^z screen points.
public struct MapPoint: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }

    public static func + (a: MapPoint, b: MapSize) -> MapPoint { MapPoint(x: a.x + b.width, y: a.y + b.height) }
    public static func - (a: MapPoint, b: MapSize) -> MapPoint { MapPoint(x: a.x - b.width, y: a.y - b.height) }
    public static func - (a: MapPoint, b: MapPoint) -> MapSize { MapSize(width: a.x - b.x, height: a.y - b.y) }
}

public struct MapSize: Hashable, Sendable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    public static func * (s: MapSize, k: Double) -> MapSize { MapSize(width: s.width * k, height: s.height * k) }
    public static func / (s: MapSize, k: Double) -> MapSize { MapSize(width: s.width / k, height: s.height / k) }
    /// The length of the diagonal: a distance in world units when the size is a difference of points.
    public var length: Double { (width * width + height * height).squareRoot() }
}

public struct MapRect: Hashable, Sendable {
    public var origin: MapPoint
    public var size: MapSize
    public init(origin: MapPoint, size: MapSize) { self.origin = origin; self.size = size }
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: MapPoint(x: x, y: y), size: MapSize(width: width, height: height))
    }

    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var midX: Double { origin.x + size.width / 2 }

    /// The smallest rectangle holding both.
    public func union(_ r: MapRect) -> MapRect {
        let x0 = min(minX, r.minX), y0 = min(minY, r.minY)
        return MapRect(x: x0, y: y0, width: max(maxX, r.maxX) - x0, height: max(maxY, r.maxY) - y0)
    }
    public var midY: Double { origin.y + size.height / 2 }
    public var center: MapPoint { MapPoint(x: midX, y: midY) }

    public func contains(_ p: MapPoint) -> Bool { p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY }
    public func intersects(_ r: MapRect) -> Bool { minX < r.maxX && r.minX < maxX && minY < r.maxY && r.minY < maxY }
    public func insetBy(dx: Double, dy: Double) -> MapRect {
        MapRect(x: minX + dx, y: minY + dy, width: size.width - 2 * dx, height: size.height - 2 * dy)
    }

    /// The rect grown by `d` on every side (shrunk for negative `d`).
    public func outset(by d: Double) -> MapRect { insetBy(dx: -d, dy: -d) }

    /// The smallest rect holding all the rects, or nil for none.
    public static func union(_ rects: some Sequence<MapRect>) -> MapRect? {
        rects.reduce(nil as MapRect?) { r, b in r.map { $0.union(b) } ?? b }
    }

    /// The smallest rect holding all points, or nil for none. Inlinable, so that callers in
    /// other modules get it specialized for their sequence: through the generic, a track's
    /// million points took 20 ms.
    @inlinable
    public static func bounding(_ points: some Sequence<MapPoint>) -> MapRect? {
        var it = points.makeIterator()
        guard let first = it.next() else { return nil }
        var (x0, y0, x1, y1) = (first.x, first.y, first.x, first.y)
        while let p = it.next() {
            x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y)
        }
        return MapRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
