import CCairo
import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapStyle
import MapTiles
import Platform

/// The pictures of a style's raster and raster-dem sources for one tile, decoded on first use
/// (a style may draw one source in several layers).
final class StylePictures {
    private let pictures: [String: StylePicture]
    private let decodeImage: (Data) throws -> Bitmap
    private var images: [String: Bitmap?] = [:]
    private var heights: [String: DEMTile?] = [:]
    /// What could not be decoded, for the tile's messages.
    private(set) var problems: [String] = []

    init(_ list: [StylePicture], decodeImage: @escaping (Data) throws -> Bitmap) {
        var byName: [String: StylePicture] = [:]
        for p in list { byName[p.source] = p }
        pictures = byName
        self.decodeImage = decodeImage
    }

    var isEmpty: Bool { pictures.isEmpty }

    /// The picture of `source` premultiplied in Cairo's order, and the ground it covers.
    func image(_ source: String) -> (Bitmap, TileID)? {
        guard let p = pictures[source] else { return nil }
        if let done = images[source] { return done.map { ($0, p.tile) } }
        var made: Bitmap?
        do {
            var b = try decodeImage(p.data)
            b.convert(to: .argb)
            if !b.premultiplied { b.premultiply() }
            made = b
        } catch { problems.append("\(source): \(error)") }
        images[source] = made
        return made.map { ($0, p.tile) }
    }

    /// The heights of `source` (`encoding` as the style says), and the ground they cover.
    func heights(_ source: String, encoding: DEMTile.Encoding) -> (DEMTile, TileID)? {
        guard let p = pictures[source] else { return nil }
        if let done = heights[source] { return done.map { ($0, p.tile) } }
        var made: DEMTile?
        do { made = try DEMTile(png: p.data, encoding: encoding) } catch { problems.append("\(source): \(error)") }
        heights[source] = made
        return made.map { ($0, p.tile) }
    }
}

extension StyledTilePainter {
    /// Draws a raster layer: its source's picture over the tile's ground (enlarged from an
    /// ancestor's where it is coarser), at the layer's opacity, with its brightness range,
    /// saturation, contrast and hue turned as the spec says, resampled linearly or nearest.
    func raster(_ layer: StyleLayer, _ pictures: StylePictures, _ canvas: CairoCanvas, _ frame: Frame, _ zoom: Double) {
        guard let source = layer.source, let (image, ground) = pictures.image(source) else { return }
        let c = EvaluationContext(zoom: zoom)
        let opacity = clamp01(layer.number("raster-opacity", c))
        guard opacity > 0, image.width > 0, image.height > 0 else { return }
        var picture = image
        let look = RasterLook(brightnessMin: layer.number("raster-brightness-min", c), brightnessMax: layer.number("raster-brightness-max", c),
                              saturation: layer.number("raster-saturation", c), contrast: layer.number("raster-contrast", c),
                              hueRotate: layer.number("raster-hue-rotate", c))
        if !look.isIdentity { look.apply(to: &picture) }
        let nearest = layer.string("raster-resampling", c) == "nearest"
        place(picture, ground: ground, on: canvas, frame: frame, opacity: opacity, nearest: nearest)
    }

    /// Draws a hillshade layer: its source's heights shaded at this tile's zoom with the
    /// layer's light (direction and anchor), exaggeration and shadow, highlight and accent
    /// colours; beyond the heights' zoom, from the ancestor's heights interpolated.
    func hillshade(_ layer: StyleLayer, _ pictures: StylePictures, _ canvas: CairoCanvas, _ frame: Frame, _ zoom: Double) {
        guard let source = layer.source else { return }
        let encoding: DEMTile.Encoding = style.sources[source]?.encoding == "terrarium" ? .terrarium : .mapbox
        guard let (dem, ground) = pictures.heights(source, encoding: encoding) else { return }
        let c = EvaluationContext(zoom: zoom)
        var look = HillshadeLook()
        look.illuminationDirection = layer.number("hillshade-illumination-direction", c)
        look.anchoredToViewport = layer.string("hillshade-illumination-anchor", c) != "map"
        look.exaggeration = layer.number("hillshade-exaggeration", c)
        if let s = layer.color("hillshade-shadow-color", c) { look.shadow = s }
        if let h = layer.color("hillshade-highlight-color", c) { look.highlight = h }
        if let a = layer.color("hillshade-accent-color", c) { look.accent = a }
        guard let shaded = try? TerrainTilePainter.shade(dem, of: ground, as: frame.tile, look: look, bearing: frame.lightBearing) else { return }
        place(shaded, ground: frame.tile, on: canvas, frame: frame, opacity: 1, nearest: false)
    }

