import CCairo
import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapGraphics
import Platform

/// Names along lines on a page. The window sets such a name letter by letter, each letter a
/// sprite turned with the line; drawn so on paper, every letter is a text of its own and a PDF
/// reader finds "U n ion in k atu". Here the letters of a name are drawn from their glyphs, at
/// the very places their sprites would put them, but the letters that stand on one straight
/// stretch (one angle) as one run of text, and the name's whole text given to the run of most
/// letters (an ActualText span, `TextRasterizer.showSearchable`): search and copy find it
/// whole where the name bends as where it does not.
extension PageRenderer {
    /// Angles within this (degrees) are one straight stretch: letters on one segment of the
    /// line differ by rounding only, those across a bend by far more.
    static let straightTolerance = 0.01

    /// The names along lines in `list`: for the command of a name's first letter, how many
    /// commands draw its letters (they follow one another, as `LabelsLayer` draws them).
    static func letterRuns(in list: DrawList) -> [Int: Int] {
        var byFirst: [SpriteKey: [PlacedLabel]] = [:]
        for p in list.placedLabels where p.glyphs.count > 1 && p.glyphs.allSatisfy({ $0.key.spec(as: LabelSprite.self) != nil }) {
            byFirst[p.glyphs[0].key, default: []].append(p)
        }
        guard !byFirst.isEmpty else { return [:] }
        let commands = list.commands
        var runs: [Int: Int] = [:]
        var i = 0
        while i < commands.count {
            if case let .rotatedSprite(key, _, _, _) = commands[i], let labels = byFirst[key],
               let p = labels.first(where: { draws($0, commands, from: i) }) {
                runs[i] = p.glyphs.count
                i += p.glyphs.count
            } else {
                i += 1
            }
        }
        return runs
    }

    /// Whether the commands from `start` on draw `p`'s letters, in order, where it placed them.
    private static func draws(_ p: PlacedLabel, _ commands: [DrawCommand], from start: Int) -> Bool {
        guard start + p.glyphs.count <= commands.count, case let .rotatedSprite(_, _, opacity, _) = commands[start] else { return false }
        for (j, g) in p.glyphs.enumerated() {
            guard case let .rotatedSprite(key, box, o, degrees) = commands[start + j], key == g.key, o == opacity, degrees == g.degrees,
                  abs(box.x + box.width / 2 - g.center.x) < 1e-6, abs(box.y + box.height / 2 - g.center.y) < 1e-6 else { return false }
        }
        return true
    }

    /// Draws the letters of one name (`.rotatedSprite` commands of one-letter texts) as runs of
    /// text; false when they cannot be (a letter's picture scaled into its box, as on a PNG
    /// page, or a letter Pango draws otherwise): then they are drawn one by one as before.
    func drawLetters(_ commands: ArraySlice<DrawCommand>, into cr: OpaquePointer) -> Bool {
        // Text matters only in a file with text in it; pixels are drawn as the window draws.
        guard cairo_surface_get_type(cairo_get_target(cr)) != CAIRO_SURFACE_TYPE_IMAGE else { return false }
        struct Letter { var text: String; var page: PageText; var place: cairo_matrix_t; var degrees: Double }
        var letters: [Letter] = []
        var opacity = 1.0
        for command in commands {
            guard case let .rotatedSprite(key, box, o, degrees) = command, case let .text(s, style)? = key.spec(as: LabelSprite.self),
                  let page = pageText(key, s, style), page.lines.count == 1,
                  abs(box.width - page.width) < 1e-6, abs(box.height - page.height) < 1e-6 else { return false }
            opacity = o
            // As `draw` places the letter's picture: turned about its box's centre.
            var m = PageGlyphRun.identity
            cairo_matrix_translate(&m, box.x + box.width / 2, box.y + box.height / 2)
            cairo_matrix_rotate(&m, degrees * .pi / 180)
            cairo_matrix_translate(&m, -box.width / 2, -box.height / 2)
            letters.append(Letter(text: s, page: page, place: m, degrees: degrees))
        }
        guard let first = letters.first else { return false }
        let opaque = opacity >= 1
        if !opaque { cairo_push_group(cr) }
        // Each letter's halo, as its picture has it (cut at the picture's edges, as the
        // window's is), then the letters over all of them.
        if first.page.halo > 0 {
            let c = first.page.haloColor
            cairo_save(cr)
            cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            for l in letters {
                cairo_save(cr)
                var m = l.place
                cairo_transform(cr, &m)
                cairo_rectangle(cr, 0, 0, l.page.width, l.page.height)
                cairo_clip(cr)
                cairo_set_line_width(cr, 2 * l.page.halo)
                if let path = l.page.haloPath { cairo_append_path(cr, path.pointer) }
                cairo_stroke(cr)
                cairo_restore(cr)
            }
            cairo_restore(cr)
        }
        let c = first.page.color
        cairo_save(cr)
        for l in letters {
            var m = l.place
            cairo_save(cr)
            cairo_transform(cr, &m)
            cairo_rectangle(cr, 0, 0, l.page.width, l.page.height)
            cairo_restore(cr)
        }
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        cairo_clip(cr)
        cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a)
        cairo_set_line_width(cr, 1)
        TextRasterizer.showSearchable(letters.map(\.text).joined(), runs: Self.straightRuns(letters.map { ($0.page, $0.place, $0.degrees) }), in: cr)
        cairo_restore(cr)
        if !opaque {
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, opacity)
        }
        return true
    }

    /// The letters' glyphs as runs: those in a row on one straight stretch, in one font, in
    /// one frame (the first one's), each glyph where its own letter puts it.
    static func straightRuns(_ letters: [(page: PageText, place: cairo_matrix_t, degrees: Double)]) -> [PageGlyphRun] {
        var runs: [PageGlyphRun] = []
        var frameDegrees = Double.nan
        var inverse = PageGlyphRun.identity
        for l in letters {
            for run in l.page.lines[0].runs {
                var place = l.place
                let continues = abs(l.degrees - frameDegrees) <= straightTolerance && runs.last?.font.pointer == run.font.pointer
                if !continues {
                    // A new run, in this letter's frame.
                    runs.append(PageGlyphRun(font: run.font, glyphs: [], frame: place))
                    frameDegrees = l.degrees
                    inverse = place
                    cairo_matrix_invert(&inverse)
                }
                for g in run.glyphs {
                    var (x, y) = (g.x, g.y)
                    cairo_matrix_transform_point(&place, &x, &y)
                    cairo_matrix_transform_point(&inverse, &x, &y)
                    runs[runs.count - 1].glyphs.append(cairo_glyph_t(index: g.index, x: x, y: y))
                }
            }
        }
        return runs
    }
}
