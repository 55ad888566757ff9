import CCairo
import FoundationEssentials
import MapGeometry
import MapTiles
import Platform

/// The part of an ancestor tile's picture under one of its descendants, enlarged to a whole
/// tile (filtered, as the compositor would scale it), for raster sources beyond their
/// deepest zoom.
public enum RasterEnlarger {
    /// `image`: the ancestor's picture (any channel order, straight or premultiplied);
    /// `pixels`: the result's size.
    public static func enlarge(_ image: Bitmap, of ancestor: TileID, to tile: TileID, pixels: Int) throws -> Bitmap {
        let dz = tile.z - ancestor.z
        guard dz > 0, dz < 31, image.width > 0, image.height > 0, tile.ancestor(atZoom: ancestor.z) == ancestor else { return image }
        // The descendant's square inside the ancestor, in the ancestor's pixels.
        let span = Double(image.width) / Double(1 << dz)
        let ox = Double(tile.x - (ancestor.x << dz)) * span, oy = Double(tile.y - (ancestor.y << dz)) * Double(image.height) / Double(1 << dz)
        let canvas = try CairoCanvas(width: pixels, height: pixels)
        image.withCairoSurface { from in
            let cr = canvas.context
            cairo_scale(cr, Double(pixels) / span, Double(pixels) / (Double(image.height) / Double(1 << dz)))
            cairo_set_source_surface(cr, from, -ox, -oy)
            // Edges sample the ancestor's neighbouring pixels (clamped), not transparency.
            cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR)
            cairo_paint(cr)
        }
        return canvas.bitmap()
    }
}
