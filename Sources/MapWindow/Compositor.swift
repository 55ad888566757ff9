import CSDL2
import Foundation
import MapCore

/// Executes a draw list on an SDL renderer: clears, places and fades textures. No Cairo here:
/// everything it draws was rasterized before.
public final class Compositor {
    let renderer: SDLRenderer
    let textures: TextureStore
    let sprites: SpriteStore

    public init(renderer: SDLRenderer, textures: TextureStore, sprites: SpriteStore) {
        self.renderer = renderer
        self.textures = textures
        self.sprites = sprites
    }

    /// Logical points → device pixels. Edges are rounded one by one, so neighbours that share
    /// an edge in points share it in pixels: no seams, no overlaps.
    private func pixelRect(_ r: ScreenRect, _ k: Double) -> SDL_Rect {
        let x0 = (r.x * k).rounded(), y0 = (r.y * k).rounded()
        let x1 = (r.maxX * k).rounded(), y1 = (r.maxY * k).rounded()
        return SDL_Rect(x: Int32(clamping: Int(x0)), y: Int32(clamping: Int(y0)),
                        w: Int32(clamping: Int(x1 - x0)), h: Int32(clamping: Int(y1 - y0)))
    }

    /// The base layer rendered once, reused while only overlays animate above it.
    private var cache: SDLTexture?
    private var cachedBase: ArraySlice<DrawCommand>?
    private var previousBase: ArraySlice<DrawCommand>?
    /// Counts for tests and the bench: frames drawn from the cache, and cache refills.
    public private(set) var cacheHits = 0
    public private(set) var cacheFills = 0

    /// Executes `list`. When its base layer is the same as in the last frame, the base is
    /// rendered into a texture once and then copied, so a pulse over a still map costs one
    /// blit plus a few sprites instead of every tile and label again. While the map moves the
    /// base is drawn directly (a cache would be stale every frame).
    public func execute(_ list: DrawList, pixelRatio k: Double, outputSize: (width: Int, height: Int)) {
        let base = list.commands[..<min(list.baseCount, list.commands.count)]
        defer { previousBase = base }
        // Only a pulse over a still map repeats the base frame after frame; a one-off frame
        // would pay for the fill (a synchronous render-target pass) for nothing.
        guard list.animating, list.baseCount > 0, list.baseCount < list.commands.count else {
            cachedBase = nil
            run(list.commands[...], k)
            return
        }
        if let cache, cachedBase == base, cache.width == outputSize.width, cache.height == outputSize.height {
            cacheHits += 1
        } else if previousBase == base, fillCache(base, k, outputSize) {
            cacheFills += 1
        } else {
            cachedBase = nil
            run(list.commands[...], k)
            return
        }
        SDL_RenderCopy(renderer.raw, cache!.raw, nil, nil)
        run(list.commands[list.baseCount...], k)
    }

    private func fillCache(_ base: ArraySlice<DrawCommand>, _ k: Double, _ size: (width: Int, height: Int)) -> Bool {
        if cache == nil || cache!.width != size.width || cache!.height != size.height {
            cache = nil
            guard let t = SDL_CreateTexture(renderer.raw, SDL_PIXELFORMAT_ARGB8888.rawValue,
                                            Int32(SDL_TEXTUREACCESS_TARGET.rawValue), Int32(size.width), Int32(size.height)) else { return false }
            // An opaque 1:1 copy: no blending, no filtering — llvmpipe's cheapest path.
            SDL_SetTextureBlendMode(t, SDL_BLENDMODE_NONE)
            SDL_SetTextureScaleMode(t, SDL_ScaleModeNearest)
            cache = SDLTexture(raw: t, width: size.width, height: size.height, renderer: renderer)
        }
        guard SDL_SetRenderTarget(renderer.raw, cache!.raw) == 0 else { cache = nil; return false }
        run(base, k)
        SDL_SetRenderTarget(renderer.raw, nil)
        cachedBase = base
        return true
    }

    private var batch = SpriteBatch()

    private func run(_ commands: ArraySlice<DrawCommand>, _ k: Double) {
        let r = renderer.raw
        defer { batch.flush(r) }
        for command in commands {
            // Consecutive sprites from one texture go out together; anything else goes after them.
            if case .sprite = command {} else { batch.flush(r) }
            switch command {
            case let .clear(c):
                SDL_SetRenderDrawColor(r, Color.byte(c.r), Color.byte(c.g), Color.byte(c.b), Color.byte(c.a))
                SDL_RenderClear(r)
            case let .fillRect(rect, c):
                SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND)
                SDL_SetRenderDrawColor(r, Color.byte(c.r), Color.byte(c.g), Color.byte(c.b), Color.byte(c.a))
                var pr = pixelRect(rect, k)
                SDL_RenderFillRect(r, &pr)
            case let .tile(id, src, dst, opacity):
                guard let (tex, region) = textures.texture(for: id) else { continue }
                let w = Double(region.w), h = Double(region.h)
                var s = SDL_Rect(x: region.x + Int32((src.x * w).rounded()), y: region.y + Int32((src.y * h).rounded()),
                                 w: Int32(max(1, (src.width * w).rounded())), h: Int32(max(1, (src.height * h).rounded())))
                var d = pixelRect(dst, k)
                SDL_SetTextureAlphaMod(tex.raw, Color.byte(opacity))
                SDL_RenderCopy(r, tex.raw, &s, &d)
            case let .rotatedSprite(key, dst, opacity, degrees):
                guard let (tex, region) = sprites.texture(for: key) else { continue }
                var s = region
                var d = SDL_FRect(x: Float(dst.x * k), y: Float(dst.y * k), w: Float(dst.width * k), h: Float(dst.height * k))
                SDL_SetTextureAlphaMod(tex.raw, Color.byte(opacity))
                SDL_RenderCopyExF(r, tex.raw, &s, &d, degrees, nil, SDL_FLIP_NONE)
            case let .sprite(key, dst, opacity):
                guard let (tex, region) = sprites.texture(for: key) else { continue }
                let s = region
                // Drawn at their own pixel size, sprites snap their origin to a pixel and keep
                // their size, so text is never resampled; only scaled sprites are stretched.
                var d = SDL_Rect(x: Int32((dst.x * k).rounded()), y: Int32((dst.y * k).rounded()), w: s.w, h: s.h)
                if abs(dst.width * k - Double(s.w)) > 0.5 || abs(dst.height * k - Double(s.h)) > 0.5 { d = pixelRect(dst, k) }
                batch.add(tex, source: s, dest: d, opacity: Color.byte(opacity), renderer: r)
            }
        }
    }
}
