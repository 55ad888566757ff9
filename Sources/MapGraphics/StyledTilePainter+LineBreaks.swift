import CCairo
import CPango
import FoundationEssentials
import Glibc
import MapCore
import Platform

/// Where a name at a point wraps (text-max-width) as MapLibre wraps it: into as few lines as
/// the width allows, the breaks chosen so that the lines come out about equally long (the
/// last one rather shorter), not filled greedily. "Helsingin keskustakirjasto Oodi" at 9 ems
/// is two lines of 11 and 9 ems in MapLibre, three when filled to 9 ems: a different box, and
/// other labels around it.
extension StyledTilePainter {
    /// `text` with a line break wherever MapLibre's balanced breaking puts one (its own line
    /// breaks kept), and the look's width set just above its longest line, so that the sprite
    /// breaks there and nowhere else; as it was when it fits on one line.
    static func balanced(_ text: String, _ look: LabelLook) -> (text: String, look: LabelLook) {
        guard look.maxWidth > 0, text.unicodeScalars.count <= 256 else { return (text, look) }
        let scalars = Array(text.unicodeScalars)
        let advances = scalars.map { advance(of: $0, look) }
        // Widths in MapLibre's glyph units (24 to the em), as its badness is reckoned in them.
        let em = 24.0, spacing = look.letterSpacing * em
        let maxWidth = look.maxWidth * em
        func isSpace(_ u: Unicode.Scalar) -> Bool { u == " " || u == "\t" || u == "\n" || u == "\u{200B}" }
        // The average line is reckoned with the spaces, the lines without them (as MapLibre does).
        var total = 0.0
        for a in advances { total += a * em + spacing }
        let lines = max(1.0, (total / maxWidth).rounded(.up))
        guard lines > 1 || scalars.contains("\n") else { return (text, look) }
        let target = total / lines

        struct Break { var index: Int; var x: Double; var prior: Int?; var badness: Double }
        func badness(_ width: Double, penalty: Double, last: Bool) -> Double {
            let ragged = (width - target) * (width - target)
            if last { return width < target ? ragged / 2 : ragged * 2 }
            return ragged + abs(penalty) * penalty
        }
        var breaks: [Break] = []
        func evaluate(_ index: Int, _ x: Double, penalty: Double, last: Bool) -> Break {
            var best = Break(index: index, x: x, prior: nil, badness: badness(x, penalty: penalty, last: last))
            for (i, b) in breaks.enumerated() {
                let bad = badness(x - b.x, penalty: penalty, last: last) + b.badness
                if bad <= best.badness { best.prior = i; best.badness = bad }
            }
            return best
        }
        // MapLibre's breakable characters: spaces, hyphens, slashes, ampersands, parentheses...
        let breakable: Set<UInt32> = [0x0A, 0x20, 0x26, 0x28, 0x29, 0x2B, 0x2D, 0x2F, 0xAD, 0xB7, 0x200B, 0x2010, 0x2013, 0x2027]
        var x = 0.0
        for i in scalars.indices {
            let u = scalars[i]
            if !isSpace(u) { x += advances[i] * em + spacing }
            guard i < scalars.count - 1, breakable.contains(u.value) else { continue }
            var penalty = 0.0
            if u == "\n" { penalty -= 10_000 }
            if u == "(" || u == "\u{FF08}" { penalty += 50 }
            if scalars[i + 1] == ")" || scalars[i + 1] == "\u{FF09}" { penalty += 50 }
            breaks.append(evaluate(i + 1, x, penalty: penalty, last: false))
        }
        var at: Break? = evaluate(scalars.count, x, penalty: 0, last: true)
        var cuts: [Int] = []
        while let b = at, let p = b.prior { cuts.append(breaks[p].index); at = breaks[p] }
        guard !cuts.isEmpty else { return (text, look) }
        // The lines, each without the spaces at its ends.
        var out: [String] = []
        var start = 0
        for cut in cuts.reversed() + [scalars.count] {
            var line = String(String.UnicodeScalarView(scalars[start..<cut]))
            while line.last == " " || line.last == "\n" || line.last == "\u{200B}" { line.removeLast() }
            while line.first == " " || line.first == "\u{200B}" { line.removeFirst() }
            if !line.isEmpty { out.append(line) }
            start = cut
        }
        var wide = 0.0
        for line in out { wide = max(wide, line.unicodeScalars.reduce(0) { $0 + advance(of: $1, look) + look.letterSpacing }) }
        var wrapped = look
        // A little room over the longest line: Pango keeps each line whole and centres them.
        wrapped.maxWidth = min(wide + 0.5, 100)
        return (out.joined(separator: "\n"), wrapped)
    }

    /// A character's advance in ems in the look's font (Pango, without kerning), measured once
    /// per font.
    static func advance(of u: Unicode.Scalar, _ look: LabelLook) -> Double {
        let key = AdvanceKey(scalar: u.value, family: look.family, bold: look.bold, italic: look.italic)
        if let known = advances.update({ $0?[key] }) { return known }
        var measuredEms = 0.6
        var font = TextRasterizer.font(.styled(look), .standard)
        font = TextRasterizer.Font(family: font.family, size: 24, weight: font.weight, color: font.color, halo: 0, italic: font.italic)
        if let probe = try? CairoCanvas(width: 1, height: 1) {
            let layout = TextRasterizer.makeLayout(probe.context, String(Character(u)), font, 1)
            var ink = PangoRectangle(), logical = PangoRectangle()
            pango_layout_get_extents(layout, &ink, &logical)
            g_object_unref(UnsafeMutableRawPointer(layout))
            measuredEms = max(Double(logical.width), 0) / Double(PANGO_SCALE) / 24
        }
        advances.update { table in
            if table == nil || table!.count > 50_000 { table = [:] }
            table![key] = measuredEms
        }
        return measuredEms
    }

    static let advances = LockedValue<[AdvanceKey: Double]>()
}

/// A character in a font (`StyledTilePainter.advance`).
struct AdvanceKey: Hashable, Sendable {
    var scalar: UInt32
    var family: String
    var bold: Bool
    var italic: Bool
}
