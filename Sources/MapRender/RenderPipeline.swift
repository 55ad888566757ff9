import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapGraphics
import MapStyle
import MapTiles
import Platform

/// What draws the frames: a GPU's (SDL's renderer), or the software compositor into pixels.
package enum FrameDrawer {
    case gpu(any DeviceCompositor)
    case pixels(PixelCompositor)
    /// The X server draws; the app's own compositor takes over in windows too large for it
    /// (`SDLWindow.serverDraws`).
    case server(XRenderCompositor, large: PixelCompositor)

    package var cacheHits: Int {
        switch self {
        case let .gpu(c): return c.cacheHits
        case let .pixels(c): return c.cacheHits
        case let .server(c, large): return c.partialFrames + large.cacheHits
        }
    }

    /// Frames the X server scrolled (a sliding map: only the edges and the chrome drawn).
    package var scrolledFrames: Int {
        if case let .server(c, _) = self { return c.scrolledFrames }
        return 0
    }

    /// Frames in motion the X server drew on the window itself (not copied from its frame).
    package var framesOnWindow: Int {
        if case let .server(c, _) = self { return c.framesOnWindow }
        return 0
    }

    package var cacheFills: Int {
        switch self { case let .gpu(c): return c.cacheFills; case let .pixels(c): return c.cacheFills; case let .server(_, large): return large.cacheFills }
    }

    /// What the window shows is not known any more: the next frame presents all of it.
    package func invalidate() {
        switch self {
        case .gpu: break
        case let .pixels(c): c.invalidate()
        case let .server(c, large): c.invalidate(); large.invalidate()
        }
    }
}

/// One tile layer's loading and pictures in a pipeline, made when its tiles are first wanted
/// (an overlay switched off costs nothing).
final class TileLayerLane {
    let layer: TileLayerSource
    let store: TextureStore
    var loader: TileLoader
    /// Holds back its stand-ins (a missing tile's parent; a fallback's tiles) while what they
    /// stand in for is on its way.
    var gate = StandInGate()
    /// Tiles drawn, wanted or in the ring since the store last let go of the rest.
    var inUse = Set<TileID>()

    init(layer: TileLayerSource, store: TextureStore, loader: TileLoader) {
        self.layer = layer; self.store = store; self.loader = loader
    }
}

