import CSDL2
import MapTiles
import MapRender
import Platform

/// SDL's renderer holds the GPU's pictures for the render pipeline's stores, and draws them
/// with its `Compositor`.
extension SDLRenderer: TextureDevice {
    /// Uploads a straight-alpha bitmap as a blendable, linearly scaled texture.
    package func makeTexture(_ source: Bitmap) throws -> DeviceTexture {
        var bitmap = source
        bitmap.unpremultiply()
        bitmap.convert(to: textureOrder)
        let width = bitmap.width, height = bitmap.height
        guard let t = SDL_CreateTexture(raw, textureFormat,
                                        Int32(SDL_TEXTUREACCESS_STATIC.rawValue), Int32(width), Int32(height)) else {
            throw SDLError("SDL_CreateTexture \(width)×\(height)")
        }
        _ = bitmap.pixels.withUnsafeBytes { SDL_UpdateTexture(t, nil, $0.baseAddress, Int32(width * 4)) }
        SDL_SetTextureBlendMode(t, SDL_BLENDMODE_BLEND)
        SDL_SetTextureScaleMode(t, SDL_ScaleModeLinear)
        return DeviceTexture(handle: t, width: width, height: height, device: self)
    }

    package func makePage(width: Int, height: Int, blended: Bool) throws -> DeviceTexture {
        guard let t = SDL_CreateTexture(raw, textureFormat, Int32(SDL_TEXTUREACCESS_STATIC.rawValue),
                                        Int32(clamping: width), Int32(clamping: height)) else {
            throw SDLError("SDL_CreateTexture atlas \(width)×\(height)")
        }
        SDL_SetTextureBlendMode(t, blended ? SDL_BLENDMODE_BLEND : SDL_BLENDMODE_NONE)
        SDL_SetTextureScaleMode(t, SDL_ScaleModeLinear)
        return DeviceTexture(handle: t, width: width, height: height, device: self)
    }

    package func upload(_ pixels: UnsafeRawBufferPointer, rowBytes: Int, into texture: DeviceTexture, at rect: TextureRect) throws {
        var r = rect.sdl
        guard SDL_UpdateTexture(texture.handle, &r, pixels.baseAddress, Int32(clamping: rowBytes)) == 0 else {
            throw SDLError("SDL_UpdateTexture")
        }
    }

    package func makeCompositor(tiles: TileStores, sprites: SpriteStore) -> any DeviceCompositor {
        Compositor(renderer: self, tiles: tiles, sprites: sprites)
    }

    package func destroy(_ handle: OpaquePointer) { SDL_DestroyTexture(handle) }
}
