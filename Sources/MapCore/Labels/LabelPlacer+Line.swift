import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// Labels along lines (street names): each letter a sprite of its own, set on the line at its
/// advance and turned with it, so the name follows the street's curves. Anchors lie every
/// `spacing` points along the line measured from its start, so while the map pans (the zoom
/// unchanged) the same anchors are tried and labels stay still.
extension LabelPlacer {
    /// The sharpest turn allowed over three neighbouring letters (MapLibre's text-max-angle).
    static let maxTurn = 45.0 * Double.pi / 180

    static func screenBounds(_ path: [MapPoint], _ camera: Camera) -> ScreenRect {
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for m in path {
            let p = camera.screenPoint(for: m)
            x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y)
        }
        guard x0 <= x1, y0 <= y1 else { return ScreenRect(x: 0, y: 0, width: -1, height: -1) }
        return ScreenRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The letters of `text` with their advances in points: the rasterized letter's width when
    /// it is ready (less the halo's padding), else an estimate erring large; times the label's
    /// scale at the camera's zoom (`PlaceLabel.scale(at:)`).
    /// A measured name (`PlaceLabel.textBox`) is as long as measured: its letters' sprites,
    /// rounded to whole pixels each, only share that length out, so that a name whose size
    /// follows the zoom grows smoothly, not by a pixel a letter when its tiles change zoom.
    static func letters(_ c: PlaceLabel, camera: Camera, sprites: SpriteAvailability) -> [(key: SpriteKey, advance: Double, ready: Bool)] {
        let scale = c.scale(at: camera)
        let out = unscaledLetters(c, camera: camera, sprites: sprites)
        let sum = out.reduce(0) { $0 + $1.advance }
        let k = c.textBox.map { c.name.isEmpty || sum <= 0 ? scale : $0.width * scale / sum } ?? scale
        return k == 1 ? out : out.map { ($0.key, $0.advance * k, $0.ready) }
    }

    private static func unscaledLetters(_ c: PlaceLabel, camera: Camera, sprites: SpriteAvailability) -> [(key: SpriteKey, advance: Double, ready: Bool)] {
        guard case let .styled(look) = c.style else { return [] }
        let k = max(camera.pixelRatio, 0.5)
        let pad = ((look.haloWidth * k).rounded(.up) + 1) / k
        if c.name.isEmpty, let icon = c.icon {
            // An icon alone along the line (a one-way arrow), turned with it.
            return [(icon.key, icon.size.width, sprites.size(of: icon.key) != nil)]
        }
        // Level text along a line (text-rotation-alignment viewport) is one run too.
        if c.isShapedWhole || c.alignment.text == .viewport {
            // One run, as Pango shapes and orders it.
            if let size = sprites.size(of: c.textKey) { return [(c.textKey, max(size.width - 2 * pad, 0), true)] }
            return [(c.textKey, max(c.estimatedTextSize.width - 2 * look.haloWidth - 3, 0), false)]
        }
        return c.name.map { ch in
            let s = String(ch)
            let key = SpriteKey.text(s, c.style)
            if let size = sprites.size(of: key) { return (key, max(size.width - 2 * pad, 0), true) }
            let ems = ("mwMW@".contains(ch) ? 1.0 : (look.bold ? 0.72 : 0.66)) + look.letterSpacing
            return (key, ch == " " ? look.size * 0.35 : ems * look.size, false)
        }
    }

    /// The point `s` along the line (`lengths`: distance at each vertex); `cursor` remembers
    /// the segment, as the letters are asked for in order.
    static func point(at s: Double, _ pts: [ScreenPoint], _ lengths: [Double], _ cursor: inout Int) -> ScreenPoint {
        while cursor < pts.count - 2, lengths[cursor + 1] < s { cursor += 1 }
        let p0 = pts[cursor], p1 = pts[cursor + 1]
        let span = lengths[cursor + 1] - lengths[cursor]
        let f = span > 0 ? min(max((s - lengths[cursor]) / span, 0), 1) : 0
        return ScreenPoint(x: p0.x + (p1.x - p0.x) * f, y: p0.y + (p1.y - p0.y) * f)
    }

    /// How far along the line (`lengths`: distance at each vertex) its point nearest `p` lies,
    /// if that point is within `tolerance` of `p`.
    static func distanceAlong(_ pts: [ScreenPoint], _ lengths: [Double], to p: ScreenPoint, within tolerance: Double) -> Double? {
        var best: (d2: Double, s: Double)?
        for i in 0..<(pts.count - 1) {
            let a = pts[i], b = pts[i + 1]
            let dx = b.x - a.x, dy = b.y - a.y, l2 = dx * dx + dy * dy
            let f = l2 > 0 ? min(max(((p.x - a.x) * dx + (p.y - a.y) * dy) / l2, 0), 1) : 0
            let qx = a.x + dx * f - p.x, qy = a.y + dy * f - p.y
            let d2 = qx * qx + qy * qy
            if d2 < (best?.d2 ?? .infinity) { best = (d2, lengths[i] + (lengths[i + 1] - lengths[i]) * f) }
        }
        guard let best, best.d2 <= tolerance * tolerance else { return nil }
        return best.s
    }