/// Everything that turns a stack of tile layers into pictures at one pixel density: each
/// layer's loader and rasterizer and pictures, the sprite pictures, and the compositor
/// drawing with them. A new density (the window moved to a HiDPI screen) or a new stack gets
/// a new pipeline.
package struct RenderPipeline {
    let tiles: TileStores
    package let sprites: SpriteStore
    package let drawer: FrameDrawer
    /// Draws the window's sprites off the frame thread (started on first use).
    package let rasterizer: SpriteRasterizer
    /// Where each layer's tiles come from and how they are painted. Whether a layer shows,
    /// and how opaque, is the session's: a lane is made for what its frames lay out
    /// (`want`) and let go when they hide it (`dropHidden`).
    let stack: TileStack
    private var lanes: [TileLayerLane?]
    private let device: (any TextureDevice)?
    private let viewport: (width: Int, height: Int)
    private let pixelRatio: Double
    private let order: Bitmap.ChannelOrder
    private let wake: @Sendable () -> Void
    /// The layers' tile-content revisions the tiles are drawn with, and what they paint.
    private(set) var overlayRevisions: [Int] = []
    private var painted: [any TileOverlay]
    /// Whether what layers paint into tiles goes into the drawings layer (an overlay shows)
    /// rather than the map's own tiles.
    private var drawingsOnTop = false
    /// The zoom between whole zooms the view has settled at, which styled vector tiles are
    /// painted for (nil: each at its own zoom, as while the zoom changes).
    private(set) var viewZoom: Double?
    /// Per layer, the tiles held that were painted for such a zoom (painted anew when the view
    /// settles at a whole zoom; those painted for their own zoom meanwhile are right as they are).
    private var paintedFractional: [Set<TileID>]
    /// The bearing hillshading lit from the viewport is painted for: the view's, in steps of
    /// `lightStep` degrees, taken once a turn is over (not repainted every frame of one).
    private(set) var lightBearing = 0.0
    static let lightStep = 15.0

    /// `device`: the GPU's textures (SDL's renderer), or nil for a software compositor. `viewport` (device
    /// pixels) sizes the tile stores; `wake` is called when tiles or sprites arrive. Opaque
    /// layers' tiles are laid over their colour, with what layers paint into tiles on top.
    package init(device: (any TextureDevice)?, serverFrame: XRenderFrame? = nil, viewport: (width: Int, height: Int), stack: TileStack,
         pixelRatio: Double, overlays: TileOverlays = TileOverlays(), wake: @escaping @Sendable () -> Void = {}) {
        tiles = TileStores(count: stack.layers.count)
        sprites = SpriteStore(device: device, pixelRatio: pixelRatio)
        if let device {
            drawer = .gpu(device.makeCompositor(tiles: tiles, sprites: sprites))
        } else if let serverFrame {
            drawer = .server(XRenderCompositor(frame: serverFrame, tiles: tiles, sprites: sprites),
                             large: PixelCompositor(tiles: tiles, sprites: sprites))
        } else {
            drawer = .pixels(PixelCompositor(tiles: tiles, sprites: sprites))
        }
        self.stack = stack
        self.device = device
        self.viewport = viewport
        self.pixelRatio = pixelRatio
        order = device?.textureOrder ?? .argb
        self.wake = wake
        overlayRevisions = overlays.revisions
        painted = overlays.make()
        lanes = Array(repeating: nil, count: stack.layers.count)
        paintedFractional = Array(repeating: [], count: stack.layers.count)
        rasterizer = SpriteRasterizer(pixelRatio: pixelRatio, order: order, straightAlpha: device != nil, wake: wake)
        _ = lane(stack.mapIndex)
    }

    /// The lane of layer `i`, made on first use.
    fileprivate mutating func lane(_ i: Int) -> TileLayerLane {
        if let l = lanes[i] { return l }
        let layer = stack.layers[i]
        let store = TextureStore(device: device, tilePixels: TileRasterizer.tilePixels(pixelRatio: pixelRatio), viewport: viewport,
                                 ring: layer.spec.role != .fallback, opaque: layer.spec.isOpaque)
        let l = TileLayerLane(layer: layer, store: store, loader: makeLoader(layer))
        lanes[i] = l
        tiles.set(store, at: i)
        return l
    }

    private func makeLoader(_ layer: TileLayerSource) -> TileLoader {
        let decode = TileRasterizer.decoder(pixelRatio: pixelRatio, painter: layer.painter, order: order, background: layer.background,
                                            overlays: layer.carriesDrawings(drawingsOnTop: drawingsOnTop) ? painted : [],
                                            viewZoom: layer.painter.mapStyle != nil ? viewZoom : nil, lightBearing: lightBearing,
                                            ancestorsScaled: true)
        // The drawings layer's tiles are where what is painted now touches.
        let source = layer.payloads(painting: painted)
        return TileLoader(source: source, decode: decode, wake: wake)
    }

    /// The map layer's pictures and loader.
    package var store: TextureStore { lanes[stack.mapIndex]!.store }
    package var loader: TileLoader { lanes[stack.mapIndex]!.loader }
    private var made: [TileLayerLane] { lanes.compactMap { $0 } }

    /// What each layer has ready, by index (what the scene composes from).
    package var availability: [TileAvailability] {
        lanes.map { lane -> TileAvailability in
            if let store = lane?.store { return store }
            return NoTiles()
        }
    }

    /// Asks each layer's loader for what the frame wants, most important first; stand-ins (a
    /// missing tile's parent, a fallback's tiles) only once what they stand in for is slow to come.
    package mutating func want(_ list: DrawList, now: Double) {
        follow(drawingsLayer: list.drawingsLayer)
        /// A layer's tiles and ring, then the parents of its missing tiles once slow to
        /// come; whether its tiles are still on their way (loaded but not taken in counts).
        func wantWithParents(_ l: TileLayerLane, _ w: TileWants) -> Bool {
            l.loader.want(w.wanted, around: w.ring)
            let loading = !l.loader.isIdle
            let parents = l.gate.admit(w.standIns, loading: loading, now: now)
            if !parents.isEmpty { l.loader.want(w.wanted + parents, around: w.ring) }
            return loading
        }
        let m = stack.mapIndex
        let mapLoading = wantWithParents(lane(m), list.wants(m))
        for i in lanes.indices where i != m {
            let w = list.wants(i)
            guard !w.isEmpty || lanes[i] != nil else { continue }
            let l = lane(i)
            // A fallback's tiles stand in for the map's: held back while those are on their way.
            if l.layer.spec.role == .fallback { l.loader.want(l.gate.admit(w.wanted, loading: mapLoading, now: now)) } else { _ = wantWithParents(l, w) }
        }
    }

    /// Notes what a frame drew, wanted and kept in its ring, per layer (see `keepOnly`).
    package func use(_ list: DrawList) {
        for case let .tile(id, layer, _, _, _, _) in list.commands where lanes.indices.contains(layer) { lanes[layer]?.inUse.insert(id) }
        for (i, l) in lanes.enumerated() {
            guard let l else { continue }
            let w = list.wants(i)
            l.inUse.formUnion(w.wanted)
            l.inUse.formUnion(w.ring)
        }
    }

    /// Follows what the layers paint into tiles: when it changed, new loaders draw every
    /// opaque layer's tile anew (only those near the change when it was confined to a region,
    /// as when the trail grows), and the pictures held stay on screen until each is replaced.
    package mutating func follow(_ overlays: TileOverlays) {
        let revisions = overlays.revisions
        guard revisions != overlayRevisions else { return }
        let partial = overlays.change(since: overlayRevisions)
        overlayRevisions = revisions
        painted = overlays.make()
        for l in made where l.layer.carriesDrawings(drawingsOnTop: drawingsOnTop) {
            renew(l)
            if let partial { l.store.invalidate(where: partial.touches) } else { l.store.invalidate() }
        }
    }

    /// A new loader for `l`, drawing with what is painted now and where (the old one's work is dropped).
    private func renew(_ l: TileLayerLane) {
        l.loader.stop()
        l.loader = makeLoader(l.layer)
    }

    /// Follows the camera's zoom (`zoom`: where it has settled; nil while it changes). Settled
    /// between whole zooms, styled vector tiles are painted for that very zoom — its widths,
    /// filters and opacities exact — and those held are painted anew, shown until replaced;
    /// while it changes, new tiles are painted for their own zoom and scaled. Whether the
    /// pictures held are to be painted anew (the frame's wants are then out of date).
    @discardableResult
    package mutating func follow(settledZoom zoom: Double?) -> Bool {
        let key = TilePainting.styleZoom(forView: zoom)
        let styled = lanes.indices.filter { lanes[$0]?.layer.painter.mapStyle != nil }
        let repaint = zoom != nil && (key != nil ? key != viewZoom : styled.contains { !paintedFractional[$0].isEmpty })
        if key != viewZoom {
            viewZoom = key
            for i in styled { renew(lanes[i]!) }
        }
        guard repaint else { return false }
        for i in styled {
            // Between whole zooms every picture is for another zoom; at a whole zoom, only
            // those painted for a fraction.
            if key != nil { lanes[i]!.store.invalidate() } else { lanes[i]!.store.invalidate(where: paintedFractional[i].contains) }
            paintedFractional[i] = []
        }
        return !styled.isEmpty
    }

    /// Follows the camera's bearing (`bearing`: where a turn has come to rest; nil while one is
    /// under way): hillshading lit from the viewport — terrain, a style's hillshade layers — is
    /// lit from the same side of the screen, so on a map turned another step of `lightStep`
    /// those layers' tiles are painted anew (shown until replaced). `exact`: a still picture,
    /// lit for its very bearing (as its page is). Whether they are.
    @discardableResult
    package mutating func follow(settledBearing bearing: Double?, exact: Bool = false) -> Bool {
        guard let bearing, bearing.isFinite else { return false }
        let key = Camera.normalizedBearing(exact ? bearing : (bearing / Self.lightStep).rounded() * Self.lightStep)
        guard key != lightBearing else { return false }
        lightBearing = key
        let lit = lanes.indices.filter { lanes[$0].map { Self.isLitFromViewport($0.layer) } ?? false }
        for i in lit {
            renew(lanes[i]!)
            lanes[i]!.store.invalidate()
        }
        return !lit.isEmpty
    }

    /// A layer whose pictures carry hillshading lit from the viewport: terrain, or a style
    /// with a hillshade layer not anchored to the map (MapLibre's default is the viewport;
    /// those lit from the map come out the same on a turned map, and are not painted again).
    static func isLitFromViewport(_ layer: TileLayerSource) -> Bool {
        layer.source is TerrainSource || layer.painter.mapStyle?.layers.contains {
            $0.type == .hillshade && $0.string("hillshade-illumination-anchor", EvaluationContext(zoom: 0)) != "map"
        } == true
    }

    /// Follows where the frame wants what layers paint (`DrawList.drawingsLayer`): when an
    /// overlay came or went, it moves between the map's own tiles and the drawings layer over
    /// the overlays, and both are drawn anew (their pictures shown until then).
    mutating func follow(drawingsLayer: Int?) {
        guard (drawingsLayer != nil) != drawingsOnTop else { return }
        drawingsOnTop = drawingsLayer != nil
        guard !painted.isEmpty else { return }
        for l in made where l.layer.spec.isOpaque || l.layer.spec.role == .drawings {
            renew(l)
            if l.layer.spec.role == .drawings { l.store.removeAll() } else { l.store.invalidate(where: { t in painted.contains { $0.touches(t) } }) }
        }
    }

    /// Takes up to one finished tile of any layer (the map's first); nil when none waits.
    /// Returns the message of a tile that failed.
    package mutating func acceptTile() -> (accepted: Bool, message: String?) {
        let m = stack.mapIndex
        for i in [m] + lanes.indices.filter({ $0 != m }) {
            guard let l = lanes[i], let r = l.loader.drain(max: 1).first else { continue }
            // (The loader is renewed whenever the zoom it paints for changes: what it hands
            // over was painted for the zoom now.)
            if viewZoom != nil, l.layer.painter.mapStyle != nil { paintedFractional[i].insert(r.tile) } else { paintedFractional[i].remove(r.tile) }
            return (true, l.store.accept(r))
        }
        return (false, nil)
    }

    /// The map's own tiles cover the view: the fallback layers under them are out of sight,
    /// and their pictures and decoded tiles go (made again if a view ever needs them).
    /// Whether there were any.
    @discardableResult
    func releaseFallbacks() -> Bool {
        var released = false
        for l in made where l.layer.spec.role == .fallback && !l.store.isEmpty {
            l.store.removeAll()
            l.layer.painter.forgetDecoded()
            released = true
        }
        return released
    }

    /// Lets go of what the view no longer uses: tile pictures but those each layer's frames
    /// used since the last time (`use`), software sprites but `sprites`, and at rest decoded
    /// vector tiles past a few MiB. The bytes freed.
    func keepOnly(sprites keep: Set<SpriteKey>, resting: Bool) -> Int {
        if resting { for l in made { l.layer.painter.trimDecoded(to: Self.decodedAtRest) } }
        // The server's copies go with the app's: what the view no longer uses.
        if case let .server(c, _) = drawer { c.keepOnly(tiles: lanes.map { $0?.inUse ?? [] }, sprites: keep) }
        var freed = sprites.keepOnly(keep)
        for l in made {
            freed += l.store.keepOnly(l.inUse)
            l.inUse.removeAll(keepingCapacity: true)
        }
        return freed
    }

    static let decodedAtRest = 4 << 20

    /// Tiles are being loaded or made for any layer.
    package var isLoading: Bool { made.contains { $0.loader.isLoading } }
    /// Tiles in view (not the rings around it) are still on their way.
    package var isLoadingInView: Bool { made.contains { $0.loader.isLoadingInView } }
    package var hasTileResults: Bool { made.contains { $0.loader.hasResults } }
    /// The map's and overlays' loaders have settled (their rings are in: their places may
    /// label the edges). A fallback's tiles are stand-ins, none of what the map is to show.
    package var isIdle: Bool { made.allSatisfy { $0.layer.spec.role == .fallback || $0.loader.isIdle } }
    /// When a failed tile is asked for again, or a held-back stand-in comes due.
    package var nextWake: Double? { made.flatMap { [$0.loader.nextRetry, $0.gate.nextDue] }.compactMap { $0 }.min() }
    /// What the stores hold: the map layer's, and the others' together.
    package var held: (map: (count: Int, bytes: Int), others: (count: Int, bytes: Int)) {
        let m = stack.mapIndex
        var others = (count: 0, bytes: 0)
        for (i, l) in lanes.enumerated() where i != m { if let h = l?.store.held { others.count += h.count; others.bytes += h.bytes } }
        return (store.held, others)
    }

    /// Lets the lanes of layers not shown go, loader, pictures and all (an overlay switched
    /// off): `shown` says, by index. The map's lane stays. Whether any went.
    mutating func dropHidden(_ shown: (Int) -> Bool) -> Bool {
        var dropped = false
        for i in lanes.indices where i != stack.mapIndex && !shown(i) {
            guard let l = lanes[i] else { continue }
            l.loader.stop()
            l.store.removeAll()
            l.layer.painter.forgetDecoded()
            lanes[i] = nil
            tiles.set(nil, at: i)
            dropped = true
        }
        return dropped
    }

    /// Makes atlas pages ahead of need, in the slack after a present.
    package func prepareSlots() { for l in made { l.store.prepareSlots() } }

    package func stop() {
        for l in made { l.loader.stop() }
        rasterizer.stop()
    }
}

extension RenderPipeline {
    /// Loads `wanted` of layer `i` and takes the tiles in, waiting until `deadline` (what
    /// `render` does, where no frame loop drives the loaders): whether the loader went idle in
    /// time, how many tiles came, and the messages of those that failed.
    mutating func load(_ wanted: [TileID], layer i: Int, until deadline: Double) -> (idle: Bool, count: Int, failed: [String]) {
        let l = lane(i)
        l.loader.want(wanted)
        let idle = l.loader.waitUntilIdle(deadline: deadline)
        let results = l.loader.drain()
        return (idle, results.count, results.compactMap { l.store.accept($0) })
    }
}
