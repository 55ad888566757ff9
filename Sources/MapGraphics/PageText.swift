import CCairo
import CPango
import FoundationEssentials
import Glibc
import MapCore
import Platform

// Text on a page that a PDF reader finds whole. Pango hands Cairo every character as a
// cluster of its own, and a reader joins characters into words by where they stand: spaced
// letters (a style's letter spacing) and text turned off the page's axes come apart ("U n
// ion in k atu"). Drawn here from Pango's glyphs at Pango's places, a line of text is one
// cluster instead, which Cairo writes into a PDF as an ActualText span: the reader takes the
// line's text from it, whole, however its glyphs stand. (Cairo 1.16's tags make links and
// a structure tree, not ActualText; clusters are how Cairo writes it.)

/// A Cairo scaled font, held.
public final class ScaledFont {
    public let pointer: OpaquePointer
    init(retaining p: OpaquePointer) { pointer = cairo_scaled_font_reference(p) }
    deinit { cairo_scaled_font_destroy(pointer) }
}

/// Glyphs of one font, in one frame: where they stand in it, and the frame in the user space
/// they are shown in.
public struct PageGlyphRun {
    public var font: ScaledFont
    public var glyphs: [cairo_glyph_t]
    public var frame: cairo_matrix_t

    public init(font: ScaledFont, glyphs: [cairo_glyph_t], frame: cairo_matrix_t = PageGlyphRun.identity) {
        self.font = font; self.glyphs = glyphs; self.frame = frame
    }

    public static var identity: cairo_matrix_t {
        var m = cairo_matrix_t()
        cairo_matrix_init_identity(&m)
        return m
    }
}

/// A path copied out of a Cairo context.
public final class CairoPath {
    public let pointer: UnsafeMutablePointer<cairo_path_t>
    init(_ p: UnsafeMutablePointer<cairo_path_t>) { pointer = p }
    deinit { cairo_path_destroy(pointer) }
}

/// A text sprite as a page draws it: its lines' glyphs where `TextRasterizer.render` puts them
/// in its picture (points, the picture's top left at 0,0), and its look.
public struct PageText {
    public struct Line {
        public var text: String
        public var runs: [PageGlyphRun]
    }
    public var lines: [Line]
    /// The picture's size, in points.
    public var width: Double, height: Double
    public var color: Color
    /// The halo's width (a stroke twice as wide along the glyphs' outlines) and colour.
    public var halo: Double
    public var haloColor: Color
    /// The outline the halo is stroked along, as the picture has it: made in the picture's
    /// own frame, where Cairo hints the outlines, and only then turned with the letter.
    public var haloPath: CairoPath?
}

