import CCairo
import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapStyle
import MapTiles
import Platform

/// Draws a vector tile as a MapLibre style says: background, fill, line, circle and
/// fill-extrusion (flat) layers into the tile's pixels; symbol layers become labels, placed
/// later for the whole view (`LabelsLayer`), so no name is cut at a tile's edge.
///
/// MapLibre's zoom counts 512-point tiles: its zoom z is Meridian's z + 1 (256-point tiles), so
/// a tile of zoom z is drawn with the style at z − 1, and widths in the style's pixels are points.
struct StyledTilePainter {
    let style: MapStyle
    var sprites: SpriteSheet?

    /// The tile's geometry in device pixels: `dataTile`'s units mapped onto `tile`'s square.
    struct Frame {
        let tile: TileID
        let dataTile: TileID
        let pixels: Double
        /// Device pixels per point.
        let k: Double
        let originX: Double, originY: Double
        /// Device pixels per 4096th of the data tile.
        let scale: Double
        /// The zoom the style is evaluated at, in the style's own (512-point) zooms: the tile's
        /// (one less), or the one the view rests at.
        let styleZoom: Double
        /// The map's bearing, for hillshading lit from the viewport.
        var lightBearing = 0.0

        /// `viewZoom`: the zoom the tile will be seen at (nil: its own). The style is evaluated
        /// there, and widths are drawn smaller or larger by as much as the tile will be
        /// magnified or shrunk on screen, so that on screen they are what the style says.
        init(tile: TileID, dataTile: TileID, pixelSize: Int, viewZoom: Double? = nil, lightBearing: Double = 0) {
            self.tile = tile; self.dataTile = dataTile
            self.lightBearing = lightBearing
            pixels = Double(pixelSize)
            let seen = viewZoom.flatMap { $0.isFinite && abs($0 - Double(tile.z)) < 2 ? $0 : nil } ?? Double(tile.z)
            styleZoom = max(seen - 1, 0)
            k = pixels / 256 / pow(2, seen - Double(tile.z))
            let d = max(tile.z - dataTile.z, 0)
            let span = 4096.0 / Double(1 << min(d, 30))
            originX = Double(tile.x - (dataTile.x << d)) * span
            originY = Double(tile.y - (dataTile.y << d)) * span
            scale = pixels / span
        }

        /// The tile's square in 4096ths of the data tile.
        var square: (x: Double, y: Double, size: Double) { (originX, originY, pixels / scale) }

        func x(_ p: VectorTile.Point, _ ext: Double) -> Double { (Double(p.x) / ext - originX) * scale }
        func y(_ p: VectorTile.Point, _ ext: Double) -> Double { (Double(p.y) / ext - originY) * scale }

