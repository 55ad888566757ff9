import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapGraphics
import MapTiles

/// What draws the frames: SDL's GPU renderer, or the software compositor into pixels.
enum FrameDrawer {
    case gpu(Compositor)
    case pixels(PixelCompositor)
    /// The X server draws; the app's own compositor takes over in windows too large for it
    /// (`SDLWindow.serverDraws`).
    case server(XRenderCompositor, large: PixelCompositor)

    var cacheHits: Int {
        switch self {
        case let .gpu(c): return c.cacheHits
        case let .pixels(c): return c.cacheHits
        case let .server(c, large): return c.partialFrames + large.cacheHits
        }
    }

    var cacheFills: Int {
        switch self { case let .gpu(c): return c.cacheFills; case let .pixels(c): return c.cacheFills; case let .server(_, large): return large.cacheFills }
    }

    /// What the window shows is not known any more: the next frame presents all of it.
    func invalidate() {
        switch self {
        case .gpu: break
        case let .pixels(c): c.invalidate()
        case let .server(c, large): c.invalidate(); large.invalidate()
        }
    }
}

/// A source of tiles laid under the map's own (the embedded basemap under online tiles), with
/// the colour its tiles are laid over.
public struct UnderPlane {
    public let source: TileSource
    public let background: Color
    /// Draws its vector tiles (the embedded basemap's look by default).
    public let painter: VectorTilePainter
    public init(source: TileSource, background: Color, painter: VectorTilePainter = VectorTilePainter()) {
        self.source = source; self.background = background; self.painter = painter
    }
}

/// Everything that turns a tile source into pictures at one pixel density: the loader and its
/// rasterizer, the tile and sprite pictures, and the compositor drawing with them; the same
/// for the plane under the map's tiles, when there is one. A new density (the window moved
/// to a HiDPI screen) or a new source gets a new pipeline.
struct RenderPipeline {
    let store: TextureStore
    let sprites: SpriteStore
    let drawer: FrameDrawer
    private(set) var loader: TileLoader
    /// The plane under the map's tiles: its pictures and its loader.
    let underStore: TextureStore?
    private(set) var underLoader: TileLoader?
    private let under: UnderPlane?
    /// Draws the window's sprites off the frame thread (started on first use).
    let rasterizer: SpriteRasterizer
    private let source: TileSource
    private let painter: VectorTilePainter
    private let pixelRatio: Double
    private let background: Color
    private let order: Bitmap.ChannelOrder
    private let wake: @Sendable () -> Void
    /// The layers' tile-content revisions the tiles are drawn with.
    private(set) var overlayRevisions: [Int] = []

    /// `renderer`: the GPU renderer, or nil for the software compositor. `viewport` (device
    /// pixels) sizes the tile store; `wake` is called when tiles or sprites arrive. Tiles are
    /// laid over `background` (the map's colour under them), with what layers paint into tiles on top.
    init(renderer: SDLRenderer?, serverFrame: XRenderFrame? = nil, viewport: (width: Int, height: Int), source: TileSource, painter: VectorTilePainter,
         pixelRatio: Double, background: Color, under: UnderPlane? = nil, overlays: TileOverlays = TileOverlays(),
         wake: @escaping @Sendable () -> Void = {}) {
        let tilePixels = TileRasterizer.tilePixels(pixelRatio: pixelRatio)
        store = TextureStore(renderer: renderer, tilePixels: tilePixels, viewport: viewport)
        underStore = under.map { _ in TextureStore(renderer: renderer, tilePixels: tilePixels, viewport: viewport, ring: false) }
        self.under = under
        sprites = SpriteStore(renderer: renderer, pixelRatio: pixelRatio)
        let planes = TilePlanes(main: store, under: underStore)
        if let renderer {
            drawer = .gpu(Compositor(renderer: renderer, tiles: planes, sprites: sprites))
        } else if let serverFrame {
            drawer = .server(XRenderCompositor(frame: serverFrame, tiles: planes, sprites: sprites),
                             large: PixelCompositor(tiles: planes, sprites: sprites))
        } else {
            drawer = .pixels(PixelCompositor(tiles: planes, sprites: sprites))
        }
        self.source = source
        self.painter = painter
        self.pixelRatio = pixelRatio
        self.background = background
        order = renderer?.textureOrder ?? .argb
        self.wake = wake
        overlayRevisions = overlays.revisions
        let painted = overlays.make()
        loader = Self.makeLoader(source, painter, pixelRatio, order, background, painted, wake)
        let order = order
        underLoader = under.map { Self.makeLoader($0.source, $0.painter, pixelRatio, order, $0.background, painted, wake) }
        rasterizer = SpriteRasterizer(pixelRatio: pixelRatio, order: order, straightAlpha: renderer != nil, wake: wake)
    }

