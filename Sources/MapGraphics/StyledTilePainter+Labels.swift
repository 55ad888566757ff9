import CCairo
import CPango
import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapStyle
import MapTiles
import Platform

/// A style's symbol layers as labels: text evaluated per feature, its look (font, size,
/// colours, halo, spacing, wrapping), and where it goes — at a point (anchor and offset, with
/// its icon when the style's sprite sheet is a local file) or along a line (street names).
extension StyledTilePainter {
    /// A symbol layer's labels over a whole data tile at one zoom: those at points, and the
    /// lines to label, joined, by what they say and how (in the data tile's units).
    struct Symbols {
        var points: [PlaceLabel] = []
        /// `sequence`: the first feature's place in the layer (`PlaceLabel.sequence`).
        var lines: [(key: LineKey, lines: [Line], sequence: Int)] = []
    }

    /// A stretch of a line to label, cut to the data tile's square as MapLibre cuts it (a
    /// name stays within the tile, its spots along the stretch counted from where it enters),
    /// and its box (a tile looks only at the stretches that reach it: one data tile feeds
    /// hundreds of over-zoomed tiles).
    struct Line {
        var points: [MapPoint]
        var box: MapRect
        /// It comes in across the square's edge (`PlaceLabel.continued`).
        var continued: Bool

