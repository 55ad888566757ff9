import CCairo
import FoundationEssentials
import Glibc
import Platform
import MapCore
import MapGeometry
import MapStyle
import MapTiles

/// Paints vector tiles with Cairo at any zoom: the embedded basemap's own schema in its own
/// look, any other (OpenMapTiles) as a MapLibre style says. Beyond the data's deepest zoom
/// the ancestor's geometry is drawn magnified (crisp vectors, not an enlarged bitmap).
/// Decoded tiles are kept in a small cache, since one data tile feeds many over-zoomed ones.
/// Thread-safe: loader workers share one painter.
public final class VectorTilePainter: @unchecked Sendable {
    public let style: BasemapStyle
    /// The MapLibre style that draws the tiles; nil for the basemap's own look.
    public let mapStyle: MapStyle?
    /// The style's icons, when its sprite sheet is a local file.
    public let sprites: SpriteSheet?
    private let lock = Lock()
    /// A view at a street zoom draws from a handful of data tiles, and a zoom out from a few
    /// dozen: room for those, not for a day's worth.
    private var decoded = LRUCache<TileID, PreparedTile>(capacity: 16 << 20)

    public init(style: BasemapStyle = .standard) { self.style = style; mapStyle = nil; sprites = nil }

    /// A painter for tiles a MapLibre style draws, with the icons of `sprites`.
    public init(mapStyle: MapStyle, sprites: SpriteSheet? = nil) { style = .standard; self.mapStyle = mapStyle; self.sprites = sprites }

    /// The decoded tile for `data` (the bytes of `tile`), from the cache when possible.
    public func decode(_ data: Data, tile: TileID) throws -> VectorTile { try prepared(data, tile: tile).tile }

    func prepared(_ data: Data, tile: TileID) throws -> PreparedTile {
        lock.lock()
        if let t = decoded.value(for: tile) { lock.unlock(); return t }
        lock.unlock()
        let t = PreparedTile(try MVTDecoder.decode(data))
        lock.lock()
        decoded.insert(t, for: tile, cost: max(data.count * 6, t.cost, 256))
        lock.unlock()
        return t
    }

    /// Keeps the decoded tiles used last, up to `bytes` (a map at rest needs the view's few).
    public func trimDecoded(to bytes: Int) {
        lock.lock()
        while decoded.totalCost > bytes, decoded.removeLeastRecent() != nil {}
        lock.unlock()
    }

    /// Lets the decoded tiles go (the layer it draws is out of sight).
    public func forgetDecoded() {
        lock.lock(); decoded.removeAll(); lock.unlock()
    }

