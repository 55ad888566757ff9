import FoundationEssentials
import Glibc
import MapCore
import MapGraphics
import MapTiles

/// Everything that turns a tile source into pictures at one pixel density: the loader and its
/// rasterizer, the tile and sprite textures, and the compositor drawing with them. A new
/// density (the window moved to a HiDPI screen) gets a new pipeline.
struct RenderPipeline {
    let store: TextureStore
    let sprites: SpriteStore
    let compositor: Compositor
    let loader: TileLoader
    /// Draws the window's sprites off the frame thread (started on first use).
    let rasterizer: SpriteRasterizer

    /// `viewport` (device pixels) sizes the tile atlas; `wake` is called when tiles or sprites arrive.
    /// Tiles are laid over `background` (the map's colour under them).
    init(renderer: SDLRenderer, viewport: (width: Int, height: Int), source: TileSource, painter: VectorTilePainter,
         pixelRatio: Double, background: Color, wake: @escaping @Sendable () -> Void = {}) {
        store = TextureStore(renderer: renderer, tilePixels: TileRasterizer.tilePixels(pixelRatio: pixelRatio), viewport: viewport)
        sprites = SpriteStore(renderer: renderer, pixelRatio: pixelRatio)
        compositor = Compositor(renderer: renderer, textures: store, sprites: sprites)
        loader = TileLoader(source: source, decode: TileRasterizer.decoder(pixelRatio: pixelRatio, painter: painter, order: renderer.textureOrder,
                                                                            background: background), wake: wake)
        rasterizer = SpriteRasterizer(pixelRatio: pixelRatio, order: renderer.textureOrder, wake: wake)
    }

    func stop() {
        loader.stop()
        rasterizer.stop()
    }
}