    /// Paints `picture`, which covers `ground` (the tile's square or an ancestor's), where
    /// that ground lies in the tile.
    private func place(_ picture: Bitmap, ground: TileID, on canvas: CairoCanvas, frame: Frame, opacity: Double, nearest: Bool) {
        let d = max(frame.tile.z - ground.z, 0)
        let n = Double(1 << min(d, 30))
        // The ground's square in the tile's device pixels.
        let side = frame.pixels * n
        let x = -Double(frame.tile.x - (ground.x << d)) * frame.pixels, y = -Double(frame.tile.y - (ground.y << d)) * frame.pixels
        picture.withCairoSurface { surface in
            let cr = canvas.context
            cairo_save(cr)
            cairo_rectangle(cr, 0, 0, frame.pixels, frame.pixels)
            cairo_clip(cr)
            cairo_translate(cr, x, y)
            cairo_scale(cr, side / Double(picture.width), side / Double(picture.height))
            cairo_set_source_surface(cr, surface, 0, 0)
            let pattern = cairo_get_source(cr)
            // Its edge pixels carry on past it (no seam of transparency between tiles).
            cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
            cairo_pattern_set_filter(pattern, nearest ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_BILINEAR)
            cairo_paint_with_alpha(cr, opacity)
            cairo_restore(cr)
        }
    }
}

/// A raster layer's colour adjustments, as MapLibre's raster shader makes them: hue turned,
/// saturation and contrast changed, then the brightness squeezed into [min, max].
struct RasterLook {
    var brightnessMin: Double, brightnessMax: Double, saturation: Double, contrast: Double, hueRotate: Double

    var isIdentity: Bool { brightnessMin == 0 && brightnessMax == 1 && saturation == 0 && contrast == 0 && hueRotate.truncatingRemainder(dividingBy: 360) == 0 }

    /// Changes premultiplied ARGB pixels in place.
    func apply(to bitmap: inout Bitmap) {
        let s = saturation > 0 ? 1 - 1 / (1.001 - saturation) : -saturation
        let k = contrast > 0 ? 1 / (1 - contrast) : 1 + contrast
        let angle = hueRotate * .pi / 180, cosA = cos(angle), sinA = sin(angle)
        // Rotation about the grey axis in YIQ, as MapLibre's shader does.
        let lo = min(max(brightnessMin, 0), 1), hi = min(max(brightnessMax, 0), 1)
        for i in bitmap.pixels.indices {
            let p = bitmap.pixels[i]
            let a = Double(p >> 24) / 255
            guard a > 0 else { continue }
            var r = Double((p >> 16) & 0xFF) / 255 / a, g = Double((p >> 8) & 0xFF) / 255 / a, b = Double(p & 0xFF) / 255 / a
            if angle != 0 {
                let y = 0.299 * r + 0.587 * g + 0.114 * b, ii = 0.596 * r - 0.274 * g - 0.322 * b, q = 0.211 * r - 0.523 * g + 0.312 * b
                let i2 = ii * cosA - q * sinA, q2 = ii * sinA + q * cosA
                r = y + 0.956 * i2 + 0.621 * q2; g = y - 0.272 * i2 - 0.647 * q2; b = y - 1.106 * i2 + 1.703 * q2
            }
            let average = (r + g + b) / 3
            r += (average - r) * s; g += (average - g) * s; b += (average - b) * s
            r = (r - 0.5) * k + 0.5; g = (g - 0.5) * k + 0.5; b = (b - 0.5) * k + 0.5
            func squeeze(_ v: Double) -> UInt32 { UInt32(Color.byte((lo + min(max(v, 0), 1) * (hi - lo)) * a)) }
            bitmap.pixels[i] = UInt32(Color.byte(a)) << 24 | squeeze(r) << 16 | squeeze(g) << 8 | squeeze(b)
        }
    }
}