        init(_ points: [MapPoint], square: MapRect) {
            self.points = points
            var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
            for p in points { x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y) }
            box = MapRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            let first = points[0], e = square.size.width * 1e-9
            continued = abs(first.x - square.minX) <= e || abs(first.x - square.maxX) <= e
                || abs(first.y - square.minY) <= e || abs(first.y - square.maxY) <= e
        }
    }

    /// Lines labelled alike: a street comes as many ways, joined where they meet before a
    /// place for its name is looked for (MapLibre's mergeLines).
    struct LineKey: Hashable {
        var text: String; var style: TextStyle; var rank: Int; var spacing: Double; var icon: LabelIcon? = nil
        var sizes: TextSizeCurve? = nil
        var alignment: LabelAlignment = .standard(alongLine: true)
        var padding = 2.0
        /// The text's measured box (`PlaceLabel.textBox`).
        var textBox: ScreenSize? = nil
    }

    /// The labels `layer` asks for in `frame`'s tile: made once per data tile and zoom for
    /// every tile drawn from it (`PreparedTile.symbols`), then cut to the tile — points in it,
    /// and the stretches of lines that cross it (each stretch is the data tile's: the tiles it
    /// crosses give the same one, which the placer takes once).
    func symbols(_ layer: StyleLayer, order: Int, _ prepared: PreparedTile, layerIndex li: Int, _ frame: Frame, _ zoom: Double) -> [PlaceLabel] {
        let data = prepared.tile.layers[li]
        let origin = frame.dataTile.mapRect
        let bounds = frame.tile.mapRect
        let whole = prepared.symbols(styleIndex: order, zoom: zoom) {
            // Every feature the filter lets through: the whole data tile's.
            let all = prepared.features(layer: li, style: layer, styleIndex: order, zoom: zoom, square: (0, 0, 4096), margin: 0)
            return symbols(layer, order: order, data, all, origin: origin, tile: frame.dataTile, zoom)
        }
        var out = whole.points.filter { bounds.contains($0.point) }
        for (key, lines, sequence) in whole.lines {
            for line in lines where line.box.intersects(bounds) && Self.crosses(line.points, bounds) {
                out.append(PlaceLabel(name: key.text, point: line.points[0], rank: key.rank, style: key.style,
                                      placement: .line(line.points, spacing: key.spacing), icon: key.icon, sizes: key.sizes,
                                      alignment: key.alignment, textBox: key.textBox, padding: key.padding, sequence: sequence,
                                      continued: line.continued, tile: frame.dataTile))
            }
        }
        return out
    }

    /// The labels of `features` over the data tile whose square is `origin`.
    func symbols(_ layer: StyleLayer, order: Int, _ data: VectorTile.Layer, _ features: [Int], origin: MapRect, tile: TileID? = nil,
                 _ zoom: Double) -> Symbols {
        let unit = origin.size.width / Double(data.extent)
        func mapPoint(_ p: VectorTile.Point) -> MapPoint { MapPoint(x: origin.minX + Double(p.x) * unit, y: origin.minY + Double(p.y) * unit) }
        var out = Symbols()
        var lines: [LineKey: [[VectorTile.Point]]] = [:]
        var keys: [LineKey] = []
        var first: [LineKey: Int] = [:]
        // The look is worked out once when no part of it depends on the feature.
        let sharedLook = Self.lookProperties.allSatisfy(layer.isFeatureConstant) ? Self.look(layer, EvaluationContext(zoom: zoom)) : nil
        // A text-size that changes with the zoom goes with it while the view zooms
        // (`TextSizeCurve`): sampled once for the layer, or per feature when it depends on one.
        let sizeFollowsZoom = !layer.isZoomConstant("text-size")
        let sharedSizes = sizeFollowsZoom && layer.isFeatureConstant("text-size") ? Self.sizes(layer, zoom, nil) : nil
        // The same for what places a label: a layer's features rarely differ in it, and each
        // property asked is a look-up by name (profiled: a cold street tile's labels asked a
        // dozen per feature, a fifth of their making).
        func once<T>(_ names: String..., evaluate: @escaping (EvaluationContext) -> T) -> (EvaluationContext) -> T {
            guard names.allSatisfy(layer.isFeatureConstant) else { return evaluate }
            let value = evaluate(EvaluationContext(zoom: zoom))
            return { _ in value }
        }
        let transformOf = once("text-transform") { layer.string("text-transform", $0) }
        let placementOf = once("symbol-placement") { layer.string("symbol-placement", $0) ?? "point" }
        let rankOf = once("symbol-sort-key") { Self.rank(layer, order: order, $0) }
        let spacingOf = once("symbol-spacing") { max(layer.number("symbol-spacing", $0), 40) }
        let paddingOf = once("text-padding") { layer.number("text-padding", $0) }
        let anchorOf = once("text-anchor") { LabelAnchor(rawValue: layer.string("text-anchor", $0) ?? "center") ?? .center }
        let offsetOf = once("text-offset") { layer.numbers("text-offset", $0) ?? [] }
        let alignedAlong = once("text-rotation-alignment", "icon-rotation-alignment") { Self.alignment(layer, $0, alongLine: true) }
        let alignedAt = once("text-rotation-alignment", "icon-rotation-alignment") { Self.alignment(layer, $0, alongLine: false) }
        for i in features {
            let f = data.features[i]
            let c = EvaluationContext(zoom: zoom, feature: f)
            // A name is a few words: a tile's string of thousands would cost every frame.
            var text = layer.text(c) ?? ""
            guard text.unicodeScalars.count <= 256 else { continue }
            if text.isEmpty {
                // An icon alone: at its point (a shop's, a station's), or along its line,
                // turned with it (a one-way street's arrows).
                guard let icon = icon(layer, c) else { continue }
                let style = TextStyle.styled(sharedLook ?? Self.look(layer, c))
                let rank = rankOf(c)
                let alongLine = placementOf(c) != "point"
                let alignment = alongLine ? alignedAlong(c) : alignedAt(c)
                if alongLine {
                    guard f.type == .lineString || f.type == .polygon else { continue }
                    let key = LineKey(text: "", style: style, rank: rank, spacing: spacingOf(c), icon: icon, alignment: alignment)
                    if lines[key] == nil { keys.append(key); first[key] = i }
                    lines[key, default: []] += f.parts.filter { $0.count >= 2 }
                    continue
                }
                guard let at = Self.anchorPoint(f, mapPoint) else { continue }
                out.points.append(PlaceLabel(name: "", point: at, rank: rank, style: style,
                                             placement: .point(anchor: .center, offset: ScreenPoint(x: 0, y: 0)), icon: icon,
                                             alignment: alignment, sequence: i, tile: tile))
                continue
            }
            switch transformOf(c) {
            case "uppercase": text = text.uppercased()
            case "lowercase": text = text.lowercased()
            default: break
            }
            let look = sharedLook ?? Self.look(layer, c)
            let style = TextStyle.styled(look)
            let rank = rankOf(c)
            let placement = placementOf(c)
            let sizes = sizeFollowsZoom ? sharedSizes ?? Self.sizes(layer, zoom, f) : nil
            let alignment = placement != "point" ? alignedAlong(c) : alignedAt(c)
            // Along a line the text is one line ("{name:latin}\n{name:nonlatin}" side by side).
            if placement != "point" { text = String(text.map { $0 == "\n" ? " " : $0 }) }
            if placement != "point", f.type == .lineString || f.type == .polygon {
                let key = LineKey(text: text, style: style, rank: rank, spacing: spacingOf(c), sizes: sizes,
                                  alignment: alignment, padding: paddingOf(c), textBox: Self.textBox(text, look))
                if lines[key] == nil { keys.append(key); first[key] = i }
                lines[key, default: []] += f.parts.filter { $0.count >= 2 }
                continue
            }
            guard let at = Self.anchorPoint(f, mapPoint) else { continue }
            let anchor = anchorOf(c)
            let offset = offsetOf(c)
            let dx = offset.count > 0 && offset[0].isFinite ? min(max(offset[0], -20), 20) : 0
            let dy = offset.count > 1 && offset[1].isFinite ? min(max(offset[1], -20), 20) : 0
            // Wrapped as MapLibre wraps it (`balanced`), measured as it will be drawn.
            let (lines, wrapped) = Self.balanced(text, look)
            out.points.append(PlaceLabel(name: lines, point: at, rank: rank, style: .styled(wrapped),
                                         placement: .point(anchor: anchor, offset: ScreenPoint(x: dx * look.size, y: dy * look.size)),
                                         icon: icon(layer, c), sizes: sizes, alignment: alignedAt(c),
                                         textBox: Self.textBox(lines, wrapped), padding: paddingOf(c), sequence: i,
                                         tile: tile))
        }
        // (Icons alone keep each line's own direction, which an arrow shows: not joined.)
        out.lines = keys.map { key in
            let joined = key.text.isEmpty ? lines[key] ?? [] : Self.joined(lines[key] ?? [])
            let pieces = joined.flatMap { Clip.line($0.map(mapPoint), to: origin) }.filter { $0.count >= 2 }
            return (key, pieces.map { Line($0, square: origin) }, first[key] ?? 0)
        }
        return out
    }

    /// Later layers are drawn above and placed first, as in MapLibre; a lower symbol-sort-key
    /// goes first within a layer.
    static func rank(_ layer: StyleLayer, order: Int, _ c: EvaluationContext) -> Int {
        let sortKey = layer.number("symbol-sort-key", c)
        return order * 100_000 - Int(saturating: (sortKey.isFinite ? min(max(sortKey + 50_000, 0), 99_999) : 50_000))
    }

    /// `parts` joined wherever one ends where another starts (at most a few hundred parts of
    /// one name in a tile, so the quadratic search stays small; beyond that, as they are), as
    /// MapLibre's mergeLines does; and, unlike it, where two meet head to head or tail to tail,
    /// one turned round: OpenStreetMap draws a street's ways either way, and archives made by
    /// tilemaker do not merge them as Planetiler's do, so a street of short ways drawn towards
    /// each other (Aleksanterinkatu in the Protomaps fixture) had no piece long enough for its name.
    static func joined(_ parts: [[VectorTile.Point]]) -> [[VectorTile.Point]] {
        guard parts.count > 1, parts.count <= 512 else { return parts }
        var pool = parts
        var out: [[VectorTile.Point]] = []
        while var line = pool.popLast() {
            var grew = true
            while grew {
                grew = false
                for (i, p) in pool.enumerated() {
                    if p[0] == line[line.count - 1] { line += p.dropFirst() }
                    else if p[p.count - 1] == line[0] { line = p + line.dropFirst() }
                    else if p[p.count - 1] == line[line.count - 1] { line += p.reversed().dropFirst() }
                    else if p[0] == line[0] { line = p.reversed() + line.dropFirst() }
                    else { continue }
                    pool.remove(at: i)
                    grew = true
                    break
                }
            }
            out.append(line)
        }
        return out
    }

    /// Whether any segment of `line` passes through `r`.
    static func crosses(_ line: [MapPoint], _ r: MapRect) -> Bool {
        zip(line, line.dropFirst()).contains { Clip.segment($0, $1, to: r) != nil }
    }

    /// The feature's icon from the sprite sheet (icon-image, icon-size, icon-offset), if the
    /// style has a local sheet holding it.
    func icon(_ layer: StyleLayer, _ c: EvaluationContext) -> LabelIcon? {
        guard let sprites, let name = layer.string("icon-image", c), !name.isEmpty else { return nil }
        let scale = layer.number("icon-size", c)
        guard let sprite = sprites.icon(name, scale: scale) else { return nil }
        let o = layer.numbers("icon-offset", c) ?? []
        let dx = o.count > 0 && o[0].isFinite ? min(max(o[0], -100), 100) : 0, dy = o.count > 1 && o[1].isFinite ? min(max(o[1], -100), 100) : 0
        return LabelIcon(sprite, offset: ScreenPoint(x: dx * sprite.scale, y: dy * sprite.scale))
    }

    /// Where a feature's point label goes: the point itself, or the middle of a polygon's
    /// outer ring (its area-weighted centroid, falling back to the box's centre).
    static func anchorPoint(_ f: VectorTile.Feature, _ map: (VectorTile.Point) -> MapPoint) -> MapPoint? {
        guard let ring = f.parts.first, let first = ring.first else { return nil }
        guard f.type == .polygon, ring.count >= 3 else { return map(first) }
        var a = 0.0, cx = 0.0, cy = 0.0
        for i in ring.indices {
            let p = ring[i], q = ring[(i + 1) % ring.count]
            let cross = Double(p.x) * Double(q.y) - Double(q.x) * Double(p.y)
            a += cross; cx += (Double(p.x) + Double(q.x)) * cross; cy += (Double(p.y) + Double(q.y)) * cross
        }
        if abs(a) > 1e-9 {
            let x = cx / (3 * a), y = cy / (3 * a)
            if x.isFinite, y.isFinite, abs(x) < 1e6, abs(y) < 1e6 {
                return map(VectorTile.Point(x: Int32(saturating: x.rounded()), y: Int32(saturating: y.rounded())))
            }
        }
        return map(first)
    }

    /// The layer's text-size at every whole zoom (for `feature`, when it depends on one). The
    /// curve's zooms are Meridian's, one more than the style's.
    static func sizes(_ layer: StyleLayer, _ zoom: Double, _ feature: VectorTile.Feature?) -> TextSizeCurve {
        TextSizeCurve(zoom: zoom + 1) { z in
            let c = feature.map { EvaluationContext(zoom: max(z - 1, 0), feature: $0) } ?? EvaluationContext(zoom: max(z - 1, 0))
            return layer.number("text-size", c)
        }
    }

    /// The box MapLibre collides a label's text with, before its padding: its longest line's
    /// advance as Pango sets it (the font, letter spacing and wrapping the sprite will have)
    /// by 1.2 ems a line (text-line-height), in points. (Pango sets lines a little further
    /// apart, about 1.36 ems in Noto Sans: within the padding, the letters still clear their
    /// neighbours'.) Measured once per text and font, large (64 points, where Pango's
    /// rounding to whole pixels is lost), and scaled: a label's box then grows with its size
    /// smoothly, as a zoom changes it (`TextSizeCurve`), not in pixel steps.
    static func textBox(_ text: String, _ look: LabelLook) -> ScreenSize? {
        let reference = 64.0
        var font = look
        (font.size, font.color, font.haloColor, font.haloWidth) = (reference, Color(hex: 0), Color(hex: 0), 0)
        let key = TextBoxKey(text: text, look: font)
        let scaled = { (b: ScreenSize) in ScreenSize(width: b.width * look.size / reference, height: b.height * look.size / reference) }
        // (Looked up under the lock: a copy of the table taken out would be copied whole by the next insertion.)
        if let known = measured.update({ $0?[key] }) { return scaled(known) }
        guard let probe = try? CairoCanvas(width: 1, height: 1) else { return nil }
        let layout = TextRasterizer.makeLayout(probe.context, text, TextRasterizer.font(.styled(font), .standard), 1)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        let lines = max(Int(pango_layout_get_line_count(layout)), 1)
        let box = ScreenSize(width: max(Double(logical.width), 0) / Double(PANGO_SCALE), height: Double(lines) * 1.2 * reference)
        // A few thousand names a region, each short: a table grown past that starts again,
        // and a text longer than any name (a hostile tile's) is measured but not kept.
        if text.utf8.count <= 256 {
            measured.update { table in
                if table == nil || table!.count > 20_000 { table = [:] }
                table![key] = box
            }
        }
        return scaled(box)
    }

    /// Texts measured (`textBox`), shared by every painter.
    static let measured = LockedValue<[TextBoxKey: ScreenSize]>()

    /// Whether the text and icon turn with the map (text- and icon-rotation-alignment; `auto`
    /// is with the line along a line, level at a point). text-pitch-alignment and
    /// icon-pitch-alignment are read with the style and change nothing: the map is never tilted.
    static func alignment(_ layer: StyleLayer, _ c: EvaluationContext, alongLine: Bool) -> LabelAlignment {
        LabelAlignment(text: LabelAlignment.turn(layer.string("text-rotation-alignment", c), alongLine: alongLine),
                       icon: LabelAlignment.turn(layer.string("icon-rotation-alignment", c), alongLine: alongLine, icon: true))
    }

    static let lookProperties = ["text-font", "text-size", "text-color", "text-halo-color", "text-halo-width", "text-letter-spacing",
                                 "text-max-width", "symbol-placement"]

    /// The label's look from the layer's text properties.
    static func look(_ layer: StyleLayer, _ c: EvaluationContext) -> LabelLook {
        let font = FontStack(layer.strings("text-font", c) ?? [])
        // Text along a line is one line; text at a point wraps.
        let alongLine = (layer.string("symbol-placement", c) ?? "point") != "point"
        let maxWidth = alongLine ? 0 : layer.number("text-max-width", c)
        return LabelLook(family: font.family, bold: font.bold, italic: font.italic, size: layer.number("text-size", c),
                         color: layer.color("text-color", c) ?? Color(hex: 0x000000),
                         haloColor: layer.color("text-halo-color", c) ?? Color(hex: 0xFFFFFF, alpha: 0),
                         haloWidth: layer.color("text-halo-color", c) == nil ? 0 : layer.number("text-halo-width", c),
                         letterSpacing: layer.number("text-letter-spacing", c), maxWidth: maxWidth)
    }
}

