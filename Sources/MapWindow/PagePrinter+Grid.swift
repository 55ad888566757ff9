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

    /// A latitude/longitude graticule over the map, its values in the margin: longitudes above
    /// the frame, latitudes up the left side. `camera` maps the frame's points.
    static func drawGrid(_ cr: OpaquePointer, _ layout: PrintLayout, camera: Camera) {
        let frame = layout.mapFrame
        // Longitudes unwrapped (a frame across 180° runs on past it; labels say the wrapped value).
        let nw = WebMercator.unproject(camera.mapPoint(for: ScreenPoint(x: 0, y: 0)))
        let se = WebMercator.unproject(camera.mapPoint(for: ScreenPoint(x: frame.width, y: frame.height)))
        func x(_ lon: Double) -> Double { frame.x + camera.screenPointUnwrapped(for: WebMercator.project(Coordinate(latitude: 0, longitude: lon))).x }
        let step = gridStep(span: max(se.longitude - nw.longitude, nw.latitude - se.latitude))
        let look = LabelLook(size: 7, color: Color(hex: 0x404040), haloWidth: 0)
        // TRANSLATORS: east, after a longitude on a printed map's grid ("24.95° E").
        let east = trc("compass point", "E")
        // TRANSLATORS: west, after a longitude on a printed map's grid ("0.5° W").
        let west = trc("compass point", "W")
        // TRANSLATORS: north, after a latitude on a printed map's grid ("60.17° N").
        let north = trc("compass point", "N")
        // TRANSLATORS: south, after a latitude on a printed map's grid ("33.9° S").
        let south = trc("compass point", "S")
        cairo_save(cr)
        cairo_set_source_rgba(cr, 0.2, 0.25, 0.4, 0.55)
        cairo_set_line_width(cr, 0.4)
        for lon in Ticks.multiples(of: step, from: nw.longitude, through: se.longitude) {
            let x = x(lon)
            cairo_move_to(cr, x, frame.y); cairo_line_to(cr, x, frame.y + frame.height); cairo_stroke(cr)
            let label = gridLabel(Coordinate.wrapLongitude(lon), step: step, positive: east, negative: west)
            text(label, look, in: cr, x: x + 1.5, baselineBox: ScreenRect(x: x, y: frame.y - 10, width: 60, height: 10))
        }
        for lat in Ticks.multiples(of: step, from: se.latitude, through: nw.latitude) {
            let y = frame.y + camera.screenPoint(for: Coordinate(latitude: lat, longitude: nw.longitude)).y
            cairo_move_to(cr, frame.x, y); cairo_line_to(cr, frame.x + frame.width, y); cairo_stroke(cr)
            // Up the left margin, read from below.
            cairo_save(cr)
            cairo_translate(cr, frame.x - 10, y - 1.5)
            cairo_rotate(cr, -.pi / 2)
            text(gridLabel(lat, step: step, positive: north, negative: south), look, in: cr, x: 0, baselineBox: ScreenRect(x: 0, y: 0, width: 60, height: 10))
            cairo_restore(cr)
        }
        cairo_restore(cr)
    }
}
