import CCairo
import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapGraphics
import Platform

/// Writes a map page: PDF or SVG (vectors and real text) or PNG at a resolution, with its
/// furniture when it is a sheet of paper: the title above the map, a frame, and under it the
/// stated scale and a north arrow (the scale bar and the credit are the map's own, inside the
/// frame). The file appears whole, by rename, or not at all.
public enum PagePrinter {
    public enum Format: String, Sendable {
        case pdf, svg, png
        /// The format a file name asks for, by its extension.
        public init?(path: String) {
            let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
            self.init(rawValue: ext)
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes `list` (composed by `camera` for `layout.mapFrame`'s size, in points) to
    /// `path`. `pixelRatio`: pixels per point for PNG (dpi / 72). A sheet (`furnished`)
    /// states the scale the camera shows at its centre, and with `grid` a graticule.
    public static func write(_ list: DrawList, with renderer: PageRenderer, layout: PrintLayout, format: Format,
                             pixelRatio: Double = 1, camera: Camera, grid: Bool = false, to path: String,
                             progress: (Double) -> Void = { _ in }) throws {
        let temporary = AtomicFile.temporaryName(for: path)
        let (w, h) = (layout.width, layout.height)
        let surface: OpaquePointer
        switch format {
        case .pdf: surface = cairo_pdf_surface_create(temporary, w, h)
        case .svg:
            surface = cairo_svg_surface_create(temporary, w, h)
            cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PT)
        case .png:
            surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(saturating: (w * pixelRatio).rounded()), Int32(saturating: (h * pixelRatio).rounded()))
        }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw Failure(description: "\(path): \(String(cString: cairo_status_to_string(cairo_surface_status(surface))))")
        }
        if format == .pdf {
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "Meridian")
            if let title = layout.title { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title) }
        }
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        if format == .png { cairo_scale(cr, pixelRatio, pixelRatio) }
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)

        let frame = layout.mapFrame
        cairo_save(cr)
        cairo_translate(cr, frame.x, frame.y)
        renderer.draw(list, into: cr, size: (frame.width, frame.height), viewZoom: camera.zoom, progress: progress)
        cairo_restore(cr)
        if layout.furnished {
            if grid { drawGrid(cr, layout, camera: camera) }
            furnish(cr, layout, scale: PrintLayout.scale(zoom: camera.zoom, latitude: camera.centerCoordinate.latitude), north: camera.northOnScreen)
        }

        cairo_surface_flush(surface)
        if format == .png {
            guard cairo_surface_write_to_png(surface, temporary) == CAIRO_STATUS_SUCCESS else {
                unlink(temporary)
                throw Failure(description: tr("%@: cannot write the picture", path))
            }
        }
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            unlink(temporary)
            throw Failure(description: "\(path): \(String(cString: cairo_status_to_string(status)))")
        }
        // Cairo wrote the file; it is made durable before its name says it is complete.
        let fd = open(temporary, O_RDONLY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); close(fd) }
        do { try AtomicFile.publish(temporary, as: path) } catch { throw Failure(description: "\(error)") }
    }

    /// The title, the frame, the stated scale and the north arrow (`north`: degrees clockwise
    /// from the page's up at which north lies, `Camera.northOnScreen`).
    static func furnish(_ cr: OpaquePointer, _ layout: PrintLayout, scale: Double, north: Double = 0) {
        let frame = layout.mapFrame, footer = layout.footer
        cairo_set_source_rgb(cr, 0.25, 0.25, 0.25)
        cairo_set_line_width(cr, 0.75)
        cairo_rectangle(cr, frame.x, frame.y, frame.width, frame.height)
        cairo_stroke(cr)
        if let title = layout.title {
            let look = LabelLook(bold: true, size: 16, color: Color(hex: 0x202020), haloWidth: 0)
            text(title, look, in: cr, x: frame.x, baselineBox: ScreenRect(x: frame.x, y: layout.margin, width: frame.width, height: PrintLayout.titleBand))
        }
        let look = LabelLook(size: 10, color: Color(hex: 0x303030), haloWidth: 0)
        // TRANSLATORS: under a printed map: its scale ("Scale 1:25,000").
        text(tr("Scale %@", PrintLayout.statedScale(scale)), look, in: cr, x: footer.x, baselineBox: footer)
        northArrow(cr, centre: (footer.x + footer.width - 10, footer.y + footer.height / 2), degrees: north)
    }

    /// One line of real text, vertically centred in `box`, starting at `x`.
    static func text(_ s: String, _ look: LabelLook, in cr: OpaquePointer, x: Double, baselineBox box: ScreenRect) {
        guard let picture = try? CairoCanvas.forPage({ try SpritePainters.paint(SpriteKey(LabelSprite.text(s, .styled(look))), pixelRatio: 1) }),
              let recording = picture.recording as? CairoRecording else { return }
        cairo_save(cr)
        cairo_set_source_surface(cr, recording.surface, x, box.y + (box.height - Double(picture.height)) / 2)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// A north arrow: a split arrowhead pointing to north, turned by `degrees` clockwise from
    /// the page's up (0 on a north-up page) about the middle of its length, with an N beside it.
    static func northArrow(_ cr: OpaquePointer, centre: (x: Double, y: Double), degrees: Double = 0) {
        let (x, y) = centre
        let p = northArrowPoints(centre: centre, degrees: degrees)
        cairo_save(cr)
        cairo_set_line_width(cr, 0.6)
        // The right half dark, the left light.
        cairo_move_to(cr, p[0].x, p[0].y); cairo_line_to(cr, p[1].x, p[1].y); cairo_line_to(cr, p[2].x, p[2].y); cairo_close_path(cr)
        cairo_set_source_rgb(cr, 0.15, 0.15, 0.15); cairo_fill_preserve(cr); cairo_stroke(cr)
        cairo_move_to(cr, p[0].x, p[0].y); cairo_line_to(cr, p[3].x, p[3].y); cairo_line_to(cr, p[2].x, p[2].y); cairo_close_path(cr)
        cairo_set_source_rgb(cr, 1, 1, 1); cairo_fill_preserve(cr)
        cairo_set_source_rgb(cr, 0.15, 0.15, 0.15); cairo_stroke(cr)
        cairo_restore(cr)
        // Turned, the arrow reaches 9 points around its middle: the N keeps clear of it.
        let left = degrees == 0 ? x - 14 : x - 18
        // TRANSLATORS: the letter under a printed map's north arrow: north.
        text(trc("compass point", "N"), LabelLook(bold: true, size: 8, color: Color(hex: 0x202020), haloWidth: 0), in: cr, x: left,
             baselineBox: ScreenRect(x: left, y: y - 8, width: 8, height: 12))
    }

    /// The north arrow's corners on the page: its tip, right barb, notch and left barb.
    /// Upright, the tip is 11 points above `centre`, the barbs 3 below it and 5 aside, the
    /// notch at it; turned by `degrees` clockwise about the middle of its length.
    static func northArrowPoints(centre: (x: Double, y: Double), degrees: Double) -> [ScreenPoint] {
        let a = degrees * .pi / 180, (s, c) = (sin(a), cos(a))
        let pivot = (x: centre.x, y: centre.y - 4)
        func turned(_ dx: Double, _ dy: Double) -> ScreenPoint { ScreenPoint(x: pivot.x + dx * c - dy * s, y: pivot.y + dx * s + dy * c) }
        return [turned(0, -7), turned(5, 7), turned(0, 4), turned(-5, 7)]
    }
}
