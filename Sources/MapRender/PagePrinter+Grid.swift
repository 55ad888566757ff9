import CCairo
import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapGraphics
import Platform

extension PagePrinter {
    /// Degrees between graticule lines: the first of these that gives at most `most` lines
    /// across `span` degrees.
    static func gridStep(span: Double, most: Int = 8) -> Double {
        let steps = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10, 15, 20, 30, 45, 90]
        return steps.first { span / $0 <= Double(most) } ?? 90
    }

    /// "24.95° E", with as many decimals as the step needs.
    static func gridLabel(_ v: Double, step: Double, positive: String, negative: String) -> String {
        // As many decimals as the step has (0.25 needs two, 0.5 one).
        let decimals = (0...4).first { d in let k = step * pow(10, Double(d)); return abs(k - k.rounded()) < 1e-9 } ?? 4
        let text = String(cFormat: "%.\(decimals)f", abs(v))
        return v == 0 || abs(v) == 180 ? text + "°" : text + "° " + (v > 0 ? positive : negative)
    }

    /// A line of the graticule, in the map frame's points, and where its value is written:
    /// above the frame at `x` (read across), up its left side at `y` (read from below), or
    /// nowhere (it leaves the frame by its bottom and right only).
    struct GridLine {
        enum Mark: Equatable { case top(x: Double), left(y: Double), none }
        var from: ScreenPoint, to: ScreenPoint
        var label: String
        var mark: Mark
        /// Whether it is a meridian (else a parallel).
        var meridian: Bool
    }

    /// A latitude/longitude graticule over the map, its values in the margin (`gridLines`).
    static func drawGrid(_ cr: OpaquePointer, _ layout: PrintLayout, camera: Camera) {
        let frame = layout.mapFrame
        let look = LabelLook(size: 7, color: Color(hex: 0x404040), haloWidth: 0)
        cairo_save(cr)
        cairo_set_source_rgba(cr, 0.2, 0.25, 0.4, 0.55)
        cairo_set_line_width(cr, 0.4)
        for line in gridLines(frame: ScreenSize(width: frame.width, height: frame.height), camera: camera) {
            cairo_move_to(cr, frame.x + line.from.x, frame.y + line.from.y); cairo_line_to(cr, frame.x + line.to.x, frame.y + line.to.y); cairo_stroke(cr)
            switch line.mark {
            case let .top(x):
                text(line.label, look, in: cr, x: frame.x + x + 1.5, baselineBox: ScreenRect(x: frame.x + x, y: frame.y - 10, width: 60, height: 10))
            case let .left(y):
                cairo_save(cr)
                cairo_translate(cr, frame.x - 10, frame.y + y - 1.5)
                cairo_rotate(cr, -.pi / 2)
                text(line.label, look, in: cr, x: 0, baselineBox: ScreenRect(x: 0, y: 0, width: 60, height: 10))
                cairo_restore(cr)
            case .none: break
            }
        }
        cairo_restore(cr)
    }

    /// The graticule over a map frame of `frame`'s size that `camera` shows: meridians and
    /// parallels, each written where it meets the frame's top, or else its left side. On a
    /// north-up page meridians meet the top and parallels the left; on a turned one both are
    /// turned lines.
    static func gridLines(frame: ScreenSize, camera: Camera) -> [GridLine] {
        // The frame's corners on the globe, longitudes unwrapped (a frame across 180° runs on
        // past it; labels say the wrapped value).
        let corners = [(0.0, 0.0), (frame.width, 0), (frame.width, frame.height), (0, frame.height)].map {
            WebMercator.unproject(camera.mapPoint(for: ScreenPoint(x: $0.0, y: $0.1)))
        }
        let lons = corners.map(\.longitude), lats = corners.map(\.latitude)
        guard let west = lons.min(), let east = lons.max(), let south = lats.min(), let north = lats.max() else { return [] }
        func page(_ lat: Double, _ lon: Double) -> ScreenPoint {
            camera.screenPointUnwrapped(for: WebMercator.project(Coordinate(latitude: lat, longitude: lon)))
        }
        let step = gridStep(span: max(east - west, north - south))
        // TRANSLATORS: east, after a longitude on a printed map's grid ("24.95° E").
        let eastward = trc("compass point", "E")
        // TRANSLATORS: west, after a longitude on a printed map's grid ("0.5° W").
        let westward = trc("compass point", "W")
        // TRANSLATORS: north, after a latitude on a printed map's grid ("60.17° N").
        let northward = trc("compass point", "N")
        // TRANSLATORS: south, after a latitude on a printed map's grid ("33.9° S").
        let southward = trc("compass point", "S")
        var lines: [GridLine] = []
        func add(_ a: ScreenPoint, _ b: ScreenPoint, _ label: String, meridian: Bool) {
            guard let (p, q) = clipped(a, b, width: frame.width, height: frame.height) else { return }
            let dx = b.x - a.x, dy = b.y - a.y
            var mark = GridLine.Mark.none
            if dy != 0, case let x = a.x - a.y / dy * dx, x >= 0, x <= frame.width {
                mark = .top(x: x)
            } else if dx != 0, case let y = a.y - a.x / dx * dy, y >= 0, y <= frame.height {
                mark = .left(y: y)
            }
            lines.append(GridLine(from: p, to: q, label: label, mark: mark, meridian: meridian))
        }
        for lon in Ticks.multiples(of: step, from: west, through: east) {
            add(page(south, lon), page(north, lon), gridLabel(Coordinate.wrapLongitude(lon), step: step, positive: eastward, negative: westward), meridian: true)
        }
        for lat in Ticks.multiples(of: step, from: south, through: north) {
            add(page(lat, west), page(lat, east), gridLabel(lat, step: step, positive: northward, negative: southward), meridian: false)
        }
        return lines
    }

    /// The part inside a frame `width` × `height` (from 0,0) of the line through `a` and `b`.
    static func clipped(_ a: ScreenPoint, _ b: ScreenPoint, width: Double, height: Double) -> (ScreenPoint, ScreenPoint)? {
        let dx = b.x - a.x, dy = b.y - a.y
        var t0 = -Double.infinity, t1 = Double.infinity
        // Each side: where the line crosses it, entering (p < 0) or leaving; parallel and outside, none.
        for (p, q) in [(-dx, a.x), (dx, width - a.x), (-dy, a.y), (dy, height - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
                continue
            }
            if p < 0 { t0 = max(t0, q / p) } else { t1 = min(t1, q / p) }
        }
        guard t0.isFinite, t1.isFinite, t0 <= t1 else { return nil }
        return (ScreenPoint(x: a.x + t0 * dx, y: a.y + t0 * dy), ScreenPoint(x: a.x + t1 * dx, y: a.y + t1 * dy))
    }
}