/// A text and its look, measured (`StyledTilePainter.textBox`).
struct TextBoxKey: Hashable, Sendable {
    var text: String
    var look: LabelLook
}

/// A style's text-font (a list of font names, "Noto Sans Bold", "Metropolis Regular") as the
/// families, weight and slant Pango draws with: the families in the style's order (the words
/// naming a weight or slant taken off), then DejaVu, so fontconfig takes the first installed
/// (Noto Sans, which the setup installs, is what most OpenMapTiles styles name). The first
/// name's weight and slant are kept.
struct FontStack: Equatable {
    var family = "DejaVu Sans"
    var bold = false
    var italic = false

    static let styleWords: Set<String> = ["regular", "bold", "italic", "oblique", "semibold", "medium", "light", "black", "heavy",
                                          "extrabold", "extralight", "thin", "book", "normal"]

    init(_ names: [String]) {
        guard let first = names.first?.lowercased() else { return }
        bold = ["bold", "semibold", "black", "heavy", "extrabold"].contains { first.contains($0) }
        italic = first.contains("italic") || first.contains("oblique")
        var families: [String] = []
        for name in names.prefix(4) {
            // A family name is a few plain words; anything else is not handed to fontconfig.
            let words = name.split(separator: " ").filter { !Self.styleWords.contains($0.lowercased()) }
            let family = words.joined(separator: " ")
            guard !family.isEmpty, family.count <= 64, family.allSatisfy({ $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" }),
                  !families.contains(family) else { continue }
            families.append(family)
        }
        let serif = first.contains("serif") && !first.contains("sans")
        families.append(serif ? "DejaVu Serif" : "DejaVu Sans")
        family = families.joined(separator: ", ")
    }
}
