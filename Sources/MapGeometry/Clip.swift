import FoundationEssentials
import Glibc

/// Clipping of rings and lines to an axis-aligned rectangle (tile bounds plus a buffer).
public enum Clip {
    /// Sutherland–Hodgman: the part of a closed ring inside `r`. Concave rings may gain
    /// zero-width bridges along the rectangle's edges; with a buffer around the tile those
    /// lie outside what is drawn, and even-odd filling is unaffected.
    public static func ring(_ ring: [MapPoint], to r: MapRect) -> [MapPoint] {
        var out = ring
        for edge in 0..<4 {
            guard !out.isEmpty else { return [] }
            let input = out
            out = []
            out.reserveCapacity(input.count + 4)
            var prev = input[input.count - 1]
            for cur in input {
                let curIn = inside(cur, edge, r), prevIn = inside(prev, edge, r)
                if curIn {
                    if !prevIn { out.append(intersect(prev, cur, edge, r)) }
                    out.append(cur)
                } else if prevIn {
                    out.append(intersect(prev, cur, edge, r))
                }
                prev = cur
            }
        }
        return out.count >= 3 ? out : []
    }

    /// The parts of a polyline inside `r` (Liang–Barsky per segment, joined where contiguous).
    public static func line(_ line: [MapPoint], to r: MapRect) -> [[MapPoint]] {
        var parts: [[MapPoint]] = []
        var current: [MapPoint] = []
        for i in 1..<max(line.count, 1) {
            guard let (a, b) = segment(line[i - 1], line[i], to: r) else {
                if current.count >= 2 { parts.append(current) }
                current = []
                continue
            }
            if current.isEmpty { current = [a, b] } else if current.last! == a { current.append(b) } else {
                if current.count >= 2 { parts.append(current) }
                current = [a, b]
            }
            // A segment that left the rectangle ends this part.
            if b != line[i] { parts.append(current); current = [] }
        }
        if current.count >= 2 { parts.append(current) }
        return parts
    }

    /// The part of segment ab inside r, or nil.
    public static func segment(_ a: MapPoint, _ b: MapPoint, to r: MapRect) -> (MapPoint, MapPoint)? {
        var t0 = 0.0, t1 = 1.0
        let dx = b.x - a.x, dy = b.y - a.y
        let checks = [(-dx, a.x - r.minX), (dx, r.maxX - a.x), (-dy, a.y - r.minY), (dy, r.maxY - a.y)]
        for (p, q) in checks {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let t = q / p
                if p < 0 { if t > t1 { return nil }; t0 = max(t0, t) } else { if t < t0 { return nil }; t1 = min(t1, t) }
            }
        }
        let s = t0 == 0 ? a : MapPoint(x: a.x + t0 * dx, y: a.y + t0 * dy)
        let e = t1 == 1 ? b : MapPoint(x: a.x + t1 * dx, y: a.y + t1 * dy)
        return (s, e)
    }

    private static func inside(_ p: MapPoint, _ edge: Int, _ r: MapRect) -> Bool {
        switch edge {
        case 0: return p.x >= r.minX
        case 1: return p.x <= r.maxX
        case 2: return p.y >= r.minY
        default: return p.y <= r.maxY
        }
    }

    private static func intersect(_ a: MapPoint, _ b: MapPoint, _ edge: Int, _ r: MapRect) -> MapPoint {
        switch edge {
        case 0, 1:
            let x = edge == 0 ? r.minX : r.maxX
            let t = (x - a.x) / (b.x - a.x)
            return MapPoint(x: x, y: a.y + t * (b.y - a.y))
        default:
            let y = edge == 2 ? r.minY : r.maxY
            let t = (y - a.y) / (b.y - a.y)
            return MapPoint(x: a.x + t * (b.x - a.x), y: y)
        }
    }
}
