import CSDL2
import CImage
import FoundationEssentials
import Glibc
import Platform
import MapCore
import MapGeometry
import MapGraphics
import MapTiles

/// Owns the surface `render` draws into.
final class SurfaceHandle {
    let raw: UnsafeMutablePointer<SDL_Surface>
    init(_ raw: UnsafeMutablePointer<SDL_Surface>) { self.raw = raw }
    deinit { SDL_FreeSurface(raw) }
}

/// Renders the same draw list as the window into memory with the software compositor the
/// window uses without a GPU, which needs no display, and writes PNGs. What `meridian render`
/// and the pixel tests look at.
public final class OffscreenRenderer {
    public var surface: UnsafeMutablePointer<SDL_Surface> { owner.raw }
    private let owner: SurfaceHandle
    private let target: PixelTarget
    public let pixelRatio: Double
    /// The labels the last render placed.
    public private(set) var placedLabels: [PlacedLabel] = []
    /// What the last render drew.
    public private(set) var lastDrawList = DrawList()

    public init(pixelWidth: Int, pixelHeight: Int, pixelRatio: Double) throws {
        guard let s = SDL_CreateRGBSurfaceWithFormat(0, Int32(pixelWidth), Int32(pixelHeight), 32,
                                                     SDL_PIXELFORMAT_ARGB8888.rawValue) else {
            // TRANSLATORS: the picture's width and height in pixels.
            throw SDLError(tr("cannot allocate a %@×%@ image", pixelWidth, pixelHeight))
        }
        owner = SurfaceHandle(s)
        guard let t = PixelTarget(surface: s) else { throw SDLError(message: tr("unexpected surface format")) }
        target = t
        self.pixelRatio = pixelRatio
    }

    public struct Timeout: Error, CustomStringConvertible {
        public let missing: Int
        public let seconds: Double
        // TRANSLATORS: the seconds waited, then how many tiles had not come.
        public var description: String { tr("timed out after %@ s waiting for %@ tile(s)", seconds, missing) }
    }

    /// Loads what the view of `session` needs (waiting up to `timeout`), then has it compose
    /// at `t` and draws. `stack`: the tile layers, whose settings the session's scene has
    /// (`Scene.showTiles(from:)`). Returns messages about tiles that failed (drawn with their
    /// parents, or what is below them, instead).
    @discardableResult
    public func render(_ session: inout MapSession, stack: TileStack, at t: Double, timeout: Double = 20) throws -> [String] {
        var pipeline = RenderPipeline(renderer: nil, viewport: (target.width, target.height), stack: stack, pixelRatio: pixelRatio,
                                      overlays: session.tileOverlays)
        let sprites = pipeline.sprites
        defer { pipeline.stop() }
        // Styled tiles painted for the very zoom shown.
        pipeline.follow(settledZoom: session.camera.zoom)
        // Hillshading lit from the viewport, for the view's bearing.
        pipeline.follow(settledBearing: session.camera.bearing, exact: true)
        let deadline = MonotonicClock.now + timeout
        var messages: [String] = []
        // A still picture: its labels are drawn at once, not faded in.
        session.scene.labelFadeSeconds = 0
        func compose() -> DrawList { session.frame(at: t, layers: pipeline.availability, sprites: sprites) }
        var list = compose()
        // Tracks over the overlays when one shows, before any tile is made.
        pipeline.follow(drawingsLayer: list.drawingsLayer)
        /// Loads what `wanted` picks of layer `i` until it wants no more (or what it still
        /// wants failed), composing again after each round.
        func settle(_ i: Int, rounds: Int = .max, _ wanted: (TileWants) -> [TileID]) throws {
            var round = 0
            while round < rounds, case let w = wanted(list.wants(i)), !w.isEmpty {
                round += 1
                let (idle, count, failed) = pipeline.load(w, layer: i, until: deadline)
                messages += failed
                list = compose()
                if !idle { throw Timeout(missing: list.missingTiles, seconds: timeout) }
                if count == 0 { break } // what is still missing failed
            }
        }
        let m = stack.mapIndex
        // The map, then each overlay over it: the ring too, as the window has it once settled
        // (places in it label the edges); a tile that failed is covered by its parent, where
        // that loads.
        for i in [m] + stack.layers.indices.filter({ $0 > m }) {
            try settle(i) { $0.wanted + $0.ring }
            try settle(i, rounds: 4) { list.missingTiles > 0 ? $0.standIns : [] }
        }
        // What the map's own tiles leave bare, the fallbacks under them fill.
        for i in stride(from: m - 1, through: 0, by: -1) { try settle(i, rounds: 4) { $0.wanted } }
        // Then every sprite the picture wants; a rasterized label's true size can free or
        // take room for another, so settle in a few rounds.
        for _ in 0..<8 where sprites.prepare(list.wantedSprites) > 0 {
            list = compose()
        }
        // (A pipeline made without a renderer or an X server's frame always has one.)
        guard case let .pixels(compositor) = pipeline.drawer else {
            throw SDLError(message: tr("cannot render off screen: the pipeline has no software compositor"))
        }
        _ = compositor.execute(list, pixelRatio: pixelRatio, into: target)
        placedLabels = list.placedLabels
        lastDrawList = list
        return messages
    }

    /// The same for a map alone: `source`'s tiles drawn by `painter` over the scene's colour
    /// (the scene's tile layers become that one layer's).
    @discardableResult
    public func render(_ session: inout MapSession, source: TileSource, painter: VectorTilePainter = VectorTilePainter(),
                       at t: Double, timeout: Double = 20) throws -> [String] {
        let stack = TileStack(map: source, painter: painter, background: session.scene.background)
        let zooms = session.scene.tileZoomRange
        session.scene.tileLayers = stack.specs
        session.scene.tileZoomRange = zooms
        return try render(&session, stack: stack, at: t, timeout: timeout)
    }

    /// The pixel at (x, y) in device pixels, as 0xAARRGGBB.
    public func pixel(x: Int, y: Int) -> UInt32 {
        let pitch = Int(surface.pointee.pitch)
        return surface.pointee.pixels.load(fromByteOffset: y * pitch + x * 4, as: UInt32.self)
    }

    public func writePNG(to path: String) throws {
        var why = [CChar](repeating: 0, count: 128)
        guard let w = UInt32(exactly: surface.pointee.w), let h = UInt32(exactly: surface.pointee.h),
              mi_png_write(path, surface.pointee.pixels, w, h, surface.pointee.pitch, &why) == 0 else {
            // TRANSLATORS: the file, then why.
            throw SDLError(message: tr("cannot write %@ (%@)", path, String(cBuffer: why)))
        }
    }
}
