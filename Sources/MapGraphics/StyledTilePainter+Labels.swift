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
        var lines: [(key: LineKey, lines: [Line])] = []
    }

    /// A line to label and its box, in the data tile's units (a tile looks only at the lines
    /// whose boxes reach it: one data tile feeds hundreds of over-zoomed tiles).
    struct Line {
        var points: [VectorTile.Point]
        var minX: Int32, minY: Int32, maxX: Int32, maxY: Int32

        init(_ points: [VectorTile.Point]) {
            self.points = points
            var x0 = Int32.max, y0 = Int32.max, x1 = Int32.min, y1 = Int32.min
            for p in points { x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y) }
            (minX, minY, maxX, maxY) = (x0, y0, x1, y1)
        }
    }

    /// Lines labelled alike: a street comes as many ways, joined where they meet before a
    /// place for its name is looked for (MapLibre's mergeLines).
    struct LineKey: Hashable { var text: String; var style: TextStyle; var rank: Int; var spacing: Double; var icon: LabelIcon? = nil }

    /// The labels `layer` asks for in `frame`'s tile: made once per data tile and zoom for
    /// every tile drawn from it (`PreparedTile.symbols`), then cut to the tile — points in it,
    /// and the stretches of lines whose middle is in it.
    func symbols(_ layer: StyleLayer, order: Int, _ prepared: PreparedTile, layerIndex li: Int, _ frame: Frame, _ zoom: Double) -> [PlaceLabel] {
        let data = prepared.tile.layers[li]
        let origin = frame.dataTile.mapRect
        let unit = origin.size.width / Double(data.extent)
        let bounds = frame.tile.mapRect
        func mapPoint(_ p: VectorTile.Point) -> MapPoint { MapPoint(x: origin.minX + Double(p.x) * unit, y: origin.minY + Double(p.y) * unit) }
        let whole = prepared.symbols(styleIndex: order, zoom: zoom) {
            // Every feature the filter lets through: the whole data tile's.
            let all = prepared.features(layer: li, style: layer, styleIndex: order, zoom: zoom, square: (0, 0, 4096), margin: 0)
            return symbols(layer, order: order, data, all, origin: origin, zoom)
        }
        var out = whole.points.filter { bounds.contains($0.point) }
        // Only the stretch over this tile (and a little around it): an over-zoomed tile's data
        // reaches far beyond it. Each piece is labelled once, by the tile holding its middle.
        let reach = bounds.size.width * 0.5
        let area = MapRect(x: bounds.minX - reach, y: bounds.minY - reach, width: bounds.size.width + 2 * reach,
                           height: bounds.size.height + 2 * reach)
        for (key, lines) in whole.lines {
            for line in lines {
                let a = mapPoint(VectorTile.Point(x: line.minX, y: line.minY)), b = mapPoint(VectorTile.Point(x: line.maxX, y: line.maxY))
                guard b.x >= area.minX, a.x <= area.maxX, b.y >= area.minY, a.y <= area.maxY else { continue }
                for piece in Clip.line(line.points.map(mapPoint), to: area) where piece.count >= 2 && bounds.contains(Self.midpoint(piece)) {
                    out.append(PlaceLabel(name: key.text, point: piece[0], rank: key.rank, style: key.style,
                                          placement: .line(piece, spacing: key.spacing), icon: key.icon))
                }
            }
        }
        return out
    }

    /// The labels of `features` over the data tile whose square is `origin`.
    func symbols(_ layer: StyleLayer, order: Int, _ data: VectorTile.Layer, _ features: [Int], origin: MapRect, _ zoom: Double) -> Symbols {
        let unit = origin.size.width / Double(data.extent)
        func mapPoint(_ p: VectorTile.Point) -> MapPoint { MapPoint(x: origin.minX + Double(p.x) * unit, y: origin.minY + Double(p.y) * unit) }
        var out = Symbols()
        var lines: [LineKey: [[VectorTile.Point]]] = [:]
        var keys: [LineKey] = []
        // The look is worked out once when no part of it depends on the feature.
        let sharedLook = Self.lookProperties.allSatisfy(layer.isFeatureConstant) ? Self.look(layer, EvaluationContext(zoom: zoom)) : nil
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
                let rank = Self.rank(layer, order: order, c)
                if (layer.string("symbol-placement", c) ?? "point") != "point" {
                    guard f.type == .lineString || f.type == .polygon else { continue }
                    let key = LineKey(text: "", style: style, rank: rank, spacing: max(layer.number("symbol-spacing", c), 40), icon: icon)
                    if lines[key] == nil { keys.append(key) }
                    lines[key, default: []] += f.parts.filter { $0.count >= 2 }
                    continue
                }
                guard let at = Self.anchorPoint(f, mapPoint) else { continue }
                out.points.append(PlaceLabel(name: "", point: at, rank: rank, style: style,
                                             placement: .point(anchor: .center, offset: ScreenPoint(x: 0, y: 0)), icon: icon))
                continue
            }
            switch layer.string("text-transform", c) {
            case "uppercase": text = text.uppercased()
            case "lowercase": text = text.lowercased()
            default: break
            }
            let look = sharedLook ?? Self.look(layer, c)
            let style = TextStyle.styled(look)
            let rank = Self.rank(layer, order: order, c)
            let placement = layer.string("symbol-placement", c) ?? "point"
            // Along a line the text is one line ("{name:latin}\n{name:nonlatin}" side by side).
            if placement != "point" { text = String(text.map { $0 == "\n" ? " " : $0 }) }
            if placement != "point", f.type == .lineString || f.type == .polygon {
                let key = LineKey(text: text, style: style, rank: rank, spacing: max(layer.number("symbol-spacing", c), 40))
                if lines[key] == nil { keys.append(key) }
                lines[key, default: []] += f.parts.filter { $0.count >= 2 }
                continue
            }
            guard let at = Self.anchorPoint(f, mapPoint) else { continue }
            let anchor = LabelAnchor(rawValue: layer.string("text-anchor", c) ?? "center") ?? .center
            let offset = layer.numbers("text-offset", c) ?? []
            let dx = offset.count > 0 && offset[0].isFinite ? min(max(offset[0], -20), 20) : 0
            let dy = offset.count > 1 && offset[1].isFinite ? min(max(offset[1], -20), 20) : 0
            out.points.append(PlaceLabel(name: text, point: at, rank: rank, style: style,
                                         placement: .point(anchor: anchor, offset: ScreenPoint(x: dx * look.size, y: dy * look.size)),
                                         icon: icon(layer, c)))
        }
        // (Icons alone keep each line's own direction, which an arrow shows: not joined.)
        out.lines = keys.map { ($0, ($0.text.isEmpty ? lines[$0] ?? [] : Self.joined(lines[$0] ?? [])).map(Line.init)) }
        return out
    }

    /// Later layers are drawn above and placed first, as in MapLibre; a lower symbol-sort-key
    /// goes first within a layer.
    static func rank(_ layer: StyleLayer, order: Int, _ c: EvaluationContext) -> Int {
        let sortKey = layer.number("symbol-sort-key", c)
        return order * 100_000 - Int(saturating: (sortKey.isFinite ? min(max(sortKey + 50_000, 0), 99_999) : 50_000))
    }

    /// `parts` joined wherever one ends where another starts or ends (at most a few hundred
    /// parts of one name in a tile, so the quadratic search stays small; beyond that, as they are).
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
                    else if p[p.count - 1] == line[line.count - 1] { line += p.reversed().dropFirst() }
                    else if p[p.count - 1] == line[0] { line = p + line.dropFirst() }
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

    /// The point halfway along a line.
    static func midpoint(_ line: [MapPoint]) -> MapPoint {
        var total = 0.0
        for (a, b) in zip(line, line.dropFirst()) { total += (b - a).length }
        var left = total / 2
        for (a, b) in zip(line, line.dropFirst()) {
            let l = (b - a).length
            if l >= left, l > 0 { return a + (b - a) * (left / l) }
            left -= l
        }
        return line[line.count / 2]
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