    private static func makeLoader(_ source: TileSource, _ painter: VectorTilePainter, _ pixelRatio: Double, _ order: Bitmap.ChannelOrder,
                                   _ background: Color, _ overlays: [any TileOverlay], _ wake: @escaping @Sendable () -> Void) -> TileLoader {
        TileLoader(source: source, decode: TileRasterizer.decoder(pixelRatio: pixelRatio, painter: painter, order: order,
                                                                   background: background, overlays: overlays), wake: wake)
    }

    /// Follows what the layers paint into tiles: when it changed, a new loader draws every
    /// tile anew (only those near the change when it was confined to a region, as when the
    /// trail grows), and the pictures held stay on screen until each is replaced.
    mutating func follow(_ overlays: TileOverlays) {
        let revisions = overlays.revisions
        guard revisions != overlayRevisions else { return }
        let partial = overlays.change(since: overlayRevisions)
        overlayRevisions = revisions
        loader.stop()
        underLoader?.stop()
        let painted = overlays.make()
        loader = Self.makeLoader(source, painter, pixelRatio, order, background, painted, wake)
        underLoader = under.map { Self.makeLoader($0.source, $0.painter, pixelRatio, order, $0.background, painted, wake) }
        if let partial {
            store.invalidate(where: partial.touches)
            underStore?.invalidate(where: partial.touches)
        } else {
            store.invalidate()
            underStore?.invalidate()
        }
    }

    /// Takes up to one finished tile of either plane (the map's own first); nil when none
    /// waits. Returns the message of a tile that failed.
    func acceptTile() -> (accepted: Bool, message: String?) {
        if let r = loader.drain(max: 1).first { return (true, store.accept(r)) }
        if let underLoader, let underStore, let r = underLoader.drain(max: 1).first { return (true, underStore.accept(r)) }
        return (false, nil)
    }

    /// The map's own tiles cover the view: the plane under them is out of sight, and its
    /// pictures and decoded tiles go (made again if a view ever needs them). Whether there
    /// were any.
    @discardableResult
    func releaseUnderPlane() -> Bool {
        guard let underStore, !underStore.isEmpty else { return false }
        underStore.removeAll()
        under?.painter.forgetDecoded()
        return true
    }

    /// Lets go of what the view no longer uses: tile pictures but those of `tiles` and
    /// `underTiles`, software sprites but `sprites`, and at rest decoded vector tiles past a
    /// few MiB. The bytes freed.
    func keepOnly(tiles: Set<TileID>, underTiles: Set<TileID>, sprites keep: Set<SpriteKey>, resting: Bool) -> Int {
        if resting {
            painter.trimDecoded(to: Self.decodedAtRest)
            under?.painter.trimDecoded(to: Self.decodedAtRest)
        }
        // The server's copies go with the app's: what the view no longer uses.
        if case let .server(c, _) = drawer { c.keepOnly(tiles: tiles, underTiles: underTiles, sprites: keep) }
        return store.keepOnly(tiles) + (underStore?.keepOnly(underTiles) ?? 0) + sprites.keepOnly(keep)
    }

    static let decodedAtRest = 4 << 20

    /// Tiles are being loaded or made for either plane.
    var isLoading: Bool { loader.isLoading || (underLoader?.isLoading ?? false) }
    var hasTileResults: Bool { loader.hasResults || (underLoader?.hasResults ?? false) }

    func stop() {
        loader.stop()
        underLoader?.stop()
        rasterizer.stop()
    }
}
