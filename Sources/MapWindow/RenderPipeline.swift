import FoundationEssentials
import Glibc
import MapCore
import MapGraphics
import MapTiles

/// What draws the frames: SDL's GPU renderer, or the software compositor into pixels.
enum FrameDrawer {
    case gpu(Compositor)
    case pixels(PixelCompositor)

    var cacheHits: Int {
        switch self { case let .gpu(c): return c.cacheHits; case let .pixels(c): return c.cacheHits }
    }

    var cacheFills: Int {
        switch self { case let .gpu(c): return c.cacheFills; case let .pixels(c): return c.cacheFills }
    }
}

/// Everything that turns a tile source into pictures at one pixel density: the loader and its
/// rasterizer, the tile and sprite pictures, and the compositor drawing with them. A new
/// density (the window moved to a HiDPI screen) gets a new pipeline.
struct RenderPipeline {
    let store: TextureStore
    let sprites: SpriteStore
    let drawer: FrameDrawer
    private(set) var loader: TileLoader
    /// Draws the window's sprites off the frame thread (started on first use).
    let rasterizer: SpriteRasterizer
    private let source: TileSource
    private let painter: VectorTilePainter
    private let pixelRatio: Double
    private let background: Color
    private let order: Bitmap.ChannelOrder
    private let wake: @Sendable () -> Void
    /// The tracks layer's revision the tiles are drawn with.
    private(set) var overlayRevision = 0

    /// `renderer`: the GPU renderer, or nil for the software compositor. `viewport` (device
    /// pixels) sizes the tile store; `wake` is called when tiles or sprites arrive. Tiles are
    /// laid over `background` (the map's colour under them), with `overlay` on top.
    init(renderer: SDLRenderer?, viewport: (width: Int, height: Int), source: TileSource, painter: VectorTilePainter,
         pixelRatio: Double, background: Color, overlay: TracksLayer? = nil, wake: @escaping @Sendable () -> Void = {}) {
        store = TextureStore(renderer: renderer, tilePixels: TileRasterizer.tilePixels(pixelRatio: pixelRatio), viewport: viewport)
        sprites = SpriteStore(renderer: renderer, pixelRatio: pixelRatio)
        if let renderer {
            drawer = .gpu(Compositor(renderer: renderer, textures: store, sprites: sprites))
        } else {
            drawer = .pixels(PixelCompositor(textures: store, sprites: sprites))
        }
        self.source = source
        self.painter = painter
        self.pixelRatio = pixelRatio
        self.background = background
        order = renderer?.textureOrder ?? .argb
        self.wake = wake
        overlayRevision = overlay?.revision ?? 0
        loader = Self.makeLoader(source, painter, pixelRatio, order, background, overlay.flatMap(TrackOverlay.init(layer:)), wake)
        rasterizer = SpriteRasterizer(pixelRatio: pixelRatio, order: order, straightAlpha: renderer != nil, wake: wake)
    }

    private static func makeLoader(_ source: TileSource, _ painter: VectorTilePainter, _ pixelRatio: Double, _ order: Bitmap.ChannelOrder,
                                   _ background: Color, _ overlay: TrackOverlay?, _ wake: @escaping @Sendable () -> Void) -> TileLoader {
        TileLoader(source: source, decode: TileRasterizer.decoder(pixelRatio: pixelRatio, painter: painter, order: order,
                                                                   background: background, overlay: overlay), wake: wake)
    }

    /// Follows the tracks layer: when what it draws into tiles changed, a new loader draws
    /// every tile anew, and the pictures held stay on screen until each is replaced.
    mutating func follow(_ tracks: TracksLayer?) {
        let revision = tracks?.revision ?? 0
        guard revision != overlayRevision else { return }
        overlayRevision = revision
        loader.stop()
        loader = Self.makeLoader(source, painter, pixelRatio, order, background, tracks.flatMap(TrackOverlay.init(layer:)), wake)
        store.invalidate()
    }

    func stop() {
        loader.stop()
        rasterizer.stop()
    }
}
