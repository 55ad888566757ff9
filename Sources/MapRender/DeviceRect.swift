import CPixels
import MapCore
import Platform

/// A rectangle of logical points in device pixels. Edges are rounded one by one, so
/// neighbours that share an edge in points share it in pixels: no seams, no overlaps. The
/// edges stay doubles (a circle a million points wide is still a rectangle here); only a
/// part clipped to a screen is ever turned into integers.
package struct DeviceRect: Equatable {
    package var x0: Double, y0: Double, x1: Double, y1: Double

    package init(_ r: ScreenRect, _ k: Double) {
        x0 = (r.x * k).rounded(); y0 = (r.y * k).rounded()
        x1 = (r.maxX * k).rounded(); y1 = (r.maxY * k).rounded()
    }

    /// Where a sprite of `width`×`height` pixels goes: at its own pixel size it snaps its
    /// origin to a pixel and keeps its size, so text is never resampled (only scaled sprites
    /// are filtered); otherwise the rectangle's pixels.
    init(sprite r: ScreenRect, _ k: Double, width: Double, height: Double) {
        self.init(r, k)
        if abs(r.width * k - width) <= 0.5, abs(r.height * k - height) <= 0.5 {
            x0 = (r.x * k).rounded(); y0 = (r.y * k).rounded()
            x1 = x0 + width; y1 = y0 + height
        }
    }

    var width: Double { x1 - x0 }
    var height: Double { y1 - y0 }

    /// The whole pixels it covers inside `0..<width, 0..<height`, grown by `margin`; nil when none.
    func box(inside width: Int, _ height: Int, margin: Double = 0) -> PixelBox? {
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite else { return nil }
        let a = max(x0 - margin, 0), b = max(y0 - margin, 0)
        let c = min(x1 + margin, Double(width)), d = min(y1 + margin, Double(height))
        guard c > a, d > b else { return nil }
        return PixelBox(x0: Int32(saturating: a.rounded(.down)), y0: Int32(saturating: b.rounded(.down)), x1: Int32(saturating: c.rounded(.up)), y1: Int32(saturating: d.rounded(.up)))
    }
}

/// Whole pixels `x0 ..< x1`, `y0 ..< y1`: what a frame changed, and what is presented.
package struct PixelBox: Equatable {
    package var x0: Int32, y0: Int32, x1: Int32, y1: Int32

    var area: Int { Int(x1 - x0) * Int(y1 - y0) }

    func intersects(_ o: PixelBox) -> Bool { x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1 }

    func union(_ o: PixelBox) -> PixelBox {
        PixelBox(x0: min(x0, o.x0), y0: min(y0, o.y0), x1: max(x1, o.x1), y1: max(y1, o.y1))
    }

    var mp: mp_box { mp_box(x0: x0, y0: y0, x1: x1, y1: y1) }
}

extension PixelBox {
    /// The pixels in both; nil when none.
    func intersection(_ o: PixelBox) -> PixelBox? {
        let b = PixelBox(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
        return b.x1 > b.x0 && b.y1 > b.y0 ? b : nil
    }
}

extension PixelBox {
    /// The parts of `self` outside every box of `covers`, as bands of boxes: what a clear under
    /// opaque tiles still has to fill. Exact, and cheap for the few dozen tiles of a frame.
    func uncovered(by covers: [PixelBox]) -> [PixelBox] {
        let inside = covers.compactMap { $0.intersection(self) }
        guard !inside.isEmpty else { return [self] }
        var ys = Set([y0, y1])
        for b in inside { ys.insert(b.y0); ys.insert(b.y1) }
        let edges = ys.sorted()
        var out: [PixelBox] = []
        for (top, bottom) in zip(edges, edges.dropFirst()) {
            // The boxes spanning this band, left to right; the gaps between them are uncovered.
            let spans = inside.filter { $0.y0 <= top && $0.y1 >= bottom }.map { ($0.x0, $0.x1) }.sorted { $0.0 < $1.0 }
            var x = x0
            for (a, b) in spans {
                if a > x { out.append(PixelBox(x0: x, y0: top, x1: a, y1: bottom)) }
                x = max(x, b)
            }
            if x < x1 { out.append(PixelBox(x0: x, y0: top, x1: x1, y1: bottom)) }
        }
        return out
    }
}
