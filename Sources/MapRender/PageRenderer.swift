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
    /// Whether what layers paint goes into the drawings layer (`DrawList.drawingsLayer` is
    /// set) rather than the opaque layers' tiles, for the list being drawn.
    private var drawingsOnTop = false
    /// The zoom the list's camera rests at.
    private var viewZoom: Double?
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
    /// `viewZoom`: the zoom of the camera that composed it, which styled tiles are painted
    /// for as the window paints them (`TilePainting`); `progress` hears the share done.
    public func draw(_ list: DrawList, into cr: OpaquePointer, size: (width: Double, height: Double), viewZoom: Double? = nil,
                     progress: (Double) -> Void = { _ in }) {
        cairo_save(cr)
        cairo_rectangle(cr, 0, 0, size.width, size.height)
        cairo_clip(cr)
        drawingsOnTop = list.drawingsLayer != nil
        self.viewZoom = viewZoom
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
        TilePainting.place(picture, in: cr, x: x, y: y, width: width, height: height, opacity: opacity)
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

    /// The picture of `id` in tile layer `layer`, painted for the page as the window paints
    /// it (`TilePainting`): at the view's zoom, lit for its bearing, with what layers paint
    /// over the layer that carries it.
    private func tile(_ id: TileID, layer: Int) -> Bitmap? {
        let key = "\(layer)/\(id)/\(bearing)/\(viewZoom ?? -1)"
        if let done = tiles[key] { return done }
        guard stack.layers.indices.contains(layer) else { return nil }
        let l = stack.layers[layer]
        let painting = TilePainting(painter: l.painter, overlays: l.carriesDrawings(drawingsOnTop: drawingsOnTop) ? overlays : [],
                                    viewZoom: viewZoom, lightBearing: bearing)
        do {
            guard let payload = try l.payloads(painting: overlays).payload(for: id), let picture = try painting.page(id, payload) else { return nil }
            tiles[key] = picture
            return picture
        } catch {
            // TRANSLATORS: the tile (zoom/x/y), then what went wrong.
            problems.append(tr("tile %@: %@", id, error))
            return nil
        }
    }
}
