import CCairo
import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapTiles
import Platform

/// Paints the debug grid: a tinted square per tile, its border, and its z/x/y in the middle.
public enum DebugTilePainter {
    public static func paint(_ tile: TileID, pixelSize: Int) throws -> Bitmap {
        let canvas = try CairoCanvas(width: pixelSize, height: pixelSize)
        let cr = canvas.context
        let k = Double(pixelSize) / 256
        cairo_scale(cr, k, k)
        // A checkerboard tint so neighbouring tiles are told apart at a glance.
        let even = (tile.x + tile.y) % 2 == 0
        canvas.fill(even ? .styleGround : Color(hex: 0xE9EEF2))
        canvas.setColor(Color(hex: 0x8A9BA8, alpha: 0.9))
        cairo_set_line_width(cr, 1)
        cairo_rectangle(cr, 0.5, 0.5, 255, 255)
        cairo_stroke(cr)
        // Quarter lines show where the children will be.
        canvas.setColor(Color(hex: 0x8A9BA8, alpha: 0.35))
        cairo_set_dash(cr, [4, 4], 2, 0)
        cairo_move_to(cr, 128, 0); cairo_line_to(cr, 128, 256)
        cairo_move_to(cr, 0, 128); cairo_line_to(cr, 256, 128)
        cairo_stroke(cr)
        cairo_set_dash(cr, nil, 0, 0)

        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        let label = "\(tile.z)/\(tile.x)/\(tile.y)"
        var size = 28.0
        var ext = cairo_text_extents_t()
        repeat {
            cairo_set_font_size(cr, size)
            cairo_text_extents(cr, label, &ext)
            size -= 2
        } while ext.width > 220 && size > 8
        canvas.setColor(Color(hex: 0x34495E))
        cairo_move_to(cr, 128 - ext.width / 2 - ext.x_bearing, 128 - ext.height / 2 - ext.y_bearing)
        cairo_show_text(cr, label)
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, 11)
        canvas.setColor(Color(hex: 0x5D6D7E))
        cairo_move_to(cr, 8, 18)
        cairo_show_text(cr, "z\(tile.z)")
        return canvas.bitmap()
    }
}