        /// Whether a part can touch the tile (`margin` device pixels around it).
        func touches(_ part: [VectorTile.Point], _ ext: Double, margin: Double) -> Bool {
            var minX = Int32.max, maxX = Int32.min, minY = Int32.max, maxY = Int32.min
            for p in part { minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y) }
            let lo = -margin, hi = pixels + margin
            return !(x(VectorTile.Point(x: maxX, y: 0), ext) < lo || x(VectorTile.Point(x: minX, y: 0), ext) > hi
                     || y(VectorTile.Point(x: 0, y: maxY), ext) < lo || y(VectorTile.Point(x: 0, y: minY), ext) > hi)
        }
    }

    /// Paints `vt` onto `canvas` for `tile`, with the raster and hillshade layers drawn from
    /// `pictures` in their place; returns the labels its symbol layers ask for.
    func paint(_ prepared: PreparedTile, onto canvas: CairoCanvas, frame: Frame, pictures: StylePictures? = nil) -> [PlaceLabel] {
        let zoom = frame.styleZoom
        var labels: [PlaceLabel] = []
        for (order, layer) in style.layers.enumerated() where layer.isShown(atZoom: zoom) {
            if layer.type == .background {
                let c = EvaluationContext(zoom: zoom)
                if let color = layer.color("background-color", c) {
                    canvas.fill(color.withAlpha(color.a * clamp01(layer.number("background-opacity", c))))
                }
                continue
            }
            if layer.type == .raster || layer.type == .hillshade {
                guard let pictures, !pictures.isEmpty else { continue }
                cairo_save(canvas.context)
                defer { cairo_restore(canvas.context) }
                if layer.type == .raster { raster(layer, pictures, canvas, frame, zoom) } else { hillshade(layer, pictures, canvas, frame, zoom) }
                continue
            }
            guard let name = layer.sourceLayer, let li = prepared.layerIndex[name] else { continue }
            // Symbols are made for the whole data tile and cut to this one (`symbols`): they
            // need no features of their own here.
            if layer.type == .symbol { labels += symbols(layer, order: order, prepared, layerIndex: li, frame, zoom); continue }
            let data = prepared.tile.layers[li]
            // How far beyond the tile a feature may lie and still show in it, in device
            // pixels: a wide line's edge.
            let reach: Double
            switch layer.type {
            case .line: reach = 160 * frame.k
            case .circle: reach = 64 * frame.k
            default: reach = 2
            }
            let features = prepared.features(layer: li, style: layer, styleIndex: order, zoom: zoom, square: frame.square, margin: reach / frame.scale)
            guard !features.isEmpty else { continue }
            // Each layer starts from Cairo's defaults (caps, joins, fill rule, dashes).
            cairo_save(canvas.context)
            defer { cairo_restore(canvas.context) }
            switch layer.type {
            case .fill, .fillExtrusion: fill(layer, data, features, canvas, frame, zoom)
            case .line: line(layer, data, features, canvas, frame, zoom)
            case .circle: circles(layer, data, features, canvas, frame, zoom)
            default: continue
            }
        }
        return labels
    }

    func clamp01(_ v: Double) -> Double { v.isFinite ? min(max(v, 0), 1) : 1 }

    /// Adds `f`'s parts that touch the tile to the current path, moved `offset` device pixels
    /// to the right of their direction (a style's line-offset).
    @discardableResult
    private func path(_ f: VectorTile.Feature, _ ext: Double, _ frame: Frame, _ cr: OpaquePointer, closed: Bool, margin: Double,
                      offset: Double = 0) -> Bool {
        var any = false
        for part in f.parts where part.count >= 2 && frame.touches(part, ext, margin: margin) {
            any = true
            var points = part.map { (x: frame.x($0, ext), y: frame.y($0, ext)) }
            if offset != 0 { points = Self.offset(points, by: offset) }
            cairo_move_to(cr, points[0].x, points[0].y)
            for p in points.dropFirst() { cairo_line_to(cr, p.x, p.y) }
            if closed { cairo_close_path(cr) }
        }
        return any
    }

    /// The line parallel to `points` at `d` to the right of its direction (y points down): each
    /// vertex moved along the mean of its segments' normals, lengthened to keep the distance
    /// at a bend (at most twice, as a miter limit).
    static func offset(_ points: [(x: Double, y: Double)], by d: Double) -> [(x: Double, y: Double)] {
        func normal(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> (x: Double, y: Double)? {
            let dx = b.x - a.x, dy = b.y - a.y, l = (dx * dx + dy * dy).squareRoot()
            return l > 1e-9 ? (-dy / l, dx / l) : nil
        }
        var out = points
        for i in points.indices {
            let before = i > 0 ? normal(points[i - 1], points[i]) : nil
            let after = i + 1 < points.count ? normal(points[i], points[i + 1]) : nil
            guard let n0 = before ?? after, let n1 = after ?? before else { continue }
            var nx = n0.x + n1.x, ny = n0.y + n1.y
            let l = (nx * nx + ny * ny).squareRoot()
            guard l > 1e-9 else { continue }
            nx /= l; ny /= l
            let cosHalf = max(nx * n0.x + ny * n0.y, 0.5)
            out[i] = (points[i].x + nx * d / cosHalf, points[i].y + ny * d / cosHalf)
        }
        return out
    }

    private func fill(_ layer: StyleLayer, _ data: VectorTile.Layer, _ features: [Int], _ canvas: CairoCanvas, _ frame: Frame, _ zoom: Double) {
        let cr = canvas.context
        let ext = Double(data.extent) / 4096
        let extrusion = layer.type == .fillExtrusion
        let colorName = extrusion ? "fill-extrusion-color" : "fill-color"
        let opacityName = extrusion ? "fill-extrusion-opacity" : "fill-opacity"
        // A pattern is not drawn; a layer with a pattern and no colour of its own would be
        // filled with the default black, so it is left out.
        let pattern = extrusion ? "fill-extrusion-pattern" : "fill-pattern"
        guard layer.paint[pattern] == nil || layer.paint[colorName] != nil else { return }
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        // Features of one look are filled as one path: a city tile has thousands of buildings.
        var batch: (color: Color, outline: Color?)?
        func flush() {
            guard let b = batch else { return }
            canvas.setColor(b.color)
            if let o = b.outline {
                cairo_fill_preserve(cr)
                canvas.setColor(o)
                cairo_set_line_width(cr, 1)
                cairo_stroke(cr)
            } else {
                cairo_fill(cr)
            }
            batch = nil
        }
        func look(_ c: EvaluationContext) -> (color: Color, outline: Color?)? {
            guard let base = layer.color(colorName, c) else { return nil }
            let opacity = clamp01(layer.number(opacityName, c))
            let color = base.withAlpha(base.a * opacity)
            guard color.a > 0 else { return nil }
            return (color, extrusion ? nil : layer.color("fill-outline-color", c).map { $0.withAlpha($0.a * opacity) })
        }
        let constant = [colorName, opacityName, "fill-outline-color"].allSatisfy(layer.isFeatureConstant)
        let shared = constant ? look(EvaluationContext(zoom: zoom)) : nil
        if constant && shared == nil { return }
        for i in features where data.features[i].type == .polygon {
            let f = data.features[i]
            guard let (color, outline) = shared ?? look(EvaluationContext(zoom: zoom, feature: f)) else { continue }
            if let b = batch, b.color != color || b.outline != outline { flush() }
            if path(f, ext, frame, cr, closed: true, margin: 2) { batch = (color, outline) }
        }
        flush()
        cairo_new_path(cr)
    }

    /// How a line layer strokes one feature, in device pixels.
    struct LinePaint: Equatable {
        var color: Color
        var width: Double
        var gap: Double
        var offset: Double
        var dashes: [Double]
        var cap: String?
        var join: String?
    }

    func linePaint(_ layer: StyleLayer, _ c: EvaluationContext, _ frame: Frame) -> LinePaint? {
        guard let base = layer.color("line-color", c) else { return nil }
        let color = base.withAlpha(base.a * clamp01(layer.number("line-opacity", c)))
        let width = max(0, min(layer.number("line-width", c), 200)) * frame.k
        guard color.a > 0, width > 0 else { return nil }
        let dashes = (layer.numbers("line-dasharray", c) ?? []).filter { $0.isFinite && $0 >= 0 }.prefix(16)
        // Dash lengths are in line widths (at least a device pixel each).
        let unit = max(width, frame.k)
        // Dashes too fine to see (a hostile style's 0.0001) would have Cairo step through
        // millions on one line: such a line is drawn solid; none longer than a tile's width.
        var scaled = dashes.map { min(max($0 * unit, 0.01), 4096 * frame.k) }
        if scaled.reduce(0, +) < 2 * frame.k { scaled = [] }
        return LinePaint(color: color, width: width, gap: max(0, min(layer.number("line-gap-width", c), 200)) * frame.k,
                         offset: max(-200, min(layer.number("line-offset", c), 200)) * frame.k,
                         dashes: scaled.count >= 2 && dashes.contains { $0 > 0 } ? scaled : [],
                         cap: layer.string("line-cap", c), join: layer.string("line-join", c))
    }

    static let lineProperties = ["line-color", "line-opacity", "line-width", "line-gap-width", "line-offset", "line-dasharray", "line-cap", "line-join"]

    private func line(_ layer: StyleLayer, _ data: VectorTile.Layer, _ features: [Int], _ canvas: CairoCanvas, _ frame: Frame, _ zoom: Double) {
        let cr = canvas.context
        let ext = Double(data.extent) / 4096
        // Paint that does not vary by feature is worked out once for the tile, and features
        // stroked alike are stroked as one path: a city tile holds thousands of ways.
        let constant = Self.lineProperties.allSatisfy(layer.isFeatureConstant)
        let shared = constant ? linePaint(layer, EvaluationContext(zoom: zoom), frame) : nil
        if constant && shared == nil { return }
        var pending: LinePaint?
        func flush() {
            guard let p = pending else { return }
            cairo_set_line_cap(cr, cap(p.cap))
            cairo_set_line_join(cr, join(p.join))
            if !p.dashes.isEmpty { cairo_set_dash(cr, p.dashes, Int32(p.dashes.count), 0) }
            canvas.setColor(p.color)
            cairo_set_line_width(cr, p.width)
            cairo_stroke(cr)
            cairo_set_dash(cr, nil, 0, 0)
            pending = nil
        }
        for i in features where data.features[i].type == .lineString || data.features[i].type == .polygon {
            let f = data.features[i]
            guard let p = shared ?? linePaint(layer, EvaluationContext(zoom: zoom, feature: f), frame) else { continue }
            if let q = pending, q != p { flush() }
            // A gap width makes two lines, one either side of the gap (MapLibre's way of
            // drawing a road's casing around it).
            let sides = p.gap > 0 ? [p.offset - (p.gap + p.width) / 2, p.offset + (p.gap + p.width) / 2] : [p.offset]
            // A wide line's caps reach beyond the tile's square: draw what lies that near.
            let margin = p.width + p.gap + abs(p.offset) + 2
            var any = false
            for d in sides { any = path(f, ext, frame, cr, closed: f.type == .polygon, margin: margin, offset: d) || any }
            if any { pending = p }
        }
        flush()
        cairo_new_path(cr)
    }

    private func circles(_ layer: StyleLayer, _ data: VectorTile.Layer, _ features: [Int], _ canvas: CairoCanvas, _ frame: Frame, _ zoom: Double) {
        let cr = canvas.context
        let ext = Double(data.extent) / 4096
        for i in features where data.features[i].type == .point {
            let f = data.features[i]
            let c = EvaluationContext(zoom: zoom, feature: f)
            let r = max(0, min(layer.number("circle-radius", c), 100)) * frame.k
            let opacity = clamp01(layer.number("circle-opacity", c))
            let stroke = max(0, min(layer.number("circle-stroke-width", c), 50)) * frame.k
            for part in f.parts { for p in part {
                let x = frame.x(p, ext), y = frame.y(p, ext)
                guard x > -r - stroke, y > -r - stroke, x < frame.pixels + r + stroke, y < frame.pixels + r + stroke else { continue }
                cairo_new_path(cr)
                cairo_arc(cr, x, y, r, 0, 2 * .pi)
                if let fill = layer.color("circle-color", c) { canvas.setColor(fill.withAlpha(fill.a * opacity)); cairo_fill_preserve(cr) }
                if stroke > 0, let sc = layer.color("circle-stroke-color", c) {
                    canvas.setColor(sc.withAlpha(sc.a * clamp01(layer.number("circle-stroke-opacity", c))))
                    cairo_set_line_width(cr, stroke)
                    cairo_stroke(cr)
                }
                cairo_new_path(cr)
            } }
        }
    }

    private func cap(_ s: String?) -> cairo_line_cap_t {
        switch s { case "round": return CAIRO_LINE_CAP_ROUND; case "square": return CAIRO_LINE_CAP_SQUARE; default: return CAIRO_LINE_CAP_BUTT }
    }

    private func join(_ s: String?) -> cairo_line_join_t {
        switch s { case "round": return CAIRO_LINE_JOIN_ROUND; case "bevel": return CAIRO_LINE_JOIN_BEVEL; default: return CAIRO_LINE_JOIN_MITER }
    }
}
