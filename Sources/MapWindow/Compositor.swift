import CSDL2
import FoundationEssentials
import Glibc
import Platform
import MapCore
import MapGeometry
import MapRender

/// Executes a draw list on an SDL renderer (the GPU path; `PixelCompositor` draws in
/// software): clears, places and fades textures. No Cairo here: everything it draws was
/// rasterized before.
public final class Compositor: DeviceCompositor {
    let renderer: SDLRenderer
    let tiles: TileStores
    let sprites: SpriteStore
    init(renderer: SDLRenderer, tiles: TileStores, sprites: SpriteStore) {
        self.renderer = renderer
        self.tiles = tiles
        self.sprites = sprites
    }

    /// Logical points → device pixels (`DeviceRect`).
    private func pixelRect(_ r: ScreenRect, _ k: Double) -> SDL_Rect { DeviceRect(r, k).sdl }

    /// The part of `dst` (points) on screen, with the matching part of a `src` region (unit
    /// fractions of it): a circle a million points wide is drawn as the slice that shows,
    /// and nothing off screen ever reaches an integer conversion. Nil when nothing shows.
    /// The slice keeps at least two texels of `texels` (a renderer may draw nothing
    /// from a sub-texel source), so a magnified slice may reach a little beyond the view.
    private func visiblePart(of dst: ScreenRect, in view: ScreenRect, texels: (w: Int32, h: Int32)? = nil) -> (ScreenRect, UnitRect)? {
        guard dst.width > 0, dst.height > 0, dst.x.isFinite, dst.y.isFinite, dst.intersects(view) else { return nil }
        var x0 = max(dst.x, view.x), y0 = max(dst.y, view.y)
        var x1 = min(dst.maxX, view.maxX), y1 = min(dst.maxY, view.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        if let (tw, th) = texels {
            let minW = min(dst.width, 2 * dst.width / Double(max(tw, 1))), minH = min(dst.height, 2 * dst.height / Double(max(th, 1)))
            // Where two texels span more than a few screens, a rasterizer's fixed
            // point would overflow: those two texels are stretched over the view instead
            // (at that magnification the picture is one colour anyway).
            if minW > 4096 || minH > 4096 {
                let cx = (x0 + x1) / 2, cy = (y0 + y1) / 2
                let u = min(max((cx - dst.x) / dst.width - 1 / Double(max(tw, 1)), 0), 1 - 2 / Double(max(tw, 1)))
                let v = min(max((cy - dst.y) / dst.height - 1 / Double(max(th, 1)), 0), 1 - 2 / Double(max(th, 1)))
                return (ScreenRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0),
                        UnitRect(x: u, y: v, width: 2 / Double(max(tw, 1)), height: 2 / Double(max(th, 1))))
            }
            if x1 - x0 < minW { let c = min(max((x0 + x1) / 2, dst.x + minW / 2), dst.maxX - minW / 2); x0 = c - minW / 2; x1 = c + minW / 2 }
            if y1 - y0 < minH { let c = min(max((y0 + y1) / 2, dst.y + minH / 2), dst.maxY - minH / 2); y0 = c - minH / 2; y1 = c + minH / 2 }
        }
        if x0 == dst.x, y0 == dst.y, x1 == dst.maxX, y1 == dst.maxY { return (dst, .full) }
        let part = UnitRect(x: (x0 - dst.x) / dst.width, y: (y0 - dst.y) / dst.height,
                            width: (x1 - x0) / dst.width, height: (y1 - y0) / dst.height)
        return (ScreenRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), part)
    }

    /// The base layer rendered once, reused while only overlays animate above it.
    private var cache: DeviceTexture?
    private var cachedBase: BaseFrame?
    private var previousBase: BaseFrame?
    /// Counts for tests and the bench: frames drawn from the cache, and cache refills.
    public private(set) var cacheHits = 0
    public private(set) var cacheFills = 0

    /// Executes `list`. When its base layer is the same as in the last frame, the base is
    /// rendered into a texture once and then copied, so a pulse over a still map costs one
    /// blit plus a few sprites instead of every tile and label again. While the map moves the
    /// base is drawn directly (a cache would be stale every frame).
    public func execute(_ list: DrawList, pixelRatio k: Double, outputSize: (width: Int, height: Int)) {
        let covered = list.tilesCoverView
        let base = BaseFrame(list, tiles: tiles, sprites: sprites)
        defer { previousBase = base }
        // Only a pulse over a still map repeats the base frame after frame; a one-off frame
        // would pay for the fill (a synchronous render-target pass) for nothing.
        guard list.animating, list.baseCount > 0, list.baseCount < list.commands.count else {
            cachedBase = nil
            run(list.commands[...], k, covered: covered)
            return
        }
        if let cache, cachedBase == base, cache.width == outputSize.width, cache.height == outputSize.height {
            cacheHits += 1
        } else if previousBase == base, fillCache(base, k, outputSize, covered: covered) {
            cacheFills += 1
        } else {
            cachedBase = nil
            run(list.commands[...], k, covered: covered)
            return
        }
        SDL_RenderCopy(renderer.raw, cache!.handle, nil, nil)
        run(list.commands[list.baseCount...], k, covered: covered)
    }

    private func fillCache(_ base: BaseFrame, _ k: Double, _ size: (width: Int, height: Int), covered: Bool) -> Bool {
        if cache == nil || cache!.width != size.width || cache!.height != size.height {
            cache = nil
            guard let t = SDL_CreateTexture(renderer.raw, renderer.textureFormat,
                                            Int32(SDL_TEXTUREACCESS_TARGET.rawValue), Int32(size.width), Int32(size.height)) else { return false }
            // An opaque 1:1 copy: no blending, no filtering — llvmpipe's cheapest path.
            SDL_SetTextureBlendMode(t, SDL_BLENDMODE_NONE)
            SDL_SetTextureScaleMode(t, SDL_ScaleModeNearest)
            cache = DeviceTexture(handle: t, width: size.width, height: size.height, device: renderer)
        }
        guard SDL_SetRenderTarget(renderer.raw, cache!.handle) == 0 else { cache = nil; return false }
        run(base.commands, k, covered: covered)
        SDL_SetRenderTarget(renderer.raw, nil)
        cachedBase = base
        return true
    }

    private var batch = SpriteBatch()

    /// Draws the `src` part of a tile's `region` of `tex` into `dst` (points).
    private func copyTile(_ tex: DeviceTexture, _ region: TextureRect, _ src: UnitRect, _ dst: ScreenRect, _ opacity: Double, _ k: Double) {
        let w = Double(region.w), h = Double(region.h)
        var s = SDL_Rect(x: region.x + Int32(saturating: (src.x * w).rounded()), y: region.y + Int32(saturating: (src.y * h).rounded()),
                         w: Int32(saturating: max(1, (src.width * w).rounded())), h: Int32(saturating: max(1, (src.height * h).rounded())))
        var d = pixelRect(dst, k)
        SDL_SetTextureAlphaMod(tex.handle, Color.byte(opacity))
        SDL_RenderCopy(renderer.raw, tex.handle, &s, &d)
    }

    /// The same, turned clockwise by `degrees` about the rectangle's centre; with `overlap`
    /// (an opaque picture), a quarter pixel larger each way, so that the turned neighbours'
    /// edges overlap rather than crack (a translucent one would show the overlap darker).
    private func turnTile(_ tex: DeviceTexture, _ region: TextureRect, _ src: UnitRect, _ dst: ScreenRect, _ opacity: Double,
                          _ degrees: Double, _ k: Double, overlap: Bool) {
        let w = Double(region.w), h = Double(region.h)
        var s = SDL_Rect(x: region.x + Int32(saturating: (src.x * w).rounded()), y: region.y + Int32(saturating: (src.y * h).rounded()),
                         w: Int32(saturating: max(1, (src.width * w).rounded())), h: Int32(saturating: max(1, (src.height * h).rounded())))
        let grow = overlap ? 0.25 : 0
        var d = SDL_FRect(x: Float(dst.x * k - grow), y: Float(dst.y * k - grow), w: Float(dst.width * k + 2 * grow), h: Float(dst.height * k + 2 * grow))
        SDL_SetTextureAlphaMod(tex.handle, Color.byte(opacity))
        SDL_RenderCopyExF(renderer.raw, tex.handle, &s, &d, degrees, nil, SDL_FLIP_NONE)
    }

    /// `covered`: the tiles cover the view (no clear needed under them).
    private func run(_ commands: ArraySlice<DrawCommand>, _ k: Double, covered: Bool) {
        let r = renderer.raw
        defer { batch.flush(r) }
        let out = renderer.outputSize
        // The screen in points, one point of margin so edge pixels still get their rounding.
        let view = ScreenRect(x: -1, y: -1, width: Double(out.width) / k + 2, height: Double(out.height) / k + 2)
        for command in commands {
            // Consecutive sprites from one texture go out together; anything else goes after them.
            if case .sprite = command {} else { batch.flush(r) }
            switch command {
            case let .clear(c):
                // Filling what opaque tiles overwrite is wasted.
                if covered { continue }
                SDL_SetRenderDrawColor(r, Color.byte(c.r), Color.byte(c.g), Color.byte(c.b), Color.byte(c.a))
                SDL_RenderClear(r)
            case let .fillRect(full, c):
                guard let (rect, _) = visiblePart(of: full, in: view) else { continue }
                SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND)
                SDL_SetRenderDrawColor(r, Color.byte(c.r), Color.byte(c.g), Color.byte(c.b), Color.byte(c.a))
                var pr = pixelRect(rect, k)
                SDL_RenderFillRect(r, &pr)
            case let .tile(id, layer, src, dst, opacity, 0):
                guard dst.intersects(view), let (tex, region) = tiles[layer]?.texture(for: id) else { continue }
                copyTile(tex, region, src, dst, opacity, k)
            case let .tile(id, layer, src, dst, opacity, degrees):
                guard dst.turnedBounds(degrees).intersects(view), let (tex, region) = tiles[layer]?.texture(for: id) else { continue }
                turnTile(tex, region, src, dst, opacity, degrees, k, overlap: tiles[layer]?.isOpaque == true && opacity >= 1)
            case let .rotatedSprite(key, dst, opacity, degrees):
                // Turned sprites are small (a heading cone): culled, never clipped.
                guard dst.width < 4 * view.width, dst.height < 4 * view.height, visiblePart(of: dst, in: view) != nil,
                      let (tex, region) = sprites.texture(for: key) else { continue }
                var s = region.sdl
                var d = SDL_FRect(x: Float(dst.x * k), y: Float(dst.y * k), w: Float(dst.width * k), h: Float(dst.height * k))
                SDL_SetTextureAlphaMod(tex.handle, Color.byte(opacity))
                SDL_RenderCopyExF(r, tex.handle, &s, &d, degrees, nil, SDL_FLIP_NONE)
            case let .sprite(key, dst, opacity):
                guard dst.intersects(view), let (tex, region) = sprites.texture(for: key),
                      let (shown, part) = visiblePart(of: dst, in: view, texels: (region.w, region.h)) else { continue }
                // Drawn at their own pixel size, sprites snap their origin to a pixel and keep
                // their size, so text is never resampled; only scaled sprites are stretched.
                if part == .full, abs(dst.width * k - Double(region.w)) <= 0.5, abs(dst.height * k - Double(region.h)) <= 0.5 {
                    let d = SDL_Rect(x: Int32(saturating: (dst.x * k).rounded()), y: Int32(saturating: (dst.y * k).rounded()), w: region.w, h: region.h)
                    batch.add(tex, source: region, part: .full, dest: d, opacity: Color.byte(opacity), renderer: r)
                } else {
                    batch.add(tex, source: region, part: part, dest: pixelRect(shown, k), opacity: Color.byte(opacity), renderer: r)
                }
            }
        }
    }
}
