import CCairo
import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapGraphics
import MapTiles
import Platform

/// How a tile becomes a picture: the one answer for the window and `render` (pixels, on a
/// loader's worker: `TileRasterizer`) and for pages (a recording replayed onto the page, so
/// that vectors stay vectors and text stays text: `PageRenderer`). It decides which painter
/// draws a payload, at which zoom a style is evaluated, how many units the tile is across and
/// what layers paint over it; a page between whole zooms so has the window's line widths and
/// filters, not those of its tiles' own zoom.
public struct TilePainting: Sendable {
    public let painter: VectorTilePainter
    /// What layers paint over the tile, bottom first: for the layer that carries them
    /// (`TileLayerSource.carriesDrawings`), else none.
    public let overlays: [any TileOverlay]
    /// The zoom styled vector tiles are evaluated at (`styleZoom(forView:)`); nil: each tile
    /// at its own.
    public let viewZoom: Double?
    /// The bearing hillshading lit from the viewport is painted for.
    public let lightBearing: Double

    /// `viewZoom`: the zoom the view rests at (nil while it changes).
    public init(painter: VectorTilePainter, overlays: [any TileOverlay] = [], viewZoom: Double? = nil, lightBearing: Double = 0) {
        self.painter = painter
        self.overlays = overlays
        self.viewZoom = Self.styleZoom(forView: viewZoom)
        self.lightBearing = lightBearing
    }

    /// The zoom styled tiles are painted for while the view rests at `zoom`: that very zoom
    /// between whole zooms (widths, filters and opacities exact where the tile is scaled to
    /// it); at a whole zoom, or while the zoom changes, each tile's own.
    public static func styleZoom(forView zoom: Double?) -> Double? {
        zoom.flatMap { $0.isFinite && abs($0 - $0.rounded()) >= 1e-9 ? $0 : nil }
    }

    /// Whether anything is painted over `tile`.
    public func paintsOver(_ tile: TileID) -> Bool { overlays.contains { $0.touches(tile) } }

    /// `tile`'s picture from `payload` for the window, `size` pixels square: opaque over
    /// `background` (or premultiplied), with what layers paint on top (in any channel order:
    /// the texture's is the caller's).
    public func pixels(_ tile: TileID, _ payload: TilePayload, size: Int, background: Color?) throws -> DecodedTile {
        let under = background.map { UInt32(Color.byte($0.r)) << 16 | UInt32(Color.byte($0.g)) << 8 | UInt32(Color.byte($0.b)) }
        var decoded = try base(tile, payload, units: size, page: false, under: under)
            ?? DecodedTile(bitmap: Bitmap(width: size, height: size, pixels: Array(repeating: 0, count: size * size), premultiplied: true))
        // An overlay's pictures stay transparent, premultiplied as Cairo's are (a server's PNG
        // comes in straight alpha).
        if let under { decoded.bitmap.flatten(over: under) } else { decoded.bitmap.premultiply() }
        if paintsOver(tile) {
            // Cairo draws over the premultiplied pixels as they are (opaque ones are the same
            // either way), in its own channel order.
            decoded.bitmap.convert(to: .argb)
            TileOverlayPainters.paint(overlays, onto: &decoded.bitmap, tile: tile)
        }
        return decoded
    }

    /// `tile`'s picture from `payload` for a page, with what layers paint on top: a recording
    /// 256 units square (a point at the tile's own zoom), replayed onto the page as vectors
    /// and text, or a server's picture at its own resolution (the page scales it; the file
    /// holds the pixels there are). Nil when there is nothing to draw.
    public func page(_ tile: TileID, _ payload: TilePayload) throws -> Bitmap? {
        try CairoCanvas.forPage {
            let units = 256
            let picture = try base(tile, payload, units: units, page: true, under: nil)?.bitmap
            guard paintsOver(tile) else { return picture }
            let canvas = try CairoCanvas(width: units, height: units)
            if let picture { Self.place(picture, in: canvas.context, x: 0, y: 0, width: Double(units), height: Double(units), opacity: 1) }
            TileOverlayPainters.paint(overlays, onto: canvas, tile: tile, pointScale: Double(units) / 256)
            return canvas.bitmap()
        }
    }

    /// The payload's own picture, `units` across (nil: nothing of its own, a drawings tile);
    /// `under`: an opaque layer's colour, under a server's picture before it is enlarged.
    private func base(_ tile: TileID, _ payload: TilePayload, units: Int, page: Bool, under: UInt32?) throws -> DecodedTile? {
        switch payload {
        case let .debugGrid(id):
            return DecodedTile(bitmap: try DebugTilePainter.paint(id, pixelSize: units))
        case let .encodedImage(data):
            return DecodedTile(bitmap: try ImageDecoder.decode(data))
        case let .encodedImageRegion(data, ancestor):
            var image = try ImageDecoder.decode(data)
            if page { return DecodedTile(bitmap: Self.region(of: image, ancestor: ancestor, tile: tile)) }
            // (An overlay's stays transparent: the enlarger premultiplies it for Cairo.)
            if let under { image.flatten(over: under) }
            return DecodedTile(bitmap: try RasterEnlarger.enlarge(image, of: ancestor, to: tile, pixels: units))
        case let .vector(data, dataTile):
            return try painter.paint(tile, data: data, dataTile: dataTile, pixelSize: units, viewZoom: viewZoom, lightBearing: lightBearing)
        case let .styled(data, dataTile, pictures):
            return try painter.paint(tile, data: data, dataTile: dataTile, pixelSize: units, viewZoom: viewZoom, lightBearing: lightBearing,
                                     pictures: pictures, decodeImage: { try ImageDecoder.decode($0) })
        case let .terrain(data, encoding, dataTile):
            return DecodedTile(bitmap: try TerrainTilePainter.paint(data, encoding: encoding, of: dataTile, as: tile, pixels: units, bearing: lightBearing))
        case .drawings:
            return nil
        }
    }

    /// Paints `picture` (a recording or pixels) scaled into the box.
    static func place(_ picture: Bitmap, in cr: OpaquePointer, x: Double, y: Double, width: Double, height: Double, opacity: Double) {
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

    /// The part of an ancestor's raster picture that is `tile`, still at the ancestor's
    /// resolution (the page scales it; the file keeps the pixels there are).
    static func region(of image: Bitmap, ancestor: TileID, tile: TileID) -> Bitmap {
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

extension TileLayerSource {
    /// Whether its tiles carry what layers paint into tiles (tracks, a measured line): the
    /// drawings layer's while an overlay shows (`drawingsOnTop`: the frame's
    /// `DrawList.drawingsLayer` is set), else the opaque layers'.
    func carriesDrawings(drawingsOnTop: Bool) -> Bool {
        spec.role == .drawings ? drawingsOnTop : spec.isOpaque && !drawingsOnTop
    }

    /// Where its tiles' payloads come from: the drawings layer's are where what is painted
    /// (`painting`) touches.
    func payloads(painting: [any TileOverlay]) -> TileSource {
        spec.role == .drawings ? DrawingsSource(painting: painting) : source
    }
}
