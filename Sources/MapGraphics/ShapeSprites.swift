import CCairo
import FoundationEssentials
import Glibc
import MapCore
import MapTiles
import Platform

/// Draws the shapes that are placed turned: the compass needle and the solid square.
public enum ShapePainter: SpritePainter {
    public static func paint(_ spec: ShapeSprite, pixelRatio k: Double) throws -> Bitmap {
        switch spec {
        case .compassNeedle: return try compassNeedle(pixelRatio: k)
        case let .solid(color):
            let n = ShapeSprite.solidPixels
            let canvas = try CairoCanvas(width: n, height: n)
            canvas.setColor(color)
            cairo_paint(canvas.context)
            return canvas.bitmap()
        }
    }

    /// A slim diamond pointing up, red to the north and white to the south with a grey rim,
    /// a dot at its pivot: how compasses on map buttons look (MapKit, MapLibre).
    static func compassNeedle(pixelRatio k: Double) throws -> Bitmap {
        let size = max(Int(saturating: (ShapeSprite.needleSide * k).rounded()), 4)
        let canvas = try CairoCanvas(width: size, height: size)
        let cr = canvas.context, s = Double(size), c = s / 2
        let tip = s * 0.05, width = s * 0.16
        func outline(north: Bool) {
            cairo_new_path(cr)
            cairo_move_to(cr, c, north ? tip : s - tip)
            cairo_line_to(cr, c + width, c)
            cairo_line_to(cr, c - width, c)
            cairo_close_path(cr)
        }
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_width(cr, max(k, 1))
        outline(north: false)
        canvas.setColor(Color(hex: 0xFFFFFF))
        cairo_fill_preserve(cr)
        canvas.setColor(Color(hex: 0x8E8E93))
        cairo_stroke(cr)
        outline(north: true)
        canvas.setColor(Color(hex: 0xE5302A))
        cairo_fill_preserve(cr)
        canvas.setColor(Color(hex: 0xB3261E))
        cairo_stroke(cr)
        cairo_arc(cr, c, c, max(1.3 * k, 1), 0, 2 * .pi)
        canvas.setColor(Color(hex: 0x3A3A3C))
        cairo_fill(cr)
        return canvas.bitmap()
    }
}
