import CPixels
import FoundationEssentials
import MapCore
import MapTiles
import Platform

extension PixelCompositor {
    /// How one frame is drawn: at `k` device pixels per point into `target`; `filter`: scaled
    /// tiles are filtered.
    struct Mode {
        let k: Double
        let target: PixelTarget
        let filter: Bool
    }

    /// Draws `commands` in order, touching only the pixels of `clip`. Opaque layers' tiles
    /// hide what is under them, so a pixel a later full-opacity one covers is never drawn before it: the clear and parents
    /// under their children draw only what shows, and each screen pixel is written about once.
    func run(_ commands: ArraySlice<DrawCommand>, _ mode: Mode, clip: PixelBox) {
        let k = mode.k, t = mode.target
        let covers = tiles.opaqueTiles(in: commands, k, width: t.width, height: t.height)
        var coverIndex = 0
        for (index, command) in zip(commands.indices, commands) {
            // The opaque tiles drawn after this command.
            while coverIndex < covers.count, covers[coverIndex].index <= index { coverIndex += 1 }
            let later = covers[coverIndex...]
            switch command {
            case let .clear(c):
                let colour = Self.premultiplied(c.withAlpha(1))
                for part in clip.visibleParts(under: later) { mp_fill(t.mp, part.mp, colour) }
            case let .tile(id, layer, src, dst, opacity, degrees) where degrees != 0:
                // Pixels whose centres fall in the turned tile: turned neighbours share
                // their edges, so each pixel is drawn by one of them.
                guard let bitmap = tiles[layer]?.bitmap(for: id),
                      DeviceRect(dst.turnedBounds(degrees), k).box(inside: t.width, t.height)?.intersection(clip) != nil else { continue }
                let w = Double(bitmap.width), h = Double(bitmap.height)
                bitmap.pixels.withUnsafeBufferPointer { px in
                    mp_draw_rotated(t.mp, Self.image(bitmap, px), src.x * w, src.y * h, src.width * w, src.height * h,
                                    (dst.x + dst.width / 2) * k, (dst.y + dst.height / 2) * k, dst.width * k, dst.height * k,
                                    degrees, clip.mp, UInt32(Color.byte(opacity)))
                }
            case let .tile(id, layer, src, dst, opacity, _):
                let d = DeviceRect(dst, k)
                guard let store = tiles[layer], let bitmap = store.bitmap(for: id),
                      let box = d.box(inside: t.width, t.height)?.intersection(clip) else { continue }
                let w = Double(bitmap.width), h = Double(bitmap.height)
                // An overlay's pictures are blended over what is below; opaque ones copied.
                let flags = (store.isOpaque ? UInt32(MP_OPAQUE) : 0) | (mode.filter ? UInt32(MP_FILTER) : 0)
                for part in box.visibleParts(under: later) {
                    draw(bitmap, source: (src.x * w, src.y * h, src.width * w, src.height * h), onto: d,
                         mode, part, opacity, flags: flags)
                }
            case let .fillRect(r, c):
                guard let b = DeviceRect(r, k).box(inside: t.width, t.height)?.intersection(clip) else { continue }
                mp_fill(t.mp, b.mp, Self.premultiplied(c))
            case let .sprite(key, dst, opacity):
                guard let bitmap = sprites.bitmap(for: key) else { continue }
                let w = Double(bitmap.width), h = Double(bitmap.height)
                let d = DeviceRect(sprite: dst, k, width: w, height: h)
                draw(bitmap, source: (0, 0, w, h), onto: d, mode, clip, opacity, flags: UInt32(MP_FILTER))
            case let .rotatedSprite(key, dst, opacity, degrees):
                // Turned sprites are small (a heading cone).
                guard dst.width * k < 4 * Double(t.width), dst.height * k < 4 * Double(t.height),
                      let bitmap = sprites.bitmap(for: key) else { continue }
                bitmap.pixels.withUnsafeBufferPointer { px in
                    mp_draw_rotated(t.mp, Self.image(bitmap, px), 0, 0, Double(bitmap.width), Double(bitmap.height),
                                    (dst.x + dst.width / 2) * k, (dst.y + dst.height / 2) * k, dst.width * k, dst.height * k,
                                    degrees, clip.mp, UInt32(Color.byte(opacity)))
                }
            }
        }
    }

    private func draw(_ bitmap: Bitmap, source s: (x: Double, y: Double, w: Double, h: Double), onto d: DeviceRect,
                      _ mode: Mode, _ clip: PixelBox, _ opacity: Double, flags: UInt32) {
        bitmap.pixels.withUnsafeBufferPointer { px in
            mp_draw_image(mode.target.mp, Self.image(bitmap, px), s.x, s.y, s.w, s.h, d.x0, d.y0, d.width, d.height,
                          clip.mp, UInt32(Color.byte(opacity)), flags)
        }
    }

    private static func image(_ b: Bitmap, _ px: UnsafeBufferPointer<UInt32>) -> mp_image {
        mp_image(pixels: px.baseAddress, width: Int32(b.width), height: Int32(b.height), stride: Int32(b.width))
    }

    /// A straight-alpha colour as a premultiplied 0xAARRGGBB word.
    static func premultiplied(_ c: Color) -> UInt32 {
        let a = min(max(c.a, 0), 1)
        func ch(_ v: Double) -> UInt32 { UInt32(Color.byte(min(max(v, 0), 1) * a)) }
        return UInt32(Color.byte(a)) << 24 | ch(c.r) << 16 | ch(c.g) << 8 | ch(c.b)
    }
}