    /// A name set as one shaped run (`PlaceLabel.isShapedWhole`), `width` long from `start`
    /// along the line: turned with the line where the line under it is straight (within a
    /// quarter of the text's height of the chord), else level across the line at `here`, as a
    /// label at a point. Its room is claimed by squares of the text's height along it.
    static func run(_ key: SpriteKey, from start: Double, width: Double, height: Double, here: ScreenPoint,
                    _ pts: [ScreenPoint], _ lens: [Double], level: Bool = false) -> ([PlacedLabel.Glyph], [ScreenRect]) {
        var cursor = 0
        let a0 = point(at: start, pts, lens, &cursor), a1 = point(at: start + width, pts, lens, &cursor)
        let dx = a1.x - a0.x, dy = a1.y - a0.y, chord = hypot(dx, dy)
        // `level`: the style asks for it level on the screen wherever the line goes.
        var straight = !level && chord > width * 0.9
        cursor = 0
        for i in 1..<8 where straight {
            let p = point(at: start + width * Double(i) / 8, pts, lens, &cursor)
            straight = abs((p.x - a0.x) * dy - (p.y - a0.y) * dx) / chord <= height / 4
        }
        let centre = straight ? ScreenPoint(x: (a0.x + a1.x) / 2, y: (a0.y + a1.y) / 2) : here
        let (ux, uy) = straight ? (dx / chord, dy / chord) : (1.0, 0.0)
        let n = max(Int(saturating: (width / height).rounded(.up)), 1)
        let boxes = (0..<n).map { i -> ScreenRect in
            let s = (Double(i) + 0.5) * width / Double(n) - width / 2
            return ScreenRect(x: centre.x + ux * s - height / 2, y: centre.y + uy * s - height / 2, width: height, height: height)
        }
        let degrees = straight ? atan2(dy, dx) * 180 / .pi : 0
        return ([PlacedLabel.Glyph(key: key, center: centre, degrees: degrees)], boxes)
    }

