import CCairo
import Foundation
import MapCore
import MapGraphics
import Platform

// Draws Meridian's application icon — a map tile with a coast, a river and a red pin — once
// as SVG and as PNGs at the hicolor sizes, with the same Cairo code for all of them.
//
//   icon-renderer OUTPUT_DIR     → OUTPUT_DIR/scalable/apps/ID.svg, OUTPUT_DIR/NxN/apps/ID.png

let appID = "io.github.meridian.Meridian"
let sizes = [16, 24, 32, 48, 64, 128, 256, 512]

/// The icon in a 128-unit square; the caller scales.
func drawIcon(_ cr: OpaquePointer) {
    func rgb(_ hex: UInt32, _ a: Double = 1) {
        cairo_set_source_rgba(cr, Double(hex >> 16 & 0xff) / 255, Double(hex >> 8 & 0xff) / 255, Double(hex & 0xff) / 255, a)
    }
    func roundedSquare(_ x: Double, _ y: Double, _ s: Double, _ r: Double) {
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + s - r, y + r, r, -.pi / 2, 0)
        cairo_arc(cr, x + s - r, y + s - r, r, 0, .pi / 2)
        cairo_arc(cr, x + r, y + s - r, r, .pi / 2, .pi)
        cairo_arc(cr, x + r, y + r, r, .pi, 1.5 * .pi)
        cairo_close_path(cr)
    }
    // The tile: sea, with land sweeping in from the lower left.
    cairo_save(cr)
    roundedSquare(8, 8, 112, 22)
    cairo_clip_preserve(cr)
    rgb(0xAAD0E6)
    cairo_fill(cr)
    cairo_move_to(cr, 8, 44)
    cairo_curve_to(cr, 34, 40, 44, 58, 64, 54)
    cairo_curve_to(cr, 84, 50, 96, 30, 120, 34)
    cairo_line_to(cr, 120, 120)
    cairo_line_to(cr, 8, 120)
    cairo_close_path(cr)
    rgb(0xF3F0E8)
    cairo_fill(cr)
    // A town and a river, as on the basemap.
    cairo_arc(cr, 36, 88, 13, 0, 2 * .pi)
    rgb(0xE8DFD1)
    cairo_fill(cr)
    cairo_move_to(cr, 66, 54)
    cairo_curve_to(cr, 62, 74, 84, 86, 78, 120)
    rgb(0x7FB2D5)
    cairo_set_line_width(cr, 4)
    cairo_stroke(cr)
    // A border, dashed.
    cairo_move_to(cr, 8, 104)
    cairo_curve_to(cr, 40, 96, 90, 112, 120, 92)
    rgb(0x9B8FB0)
    cairo_set_line_width(cr, 2.5)
    let dash: [Double] = [6, 4]
    cairo_set_dash(cr, dash, 2, 0)
    cairo_stroke(cr)
    cairo_set_dash(cr, nil, 0, 0)
    cairo_restore(cr)
    // A thin rim so the tile reads on light and dark panels alike.
    roundedSquare(8.5, 8.5, 111, 21.5)
    rgb(0x000000, 0.18)
    cairo_set_line_width(cr, 1)
    cairo_stroke(cr)

    // The pin's shadow, then the pin.
    cairo_save(cr)
    cairo_translate(cr, 78, 98)
    cairo_scale(cr, 1, 0.35)
    let shadow = cairo_pattern_create_radial(0, 0, 0, 0, 0, 22)!
    cairo_pattern_add_color_stop_rgba(shadow, 0, 0, 0, 0, 0.35)
    cairo_pattern_add_color_stop_rgba(shadow, 1, 0, 0, 0, 0)
    cairo_set_source(cr, shadow)
    cairo_arc(cr, 0, 0, 22, 0, 2 * .pi)
    cairo_fill(cr)
    cairo_pattern_destroy(shadow)
    cairo_restore(cr)
    // The map's own pin, scaled up, its tip where the shadow falls.
    cairo_save(cr)
    let k = 2.4
    cairo_translate(cr, 70 - Pin.imageSize.width / 2 * k, 99 - Pin.imageSize.height * k)
    cairo_scale(cr, k, k)
    PinSprites.drawPin(cr, Color(hex: 0xFF3B30))
    cairo_restore(cr)
}

func check(_ status: cairo_status_t, _ what: String) {
    guard status == CAIRO_STATUS_SUCCESS else {
        FileHandle.standardError.write(Data("icon-renderer: \(what): \(String(cString: cairo_status_to_string(status)))\n".utf8))
        exit(1)
    }
}

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: icon-renderer OUTPUT_DIR\n".utf8))
    exit(2)
}
let out = URL(fileURLWithPath: CommandLine.arguments[1])
let fm = FileManager.default

let svgDir = out.appendingPathComponent("scalable/apps")
try fm.createDirectory(at: svgDir, withIntermediateDirectories: true)
let svgPath = svgDir.appendingPathComponent("\(appID).svg").path
let svg = cairo_svg_surface_create(svgPath, 128, 128)!
let svgContext = cairo_create(svg)!
drawIcon(svgContext)
check(cairo_status(svgContext), svgPath)
cairo_destroy(svgContext)
cairo_surface_finish(svg)
check(cairo_surface_status(svg), svgPath)
cairo_surface_destroy(svg)

for size in sizes {
    let dir = out.appendingPathComponent("\(size)x\(size)/apps")
    try fm.createDirectory(at: dir, withIntermediateDirectories: true)
    let path = dir.appendingPathComponent("\(appID).png").path
    let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size), Int32(size))!
    let cr = cairo_create(surface)!
    cairo_scale(cr, Double(size) / 128, Double(size) / 128)
    drawIcon(cr)
    check(cairo_status(cr), path)
    check(cairo_surface_write_to_png(surface, path), path)
    cairo_destroy(cr)
    cairo_surface_destroy(surface)
}
print("icon-renderer: \(svgPath) and \(sizes.count) PNGs")
