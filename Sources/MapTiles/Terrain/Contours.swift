import FoundationEssentials
import Glibc
import Platform

/// Contour lines from a DEM tile: marching squares over the grid of pixel centres, the
/// crossings of each level found by linear interpolation along the cells' edges, pieces
/// joined into lines. Points are in tile pixels (the centre of pixel 0, 0 is 0.5, 0.5).
public enum Contours {
    public struct Line: Sendable, Equatable {
        /// The height the line follows, metres.
        public var level: Double
        public var points: [(x: Double, y: Double)]
        public static func == (a: Line, b: Line) -> Bool {
            a.level == b.level && a.points.count == b.points.count && zip(a.points, b.points).allSatisfy { $0.x == $1.x && $0.y == $1.y }
        }
    }

    /// At most this many levels a tile: a smaller interval over high mountains is refused
    /// rather than drawn as a black smear.
    public static let maxLevels = 400

    /// The lines every `interval` metres (levels at whole multiples of it).
    public static func lines(_ dem: DEMTile, interval: Double) -> [Line] {
        guard interval.isFinite, interval > 0, let low = dem.heights.min(), let high = dem.heights.max(), high > low else { return [] }
        let first = (Double(low) / interval).rounded(.up), last = (Double(high) / interval).rounded(.down)
        guard last >= first, last - first < Double(maxLevels) else { return [] }
        var out = [Line]()
        var k = first
        while k <= last {
            out += lines(dem, at: k * interval)
            k += 1
        }
        return out
    }

    /// The lines of one level.
    static func lines(_ dem: DEMTile, at level: Double) -> [Line] {
        let n = dem.size
        // A height exactly at the level counts as above it, so no line runs through a corner twice.
        func above(_ x: Int, _ y: Int) -> Bool { Double(dem.heights[y * n + x]) >= level }
        func cross(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> Point {
            let h0 = Double(dem.heights[y0 * n + x0]), h1 = Double(dem.heights[y1 * n + x1])
            let t = h1 == h0 ? 0.5 : min(max((level - h0) / (h1 - h0), 0), 1)
            return Point(x: Double(x0) + 0.5 + t * Double(x1 - x0), y: Double(y0) + 0.5 + t * Double(y1 - y0))
        }
        var segments = [(Point, Point)]()
        for y in 0..<n - 1 {
            for x in 0..<n - 1 {
                let tl = above(x, y), tr = above(x + 1, y), br = above(x + 1, y + 1), bl = above(x, y + 1)
                let index = (tl ? 8 : 0) | (tr ? 4 : 0) | (br ? 2 : 0) | (bl ? 1 : 0)
                guard index != 0 && index != 15 else { continue }
                let top = cross(x, y, x + 1, y), right = cross(x + 1, y, x + 1, y + 1)
                let bottom = cross(x, y + 1, x + 1, y + 1), left = cross(x, y, x, y + 1)
                switch index {
                case 1, 14: segments.append((left, bottom))
                case 2, 13: segments.append((bottom, right))
                case 3, 12: segments.append((left, right))
                case 4, 11: segments.append((top, right))
                case 6, 9: segments.append((top, bottom))
                case 7, 8: segments.append((left, top))
                default:
                    // A saddle: the cell's mean says which corners join.
                    let mean = (Double(dem.heights[y * n + x]) + Double(dem.heights[y * n + x + 1])
                                + Double(dem.heights[(y + 1) * n + x]) + Double(dem.heights[(y + 1) * n + x + 1])) / 4
                    if (mean >= level) == (index == 5) {
                        segments.append((left, top)); segments.append((bottom, right))
                    } else {
                        segments.append((left, bottom)); segments.append((top, right))
                    }
                }
            }
        }
        return join(segments).map { Line(level: level, points: $0.map { (x: $0.x, y: $0.y) }) }
    }

    struct Point: Hashable { var x: Double, y: Double }

    /// Pieces that share ends made into lines (a closed ring ends where it began).
    static func join(_ segments: [(Point, Point)]) -> [[Point]] {
        var at = [Point: [Int]]()
        for (i, s) in segments.enumerated() { at[s.0, default: []].append(i); at[s.1, default: []].append(i) }
        var used = [Bool](repeating: false, count: segments.count)
        var out = [[Point]]()
        func extend(_ line: inout [Point]) {
            while let end = line.last, let next = at[end]?.first(where: { !used[$0] }) {
                used[next] = true
                let s = segments[next]
                line.append(s.0 == end ? s.1 : s.0)
            }
        }
        for i in segments.indices where !used[i] {
            used[i] = true
            var line = [segments[i].0, segments[i].1]
            extend(&line)
            line.reverse()
            extend(&line)
            out.append(line)
        }
        return out
    }
}