    /// Every place along `path` where `c` fits, takes no one's room and turns gently enough.
    /// `held`: only the places on the line nearest these points (where the name was before).
    func placeAlong(_ c: PlaceLabel, path: [MapPoint], spacing: Double, camera: Camera, sprites: SpriteAvailability,
                    area: ScreenRect, taken: inout RectGrid, named: inout [String: [ScreenPoint]], at held: [ScreenPoint]? = nil) -> [PlacedLabel] {
        guard path.count >= 2, case let .styled(look) = c.style else { return [] }
        let forward = path.map { camera.screenPoint(for: $0) }
        var lengths = [0.0]
        lengths.reserveCapacity(forward.count)
        for i in 1..<forward.count {
            lengths.append(lengths[i - 1] + hypot(forward[i].x - forward[i - 1].x, forward[i].y - forward[i - 1].y))
        }
        let total = lengths[lengths.count - 1]
        let letters = Self.letters(c, camera: camera, sprites: sprites)
        let width = letters.reduce(0) { $0 + $1.advance }
        // The text's size at the camera's zoom.
        let scale = c.scale(at: camera)
        // A line as long as the name carries it (MapLibre's rule: the name within the line).
        guard width > 0, total >= width, total.isFinite else { return [] }
        // MapLibre's spots (its getAnchors), worked out in points at its tile's zoom, so that they
        // keep their places on the map between whole zooms, for the name as long as measured
        // where it was made (so that the spots do not move when its letters' sprites come):
        // every symbol-spacing, at least a quarter spacing between names; the first half a
        // spacing in from where the line enters its tile, or, from the line's own start, half
        // the name and two ems in; where none fits, the line's middle. A tile magnified past its
        // data's zoom is laid out as its data tile would be: the first spot is as far in as
        // there, times the magnification. (MapLibre reckons the name at its size at zoom 18;
        // over the Helsinki comparison its size at the tile's zoom matched MapLibre's spots better.)
        let layoutZoom = camera.zoom.rounded(.down), toScreen = pow(2, camera.zoom - layoutZoom)
        let em = look.size
        let length = c.textBox?.width ?? width / scale
        var step = spacing
        if step - length < step / 4 { step = length + step / 4 }
        let over = c.tile.map { pow(2, min(max(layoutZoom - 1 - Double($0.z), 0), 8)) } ?? 1
        var anchors: [Double] = []
        if let held {
            anchors = held.compactMap { Self.distanceAlong(forward, lengths, to: $0, within: 3) }
        } else {
            let room = total / toScreen
            var s = (c.continued ? step / 2 * over : (length / 2 + 2 * em) * over).truncatingRemainder(dividingBy: step)
            while s < room, anchors.count < 64 {
                if s >= length / 2, s + length / 2 <= room { anchors.append(s * toScreen) }
                s += step
            }
            if anchors.isEmpty, !c.continued { anchors = [total / 2] }
        }
        // Text reads left to right: where the line runs westwards under the label, the label
        // is set on it from its other end.
        let backward = Array(forward.reversed())
        let backLengths = lengths.reversed().map { total - $0 }
        // The band a name claims along its line: a line of text (1.2 ems) and its padding
        // either side, as MapLibre's collision circles are wide; not its halo, which may overlap.
        let height = c.name.isEmpty ? max(c.icon?.size.height ?? 0, 1) : look.size * 1.2 * scale + 2 * c.padding
        // Icons alone are kept apart by which icon they are, names by what they say.
        let name = c.identity
        let ready = letters.allSatisfy(\.ready)
        var out: [PlacedLabel] = []
        // The same name no nearer than this to itself (MapLibre's repeat distance).
        let apart = step / 2 * toScreen
        for anchor in anchors {
            guard anchor - width / 2 >= 0, anchor + width / 2 <= total else { continue }
            /// The letters set from the line's `west`ern end (else its start), their boxes,
            /// and whether they fit and turn gently enough.
            func lay(_ west: Bool) -> (glyphs: [PlacedLabel.Glyph], boxes: [ScreenRect], here: ScreenPoint, fits: Bool) {
                let (pts, lens, a) = west ? (backward, backLengths, total - anchor) : (forward, lengths, anchor)
                let start = a - width / 2
                var cursor = 0
                let here = Self.point(at: a, pts, lens, &cursor)
                let level = c.alignment.text == .viewport && !c.name.isEmpty
                if c.isShapedWhole || level, let run = letters.first {
                    let (glyphs, boxes) = Self.run(run.key, from: start, width: width, height: height, here: here, pts, lens, level: level)
                    return (glyphs, boxes, here, !boxes.contains { taken.intersects($0) })
                }
                var glyphs: [PlacedLabel.Glyph] = []
                var boxes: [ScreenRect] = []
                var offset = start, lastAngle: Double?, lastTurn = 0.0
                cursor = 0
                for l in letters {
                    // Each letter sits on the chord between where it starts and ends on the line,
                    // so a line with many short wiggles (a mapped kerb) still carries text.
                    let a0 = Self.point(at: offset, pts, lens, &cursor)
                    let mid = Self.point(at: offset + l.advance / 2, pts, lens, &cursor)
                    let a1 = Self.point(at: offset + l.advance, pts, lens, &cursor)
                    offset += l.advance
                    let angle = l.advance > 0.5 ? atan2(a1.y - a0.y, a1.x - a0.x) : (lastAngle ?? atan2(a1.y - a0.y, a1.x - a0.x))
                    if let last = lastAngle {
                        var turn = abs(angle - last)
                        if turn > .pi { turn = 2 * .pi - turn }
                        guard turn + lastTurn <= Self.maxTurn else { return (glyphs, boxes, here, false) }
                        lastTurn = turn
                    }
                    lastAngle = angle
                    // (Letters level on the screen still follow the line, and its bends still count.)
                    glyphs.append(PlacedLabel.Glyph(key: l.key, center: mid, degrees: c.alignment.text == .viewportGlyph ? 0 : angle * 180 / .pi))
                    let side = max(height, l.advance)
                    let box = ScreenRect(x: mid.x - side / 2, y: mid.y - height / 2, width: side, height: height)
                    guard !taken.intersects(box) else { return (glyphs, boxes, here, false) }
                    boxes.append(box)
                }
                return (glyphs, boxes, here, true)
            }
            var cursor = 0
            // An icon alone goes the line's way (an arrow shows its direction).
            let west = !c.name.isEmpty && Self.point(at: anchor + width / 2, forward, lengths, &cursor).x < Self.point(at: anchor - width / 2, forward, lengths, &cursor).x
            var (glyphs, boxes, here, fits) = lay(west)
            guard !(named[name] ?? []).contains(where: { hypot($0.x - here.x, $0.y - here.y) < apart }) else { continue }
            // Where the line bends back under the label (a loop, a hairpin), its ends can say
            // east while most letters face west: set from the other end, they read upright;
            // where they do not fit so, the label is not put there upside down.
            if fits, !c.name.isEmpty, glyphs.filter({ abs($0.degrees) > 90 }).count * 2 > glyphs.count {
                (glyphs, boxes, here, fits) = lay(!west)
            }
            guard fits, !boxes.isEmpty else { continue }
            var bounds = boxes[0]
            for b in boxes {
                let x0 = min(bounds.x, b.x), y0 = min(bounds.y, b.y)
                bounds = ScreenRect(x: x0, y: y0, width: max(bounds.maxX, b.maxX) - x0, height: max(bounds.maxY, b.maxY) - y0)
            }
            guard area.intersects(bounds) else { continue }
            for b in boxes { taken.insert(b) }
            named[name, default: []].append(here)
            out.append(PlacedLabel(place: c, dot: ScreenRect(x: bounds.x, y: bounds.y, width: 0, height: 0), text: bounds,
                                   side: .right, ready: ready, glyphs: glyphs, scale: scale, anchor: here))
        }
        return out
    }
}
