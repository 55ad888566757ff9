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

    public func execute(_ list: DrawList, pixelRatio k: Double) {
        let r = renderer.raw
        for command in list.commands {
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
                var s = region
                // Drawn at their own pixel size, sprites snap their origin to a pixel and keep
                // their size, so text is never resampled; only scaled sprites are stretched.
                var d = SDL_Rect(x: Int32((dst.x * k).rounded()), y: Int32((dst.y * k).rounded()), w: s.w, h: s.h)
                if abs(dst.width * k - Double(s.w)) > 0.5 || abs(dst.height * k - Double(s.h)) > 0.5 { d = pixelRect(dst, k) }
                SDL_SetTextureAlphaMod(tex.raw, Color.byte(opacity))
                SDL_RenderCopy(r, tex.raw, &s, &d)
            }
        }
    }
}