extension TextRasterizer {
    /// The size of the picture `layout` is drawn into at `k` and where its origin lies in it:
    /// the logical extent and the halo's room around it, as `render` makes it.
    static func frame(of layout: OpaquePointer, _ f: Font, _ k: Double) -> (width: Int, height: Int, x: Double, y: Double) {
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, &ink, &logical)
        let pad = Int(saturating: (f.halo * k).rounded(.up)) + 1
        return (max(Int(logical.width), 1) + 2 * pad, max(Int(logical.height), 1) + 2 * pad, Double(pad - Int(logical.x)), Double(pad - Int(logical.y)))
    }

    /// `text` as `render` draws it for a page (pixel ratio 1), as glyphs; nil when Pango would
    /// draw something other than glyphs (a box for a letter no font has).
    public static func pageText(_ text: String, style: TextStyle, basemap: BasemapStyle = .standard) -> PageText? {
        let f = font(style, basemap)
        // The layout as a page's sprite lays it out: on a recording, whose font options differ from pixels'.
        guard let canvas = try? CairoCanvas.forPage({ try CairoCanvas(width: 1, height: 1) }) else { return nil }
        let layout = makeLayout(canvas.context, text, f, 1)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let box = frame(of: layout, f, 1)
        guard let lines = glyphLines(layout, x: box.x, y: box.y) else { return nil }
        var outline: CairoPath?
        if f.halo > 0 {
            let cr = canvas.context
            cairo_move_to(cr, box.x, box.y)
            pango_cairo_layout_path(cr, layout)
            if let p = cairo_copy_path(cr) { outline = CairoPath(p) }
            cairo_new_path(cr)
        }
        return PageText(lines: lines, width: Double(box.width), height: Double(box.height), color: f.color,
                        halo: f.halo, haloColor: f.haloColor ?? basemap.labelHalo, haloPath: outline)
    }

    /// The glyphs of `layout` drawn with its origin at `x`, `y`, line by line, where
    /// `pango_cairo_show_layout` puts them; nil for what it draws otherwise (boxes for
    /// letters no font has, shapes, vertical runs).
    static func glyphLines(_ layout: OpaquePointer, x: Double, y: Double) -> [PageText.Line]? {
        guard let chars = pango_layout_get_text(layout), let iter = pango_layout_get_iter(layout) else { return nil }
        defer { pango_layout_iter_free(iter) }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(chars).assumingMemoryBound(to: UInt8.self), count: strlen(chars))
        let scale = Double(PANGO_SCALE)
        var lines: [PageText.Line] = []
        repeat {
            guard let line = pango_layout_iter_get_line_readonly(iter) else { break }
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            let baseline = pango_layout_iter_get_baseline(iter)
            var runs: [PageGlyphRun] = []
            var offset: Int32 = 0
            var node = line.pointee.runs
            while let n = node {
                node = n.pointee.next
                guard let data = n.pointee.data else { continue }
                let run = data.assumingMemoryBound(to: PangoGlyphItem.self).pointee
                guard let item = run.item, let glyphs = run.glyphs else { continue }
                let analysis = item.pointee.analysis
                guard analysis.flags & UInt8(PANGO_ANALYSIS_FLAG_CENTERED_BASELINE) == 0, !Self.hasShape(analysis.extra_attrs),
                      let font = analysis.font, let scaled = pango_cairo_font_get_scaled_font(OpaquePointer(font)),
                      cairo_scaled_font_status(scaled) == CAIRO_STATUS_SUCCESS else { return nil }
                // Pango units of hostile lengths: wrapping, never trapping.
                offset &+= run.start_x_offset
                let bx = x + (Double(logical.x) + Double(offset)) / scale, by = y + (Double(baseline) - Double(run.y_offset)) / scale
                var position: Int32 = 0
                var out: [cairo_glyph_t] = []
                for i in 0..<Int(max(glyphs.pointee.num_glyphs, 0)) {
                    let g = glyphs.pointee.glyphs[i]
                    defer { position &+= g.geometry.width }
                    guard g.glyph != PANGO_GLYPH_EMPTY, g.glyph != (0x20 | PANGO_GLYPH_UNKNOWN_FLAG) else { continue }
                    guard g.glyph & PANGO_GLYPH_UNKNOWN_FLAG == 0 else { return nil }
                    out.append(cairo_glyph_t(index: UInt(g.glyph), x: bx + (Double(position) + Double(g.geometry.x_offset)) / scale,
                                             y: by + Double(g.geometry.y_offset) / scale))
                }
                offset &+= pango_glyph_string_get_width(glyphs) &+ run.end_x_offset
                if !out.isEmpty { runs.append(PageGlyphRun(font: ScaledFont(retaining: scaled), glyphs: out)) }
            }
            let start = Int(max(line.pointee.start_index, 0)), end = min(start + Int(max(line.pointee.length, 0)), bytes.count)
            let text = start < end ? String(decoding: bytes[start..<end], as: UTF8.self) : ""
            // A wrapped line ends at the space it was broken at: the reader has its own line ends.
            let trimmed = text.unicodeScalars.reversed().drop(while: { $0.properties.isWhitespace }).reversed()
            lines.append(PageText.Line(text: String(String.UnicodeScalarView(trimmed)), runs: runs))
        } while pango_layout_iter_next_line(iter) != 0
        return lines
    }

    private static func hasShape(_ attrs: UnsafeMutablePointer<GSList>?) -> Bool {
        var node = attrs
        while let n = node {
            if let a = n.pointee.data?.assumingMemoryBound(to: PangoAttribute.self), a.pointee.klass?.pointee.type == PANGO_ATTR_SHAPE { return true }
            node = n.pointee.next
        }
        return false
    }

    /// Shows `runs` with the current source so that a PDF reader reads `text` from them, once:
    /// the run of most glyphs carries it as a single cluster (an ActualText span), the others
    /// as clusters of no text. A carrier of one glyph is given a space after it: Cairo would
    /// otherwise map that glyph itself to the whole text, everywhere in the file.
    public static func showSearchable(_ text: String, runs: [PageGlyphRun], in cr: OpaquePointer) {
        guard let carrier = runs.indices.max(by: { runs[$0].glyphs.count < runs[$1].glyphs.count }) else { return }
        let utf8 = Array(text.utf8)
        for (i, run) in runs.enumerated() where !run.glyphs.isEmpty {
            var glyphs = run.glyphs
            let says = i == carrier ? utf8 : []
            if i == carrier, glyphs.count == 1, text.unicodeScalars.count > 1, let space = Self.space(in: run.font.pointer) {
                glyphs.append(cairo_glyph_t(index: space, x: glyphs[0].x, y: glyphs[0].y))
            }
            cairo_save(cr)
            var m = run.frame
            cairo_transform(cr, &m)
            cairo_set_scaled_font(cr, run.font.pointer)
            var cluster = cairo_text_cluster_t(num_bytes: Int32(clamping: says.count), num_glyphs: Int32(clamping: glyphs.count))
            let chars = says.map { CChar(bitPattern: $0) } + [0]
            chars.withUnsafeBufferPointer { c in
                cairo_show_text_glyphs(cr, c.baseAddress, Int32(clamping: says.count), glyphs, Int32(clamping: glyphs.count), &cluster, 1, cairo_text_cluster_flags_t(0))
            }
            cairo_restore(cr)
        }
    }

    /// The space's glyph in `font`, if it has one.
    private static func space(in font: OpaquePointer) -> UInt? {
        var glyphs: UnsafeMutablePointer<cairo_glyph_t>?
        var count: Int32 = 0
        guard cairo_scaled_font_text_to_glyphs(font, 0, 0, " ", 1, &glyphs, &count, nil, nil, nil) == CAIRO_STATUS_SUCCESS, let glyphs else { return nil }
        defer { cairo_glyph_free(glyphs) }
        return count == 1 ? glyphs[0].index : nil
    }

    /// Shows a laid-out text's lines searchably (`showSearchable`), each line its own text.
    static func showSearchable(_ lines: [PageText.Line], in cr: OpaquePointer) {
        for line in lines { showSearchable(line.text, runs: line.runs, in: cr) }
    }
}
