import CCairo
import MapCore
@testable import MapGraphics
import Testing

/// Text drawn for a page as glyphs of its own (so that a PDF reader gets each line whole):
/// the same picture as Pango's, glyph for glyph, and each line's text.
struct PageTextTests {
    /// Letter-spaced, wrapped onto two lines, with a halo: every offset Pango applies.
    let style = TextStyle.styled(LabelLook(size: 11, haloWidth: 1.2, letterSpacing: 0.2, maxWidth: 7))
    let name = "Kaisaniemen puistokuja"

    @Test func itsPictureIsTheSpritesSize() throws {
        let page = try #require(TextRasterizer.pageText(name, style: style))
        let sprite = try CairoCanvas.forPage { try TextRasterizer.render(name, style: style, pixelRatio: 1) }
        #expect(page.width == Double(sprite.width) && page.height == Double(sprite.height))
    }

    @Test func eachLineIsItsText() throws {
        let page = try #require(TextRasterizer.pageText(name, style: style))
        #expect(page.lines.map(\.text) == ["Kaisaniemen", "puistokuja"])
        #expect(page.lines.allSatisfy { !$0.runs.isEmpty })
    }

    /// The glyphs stand where Pango puts them: their outlines, made in the same frame, are
    /// Pango's outline of the laid-out text (what the halo is stroked along) point for point.
    @Test("Glyphs where Pango puts them", arguments: ["Kaisaniemen puistokuja", "Yrjö-Koskisen katu", "Ääkkönen"])
    func glyphsWherePangoPutsThem(text: String) throws {
        let page = try #require(TextRasterizer.pageText(text, style: style))
        let pango = try #require(page.haloPath)
        let canvas = try CairoCanvas.forPage { try CairoCanvas(width: 1, height: 1) }
        let cr = canvas.context
        for line in page.lines {
            for run in line.runs {
                cairo_set_scaled_font(cr, run.font.pointer)
                cairo_glyph_path(cr, run.glyphs, Int32(run.glyphs.count))
            }
        }
        let ours = try #require(cairo_copy_path(cr))
        defer { cairo_path_destroy(ours) }
        /// The path's points, element by element (a move to where the path ends left out: Pango
        /// puts the current point back).
        func points(_ p: UnsafeMutablePointer<cairo_path_t>) -> [Double] {
            var out: [[Double]] = [], i = 0
            while i < Int(p.pointee.num_data) {
                let header = p.pointee.data[i].header, n = Int(header.length)
                out.append([Double(header.type.rawValue)] + (1..<max(n, 1)).flatMap { [p.pointee.data[i + $0].point.x, p.pointee.data[i + $0].point.y] })
                i += max(n, 1)
            }
            if out.last?.first == Double(CAIRO_PATH_MOVE_TO.rawValue) { out.removeLast() }
            return out.flatMap { $0 }
        }
        let a = points(pango.pointer), b = points(ours)
        #expect(a.count == b.count && a.count > 100)
        #expect(zip(a, b).allSatisfy { abs($0 - $1) < 1e-6 }, "\(zip(a, b).map { abs($0 - $1) }.max() ?? 0)")
    }
}
