import MapCore
import MapGraphics
import MapTiles
import Testing

/// A name that needs shaping is drawn as Pango lays out the whole string: Arabic letters
/// joined, Hebrew words right to left, and every script with a font that has its letters.
struct ShapedTextTests {
    let style = TextStyle.styled(LabelLook(size: 12, haloWidth: 1))

    /// Street names of Jerusalem, Cairo, Delhi and Bangkok (as OpenStreetMap spells them):
    /// DejaVu has Hebrew and Arabic, Noto (fonts-noto-core, which the setup installs) the rest.
    @Test func everyShapedScriptHasAFont() {
        for name in ["רחוב יפו", "شارع صلاح سالم", "राजपथ", "ถนนสุขุมวิท"] {
            #expect(TextRasterizer.missingGlyphs(in: name, style: style) == 0, "\(name)")
        }
    }

    /// Width of a text's ink: columns holding any opaque pixel.
    func inkColumns(_ b: Bitmap) -> [Bool] {
        (0..<b.width).map { x in (0..<b.height).contains { y in b.pixel(x: x, y: y) >> 24 > 128 } }
    }

    /// Joined, an Arabic name is narrower than its letters drawn one by one in their isolated
    /// forms (what setting it letter by letter did).
    @Test func arabicLettersJoinInTheRun() throws {
        let name = "شارع صلاح سالم"
        let whole = try TextRasterizer.render(name, style: style, pixelRatio: 1)
        let pad = 2 * 2  // the halo's padding on both sides
        var letters = 0
        for ch in name where ch != " " { letters += try TextRasterizer.render(String(ch), style: style, pixelRatio: 1).width - pad }
        #expect(Double(whole.width - pad) < Double(letters) * 0.9, "\(whole.width) vs \(letters)")
    }

    /// "רחוב יפו" ("Jaffa Street") reads right to left: its first word, drawn alone, matches
    /// the run's right end and not its left.
    @Test func hebrewReadsRightToLeft() throws {
        let whole = try TextRasterizer.render("רחוב יפו", style: style, pixelRatio: 1)
        let first = try TextRasterizer.render("רחוב", style: style, pixelRatio: 1)
        func difference(atX x0: Int) -> Int {
            var d = 0
            for y in 0..<min(whole.height, first.height) {
                for x in 0..<first.width where x0 + x >= 0 && x0 + x < whole.width {
                    d += abs(Int(whole.pixel(x: x0 + x, y: y) >> 24) - Int(first.pixel(x: x, y: y) >> 24))
                }
            }
            return d
        }
        #expect(difference(atX: whole.width - first.width) * 4 < difference(atX: 0))
    }
}
