import CCairo
import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapGraphics
import MapTiles
import Platform

/// Draws a frame's draw list onto a page (a PDF, SVG or image surface) the way the window
/// composes it, but as the page wants it: vector tiles, what layers paint into tiles, labels,
/// pins and the scale bar as paths and real text (painted again, recorded, and replayed onto
/// the page), raster tiles embedded at their own resolution (never enlarged into the file).
public final class PageRenderer {
    private let stack: TileStack
    private let overlays: [any TileOverlay]
    /// The layer whose tiles carry what layers paint (`DrawList.drawingsLayer`; nil: the
    /// opaque ones), for the list being drawn.
    private var drawingsLayer: Int?
    /// Pictures made for this page, by layer and tile (a draw list may use one twice).
    private var tiles: [String: Bitmap] = [:]
    private var bearing = 0.0
    /// What could not be drawn (a tile the source failed to give), for the user.
    public private(set) var problems: [String] = []
    /// Letters of names along lines, as glyphs (`drawLetters`), by their sprites.
    private var letterTexts: [SpriteKey: PageText?] = [:]

    public init(stack: TileStack, overlays: TileOverlays) {
        self.stack = stack
        self.overlays = overlays.make()
    }

    /// Draws `list` (in points) into `cr` with its origin at the context's current origin;
    /// `progress` hears the share done.
    public func draw(_ list: DrawList, into cr: OpaquePointer, size: (width: Double, height: Double),
                     progress: (Double) -> Void = { _ in }) {
        cairo_save(cr)
        cairo_rectangle(cr, 0, 0, size.width, size.height)
        cairo_clip(cr)
        drawingsLayer = list.drawingsLayer
        // The page's bearing, from how its tiles are turned: hillshading lit from the viewport
        // is painted for it, as the window paints it.
        bearing = list.commands.lazy.compactMap { c -> Double? in
            if case let .tile(_, _, _, _, _, d) = c { return d == 0 ? 0 : 360 - d } else { return nil }
        }.first ?? 0
        let count = max(1, list.commands.count)
        let letterRuns = Self.letterRuns(in: list)
        var drawnUpTo = 0
        for (i, command) in list.commands.enumerated() {
            // A name's letters after its first: drawn with it, as text (PageRenderer+Letters).
            if i < drawnUpTo { progress(Double(i + 1) / Double(count)); continue }
            if let n = letterRuns[i], drawLetters(list.commands[i..<(i + n)], into: cr) {
                drawnUpTo = i + n
                progress(Double(i + 1) / Double(count))
                continue
            }
            switch command {
            case let .clear(c):
                cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a)
                cairo_paint(cr)
            case let .fillRect(r, c):
                cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a)
                cairo_rectangle(cr, r.x, r.y, r.width, r.height)
                cairo_fill(cr)
            case let .tile(id, layer, src, turnedDst, opacity, degrees):
                guard let picture = tile(id, layer: layer) else { continue }
                // A turned tile is drawn in its own frame, turned about its centre.
                var dst = turnedDst
                cairo_save(cr)
                if degrees != 0 {
                    cairo_translate(cr, dst.x + dst.width / 2, dst.y + dst.height / 2)
                    cairo_rotate(cr, degrees * .pi / 180)
                    dst = ScreenRect(x: -dst.width / 2, y: -dst.height / 2, width: dst.width, height: dst.height)
                }
                // The whole tile's size on the page, from the part of it that fills `dst`.
                let (w, h) = (dst.width / src.width, dst.height / src.height)
                cairo_rectangle(cr, dst.x, dst.y, dst.width, dst.height)
                cairo_clip(cr)
                place(picture, in: cr, x: dst.x - src.x * w, y: dst.y - src.y * h, width: w, height: h, opacity: opacity)
                cairo_restore(cr)
            case let .sprite(key, dst, opacity):
                guard let picture = sprite(key) else { continue }
                place(picture, in: cr, x: dst.x, y: dst.y, width: dst.width, height: dst.height, opacity: opacity)
            case let .rotatedSprite(key, dst, opacity, degrees):
                guard let picture = sprite(key) else { continue }
                cairo_save(cr)
                cairo_translate(cr, dst.x + dst.width / 2, dst.y + dst.height / 2)
                cairo_rotate(cr, degrees * .pi / 180)
                place(picture, in: cr, x: -dst.width / 2, y: -dst.height / 2, width: dst.width, height: dst.height, opacity: opacity)
                cairo_restore(cr)
            }
            progress(Double(i + 1) / Double(count))
        }
        cairo_restore(cr)
    }

    /// Paints `picture` (a recording or pixels) scaled into the box.
    private func place(_ picture: Bitmap, in cr: OpaquePointer, x: Double, y: Double, width: Double, height: Double, opacity: Double) {
        guard picture.width > 0, picture.height > 0 else { return }
        cairo_save(cr)
        cairo_translate(cr, x, y)
        cairo_scale(cr, width / Double(picture.width), height / Double(picture.height))
        if let recording = picture.recording as? CairoRecording {
            cairo_set_source_surface(cr, recording.surface, 0, 0)
            cairo_paint_with_alpha(cr, opacity)
        } else {
            picture.withCairoSurface { s in
                cairo_set_source_surface(cr, s, 0, 0)
                // A picture enlarged on paper keeps its pixels sharp-edged only where it
                // must; the PDF holds the image at its own size either way.
                cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
                cairo_paint_with_alpha(cr, opacity)
            }
        }
        cairo_restore(cr)
    }

    /// A letter of a name along a line as glyphs for the page (nil: drawn as its picture).
    func pageText(_ key: SpriteKey, _ s: String, _ style: TextStyle) -> PageText? {
        if let known = letterTexts[key] { return known }
        let text = TextRasterizer.pageText(s, style: style)
        letterTexts[key] = text
        return text
    }

    /// A sprite drawn for the page: a recording from its painter.
    private func sprite(_ key: SpriteKey) -> Bitmap? {
        do { return try CairoCanvas.forPage { try SpritePainters.paint(key, pixelRatio: 1) } } catch {
            problems.append("\(error)")
            return nil
        }
    }

    /// The picture of `id` in tile layer `layer`: its vector tile drawn for the page (256
    /// units across) with what layers paint into an opaque layer's tiles, or its raster
    /// picture at its own resolution.
    private func tile(_ id: TileID, layer: Int) -> Bitmap? {
        let key = "\(layer)/\(id)/\(bearing)"
        if let done = tiles[key] { return done }
        guard stack.layers.indices.contains(layer) else { return nil }
        let spec = stack.layers[layer].spec, vectors = stack.layers[layer].painter
        let src = spec.role == .drawings ? DrawingsSource(painting: overlays) : stack.layers[layer].source
        let carries = drawingsLayer.map { $0 == layer } ?? spec.isOpaque
        do {
            guard let payload = try src.payload(for: id) else { return nil }
            var picture: Bitmap?
            switch payload {
            case let .vector(data, dataTile):
                picture = try CairoCanvas.forPage { try vectors.paint(id, data: data, dataTile: dataTile, pixelSize: 256).bitmap }
            case let .styled(data, dataTile, pictures):
                picture = try CairoCanvas.forPage {
                    try vectors.paint(id, data: data, dataTile: dataTile, pixelSize: 256, lightBearing: bearing, pictures: pictures, decodeImage: { try ImageDecoder.decode($0) }).bitmap
                }
            case let .encodedImage(data):
                picture = try ImageDecoder.decode(data)
            case let .encodedImageRegion(data, ancestor):
                picture = try Self.region(of: try ImageDecoder.decode(data), ancestor: ancestor, tile: id)
            case let .debugGrid(grid):
                picture = try CairoCanvas.forPage { try DebugTilePainter.paint(grid, pixelSize: 256) }
            case let .terrain(data, encoding, dataTile):
                picture = try TerrainTilePainter.paint(data, encoding: encoding, of: dataTile, as: id, pixels: 256, bearing: bearing)
            case .drawings:
                picture = nil // nothing of its own: only what layers paint, below
            }
            if carries, overlays.contains(where: { $0.touches(id) }) {
                picture = try CairoCanvas.forPage {
                    let canvas = try CairoCanvas(width: 256, height: 256)
                    if let picture { placeBelow(picture, on: canvas) }
                    TileOverlayPainters.paint(overlays, onto: canvas, tile: id, pointScale: 1)
                    return canvas.bitmap()
                }
            }
            guard let picture else { return nil }
            tiles[key] = picture
            return picture
        } catch {
            // TRANSLATORS: the tile (zoom/x/y), then what went wrong.
            problems.append(tr("tile %@: %@", id, error))
            return nil
        }
    }

    /// `picture` filling `canvas` (256 units), under what is drawn next.
    private func placeBelow(_ picture: Bitmap, on canvas: CairoCanvas) {
        place(picture, in: canvas.context, x: 0, y: 0, width: Double(canvas.width), height: Double(canvas.height), opacity: 1)
    }

    /// The part of an ancestor's raster picture that is `tile`, still at the ancestor's
    /// resolution (the page scales it; the file keeps the pixels there are).
    static func region(of image: Bitmap, ancestor: TileID, tile: TileID) throws -> Bitmap {
        let d = tile.z - ancestor.z
        guard d > 0, d < 16, image.width > 0, image.height > 0 else { return image }
        let n = 1 << d, (i, j) = (tile.x - (ancestor.x << d), tile.y - (ancestor.y << d))
        guard (0..<n).contains(i), (0..<n).contains(j) else { return image }
        // The tile's share of the picture's pixels; at least one (deep over-zoom).
        let x0 = i * image.width / n, y0 = j * image.height / n
        let w = max(1, (i + 1) * image.width / n - x0), h = max(1, (j + 1) * image.height / n - y0)
        guard x0 + w <= image.width, y0 + h <= image.height else { return image }
        var pixels = [UInt32](repeating: 0, count: w * h)
        for row in 0..<h { for col in 0..<w { pixels[row * w + col] = image.pixels[(y0 + row) * image.width + x0 + col] } }
        return Bitmap(width: w, height: h, pixels: pixels, premultiplied: image.premultiplied, order: image.order)
    }
}
