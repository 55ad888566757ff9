import MapCore
import MapTiles
import Platform

/// What holds a window's pictures for a GPU to draw: SDL's renderer (MapWindow's
/// `SDLRenderer`). The stores upload tiles and sprites through it, one call per picture,
/// never per frame; the frames draw from the `DeviceTexture`s it made, which the device's
/// compositor reads directly. The software compositors need none: their pictures stay
/// `Bitmap`s in the stores.
package protocol TextureDevice: AnyObject {
    /// The channel order its textures keep (OpenGL's RGBA bytes would be converted pixel by
    /// pixel inside every upload of ARGB).
    var textureOrder: Bitmap.ChannelOrder { get }
    /// Uploads a straight-alpha bitmap as a blendable, linearly scaled texture of its own.
    func makeTexture(_ source: Bitmap) throws -> DeviceTexture
    /// An empty `width`×`height` texture, linearly scaled, for pictures uploaded into parts of
    /// it later (an atlas page): `blended`, or copied as opaque.
    func makePage(width: Int, height: Int, blended: Bool) throws -> DeviceTexture
    /// Copies rows of `textureOrder` pixels, `rowBytes` apart, into `rect` of `texture`.
    func upload(_ pixels: UnsafeRawBufferPointer, rowBytes: Int, into texture: DeviceTexture, at rect: TextureRect) throws
    /// The compositor that draws frames from these stores' textures.
    func makeCompositor(tiles: TileStores, sprites: SpriteStore) -> any DeviceCompositor
    /// Lets go of a texture it made (its `DeviceTexture` went).
    func destroy(_ handle: OpaquePointer)
}

/// A rectangle of a texture's pixels (laid out as SDL_Rect is, so converting costs nothing).
package struct TextureRect: Equatable {
    package var x: Int32, y: Int32, w: Int32, h: Int32

    package init(x: Int32, y: Int32, w: Int32, h: Int32) {
        self.x = x; self.y = y; self.w = w; self.h = h
    }
}

/// The compositor of a `TextureDevice`: draws a frame's list with the stores' textures.
/// Called once a frame (the loops over the list are its own).
package protocol DeviceCompositor: AnyObject {
    func execute(_ list: DrawList, pixelRatio: Double, outputSize: (width: Int, height: Int))
    /// Frames drawn from the cached base layer, and refills of that cache (bench and tests).
    var cacheHits: Int { get }
    var cacheFills: Int { get }
}