    /// Rasterizes `tile` (pixelSize square) from the vector data of `dataTile` (itself or an
    /// ancestor), and a style's raster and hillshade layers from `pictures` (encoded pictures
    /// made into pixels by `decodeImage`). `viewZoom`: the zoom a MapLibre style's tile will be
    /// seen at, where its zoom-dependent widths, filters and opacities are evaluated (nil: the
    /// tile's own zoom). `lightBearing`: the map's bearing, which turns hillshading lit from
    /// the viewport (MapLibre's `hillshade-illumination-anchor` default).
    public func paint(_ tile: TileID, data: Data, dataTile: TileID, pixelSize: Int, viewZoom: Double? = nil, lightBearing: Double = 0,
                      pictures: [StylePicture] = [],
                      decodeImage: @escaping (Data) throws -> Bitmap = { _ in throw TileSourceError(tr("no image decoder")) }) throws -> DecodedTile {
        let prepared = data.isEmpty ? PreparedTile(VectorTile(layers: [])) : try self.prepared(data, tile: dataTile)
        let vt = prepared.tile
        let canvas = try CairoCanvas(width: pixelSize, height: pixelSize)
        if let mapStyle {
            let found = pictures.isEmpty ? nil : StylePictures(pictures, decodeImage: decodeImage)
            let frame = StyledTilePainter.Frame(tile: tile, dataTile: dataTile, pixelSize: pixelSize, viewZoom: viewZoom, lightBearing: lightBearing)
            let labels = StyledTilePainter(style: mapStyle, sprites: sprites).paint(prepared, onto: canvas, frame: frame, pictures: found)
            // A damaged picture fails the tile, so that its source drops it and it is asked again.
            // TRANSLATORS: %@ says which picture (a raster or heights tile the map's style draws) and what is wrong with it.
            if let problem = found?.problems.first { throw TileSourceError(tr("a picture of the style: %@", problem)) }
            return DecodedTile(bitmap: canvas.bitmap(), places: labels)
        }
        let cr = canvas.context
        canvas.fill(style.water)

        // Data units → device pixels for the requested tile's square inside the data tile.
        let d = tile.z - dataTile.z
        let span = 4096.0 / Double(1 << d)
        let ox = Double(tile.x - (dataTile.x << d)) * span, oy = Double(tile.y - (dataTile.y << d)) * span
        let pointScale = Double(pixelSize) / 256 // device pixels per point
        let z = tile.z

        func path(_ layer: String, closed: Bool) -> Bool {
            guard let l = vt.layer(layer), !l.features.isEmpty else { return false }
            // Layer units → 4096ths of the data tile → device pixels.
            let ext = Double(l.extent) / 4096
            let k = Double(pixelSize) / span
            var any = false
            for f in l.features {
                for part in f.parts where part.count >= 2 {
                    // Skip parts wholly outside this (possibly over-zoomed) tile.
                    var minX = Int32.max, maxX = Int32.min, minY = Int32.max, maxY = Int32.min
                    for p in part { minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y) }
                    let x0 = (Double(minX) / ext - ox) * k, x1 = (Double(maxX) / ext - ox) * k
                    let y0 = (Double(minY) / ext - oy) * k, y1 = (Double(maxY) / ext - oy) * k
                    if x1 < -4 || x0 > Double(pixelSize) + 4 || y1 < -4 || y0 > Double(pixelSize) + 4 { continue }
                    any = true
                    cairo_move_to(cr, (Double(part[0].x) / ext - ox) * k, (Double(part[0].y) / ext - oy) * k)
                    for p in part.dropFirst() { cairo_line_to(cr, (Double(p.x) / ext - ox) * k, (Double(p.y) / ext - oy) * k) }
                    if closed { cairo_close_path(cr) }
                }
            }
            return any
        }

        func fill(_ layer: String, _ color: Color, stroke: (Color, Double)? = nil) {
            guard path(layer, closed: true) else { return }
            canvas.setColor(color)
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
            if let (sc, w) = stroke {
                cairo_fill_preserve(cr)
                canvas.setColor(sc)
                cairo_set_line_width(cr, w * pointScale)
                cairo_stroke(cr)
            } else {
                cairo_fill(cr)
            }
        }

        func stroke(_ layer: String, _ color: Color, width: Double, dash: [Double] = []) {
            guard path(layer, closed: false) else { return }
            canvas.setColor(color)
            cairo_set_line_width(cr, width * pointScale)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            let scaled = dash.map { $0 * pointScale }
            cairo_set_dash(cr, scaled, Int32(scaled.count), 0)
            cairo_stroke(cr)
            cairo_set_dash(cr, nil, 0, 0)
        }

        fill("land", style.land, stroke: (style.coast, style.coastWidth(zoom: z)))
        fill("urban", style.urban)
        fill("glaciers", style.glacier)
        fill("lakes", style.water, stroke: (style.coast, style.coastWidth(zoom: z) * 0.8))
        if z >= style.riverMinZoom { stroke("rivers", style.river, width: style.riverWidth(zoom: z)) }
        if z >= style.stateMinZoom { stroke("states", style.state, width: style.stateWidth(zoom: z), dash: [3, 2]) }
        stroke("borders", style.border, width: style.borderWidth(zoom: z))
        return DecodedTile(bitmap: canvas.bitmap(), places: vt.places(in: tile, dataTile: dataTile).map {
            PlaceLabel(name: $0.name, point: $0.point, population: $0.population, capital: $0.capital)
        })
    }
}
