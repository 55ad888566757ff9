import CCairo
import FoundationEssentials
import Glibc
import MapCore
import MapTiles
import Platform

/// The overlay sprites, drawn with Cairo's vector operations at the size and density they
/// are shown at, once; the compositor then only scales and fades them.
public enum OverlaySprites {
    /// A pulsing circle of radius `r` points: a filled disc and a crisp rim, inside an image
    /// exactly 2r points across.
    public static func circle(_ style: CircleStyle, radius r: Int, pixelRatio k: Double) throws -> Bitmap {
        let size = Int(saturating: (Double(2 * r) * k).rounded())
        let canvas = try CairoCanvas(width: size, height: size)
        let cr = canvas.context, c = Double(size) / 2, stroke = style.lineWidth * k
        cairo_arc(cr, c, c, max(c - stroke / 2 - 0.5, 0.5), 0, 2 * .pi)
        canvas.setColor(style.fill)
        cairo_fill_preserve(cr)
        canvas.setColor(style.stroke)
        cairo_set_line_width(cr, stroke)
        cairo_stroke(cr)
        return canvas.bitmap()
    }

    /// The accuracy disc: the same circle with a faint fill and a thin rim.
    public static func accuracyDisc(_ color: Color, radius r: Int, pixelRatio k: Double) throws -> Bitmap {
        try circle(CircleStyle(fill: Color(r: color.r, g: color.g, b: color.b, a: 0.13),
                               stroke: Color(r: color.r, g: color.g, b: color.b, a: 0.45), lineWidth: 1),
                   radius: r, pixelRatio: k)
    }

    /// The halo at one of its raster sizes: a ripple, faint inside and brightest near its edge.
    public static func halo(_ color: Color, raster: Int, pixelRatio k: Double) throws -> Bitmap {
        let diameter = HaloPulse.diameter * HaloPulse.rasterFractions[min(max(raster, 0), 2)]
        let size = max(Int(saturating: (diameter * k).rounded()), 2)
        let canvas = try CairoCanvas(width: size, height: size)
        let cr = canvas.context, c = Double(size) / 2
        let g = cairo_pattern_create_radial(c, c, 0, c, c, c)!
        defer { cairo_pattern_destroy(g) }
        cairo_pattern_add_color_stop_rgba(g, 0, color.r, color.g, color.b, 0.18)
        cairo_pattern_add_color_stop_rgba(g, 0.82, color.r, color.g, color.b, 0.42)
        cairo_pattern_add_color_stop_rgba(g, 0.93, color.r, color.g, color.b, 0.6)
        cairo_pattern_add_color_stop_rgba(g, 1, color.r, color.g, color.b, 0)
        cairo_set_source(cr, g)
        cairo_arc(cr, c, c, c, 0, 2 * .pi)
        cairo_fill(cr)
        return canvas.bitmap()
    }

    /// The 23-point dot: a soft shadow, a white ring and the coloured disc, lit from above.
    public static func locationDot(_ color: Color, pixelRatio k: Double) throws -> Bitmap {
        let half = LocationAnnotation.dotDiameter / 2 + 4
        let size = Int(saturating: (2 * half * k).rounded())
        let canvas = try CairoCanvas(width: size, height: size)
        let cr = canvas.context, c = Double(size) / 2
        let ring = LocationAnnotation.dotDiameter / 2 * k
        // Shadow: a radial falloff slightly below the dot.
        let shadow = cairo_pattern_create_radial(c, c + 0.8 * k, ring * 0.8, c, c + 0.8 * k, ring + 4 * k)!
        cairo_pattern_add_color_stop_rgba(shadow, 0, 0, 0, 0, 0.32)
        cairo_pattern_add_color_stop_rgba(shadow, 1, 0, 0, 0, 0)
        cairo_set_source(cr, shadow)
        cairo_arc(cr, c, c + 0.8 * k, ring + 4 * k, 0, 2 * .pi)
        cairo_fill(cr)
        cairo_pattern_destroy(shadow)
        cairo_arc(cr, c, c, ring, 0, 2 * .pi)
        canvas.setColor(Color(hex: 0xFFFFFF))
        cairo_fill(cr)
        let inner = ring - 3 * k
        let light = cairo_pattern_create_radial(c - inner * 0.35, c - inner * 0.4, 0, c, c, inner)!
        cairo_pattern_add_color_stop_rgba(light, 0, min(color.r + 0.18, 1), min(color.g + 0.18, 1), min(color.b + 0.18, 1), 1)
        cairo_pattern_add_color_stop_rgba(light, 1, color.r * 0.92, color.g * 0.92, color.b * 0.92, 1)
        cairo_set_source(cr, light)
        cairo_arc(cr, c, c, inner, 0, 2 * .pi)
        cairo_fill(cr)
        cairo_pattern_destroy(light)
        return canvas.bitmap()
    }

    /// A cone of light pointing up (north), 60° wide, fading outwards.
    public static func headingCone(_ color: Color, pixelRatio k: Double) throws -> Bitmap {
        let half = LocationAnnotation.dotDiameter * 1.6
        let size = Int(saturating: (2 * half * k).rounded())
        let canvas = try CairoCanvas(width: size, height: size)
        let cr = canvas.context, c = Double(size) / 2
        let g = cairo_pattern_create_radial(c, c, 0, c, c, c)!
        defer { cairo_pattern_destroy(g) }
        cairo_pattern_add_color_stop_rgba(g, 0, color.r, color.g, color.b, 0.6)
        cairo_pattern_add_color_stop_rgba(g, 1, color.r, color.g, color.b, 0)
        cairo_set_source(cr, g)
        cairo_move_to(cr, c, c)
        cairo_arc(cr, c, c, c, -.pi / 2 - .pi / 6, -.pi / 2 + .pi / 6)
        cairo_close_path(cr)
        cairo_fill(cr)
        return canvas.bitmap()
    }
}
