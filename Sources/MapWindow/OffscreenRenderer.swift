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
            throw SDLError("cannot allocate a \(pixelWidth)×\(pixelHeight) image")
        }
        owner = SurfaceHandle(s)
        guard let t = PixelTarget(surface: s) else { throw SDLError(message: "unexpected surface format") }
        target = t
        self.pixelRatio = pixelRatio
    }

    public struct Timeout: Error, CustomStringConvertible {
        public let missing: Int
        public let seconds: Double
        public var description: String { "timed out after \(seconds) s waiting for \(missing) tile(s)" }
    }

    /// Loads what the view of `session` needs (waiting up to `timeout`), then has it compose
    /// at `t` and draws. Returns messages about tiles that failed (drawn with their parents instead).
    @discardableResult
    public func render(_ session: inout MapSession, source: TileSource, under: UnderPlane? = nil, painter: VectorTilePainter = VectorTilePainter(),
                       at t: Double, timeout: Double = 20) throws -> [String] {
        let pipeline = RenderPipeline(renderer: nil, viewport: (target.width, target.height),
                                      source: source, painter: painter, pixelRatio: pixelRatio, background: session.scene.background,
                                      under: under, overlays: session.tileOverlays)
        let (store, sprites) = (pipeline.store, pipeline.sprites)
        defer { pipeline.stop() }
        let deadline = MonotonicClock.now + timeout
        var messages: [String] = []
        func compose() -> DrawList { session.frame(at: t, tiles: store, under: pipeline.underStore, sprites: sprites) }
        /// Loads `wanted` into `into` and composes again; whether the loader went idle in time,
        /// and how many tiles came (none: what is still missing failed).
        func load(_ wanted: [TileID], with loader: TileLoader, into store: TextureStore, list: inout DrawList) -> (idle: Bool, count: Int) {
            loader.want(wanted)
            let idle = loader.waitUntilIdle(deadline: deadline)
            let results = loader.drain()
            for r in results { if let m = store.accept(r) { messages.append(m) } }
            list = compose()
            return (idle, results.count)
        }
        var list = compose()
        // The ring too, as the window has it once settled: places in it label the edges.
        while list.missingTiles > 0 || !list.ringTiles.isEmpty {
            let (idle, count) = load(list.wantedTiles + list.ringTiles, with: pipeline.loader, into: store, list: &list)
            if !idle { throw Timeout(missing: list.missingTiles, seconds: timeout) }
            if count == 0 { break } // what is still missing failed
        }
        // A tile that failed is covered by its parent, where that loads.
        for _ in 0..<4 where list.missingTiles > 0 && !list.standInTiles.isEmpty {
            let (idle, count) = load(list.standInTiles, with: pipeline.loader, into: store, list: &list)
            if !idle { throw Timeout(missing: list.missingTiles, seconds: timeout) }
            if count == 0 { break }
        }
        // What the map's own tiles leave bare, the plane under them fills.
        if let underLoader = pipeline.underLoader, let underStore = pipeline.underStore {
            for _ in 0..<4 where !list.wantedUnderTiles.isEmpty {
                let wanted = list.wantedUnderTiles
                let (idle, count) = load(wanted, with: underLoader, into: underStore, list: &list)
                if !idle { throw Timeout(missing: wanted.count, seconds: timeout) }
                if count == 0 { break }
            }
        }
        // Then every sprite the picture wants; a rasterized label's true size can free or
        // take room for another, so settle in a few rounds.
        for _ in 0..<8 where sprites.prepare(list.wantedSprites) > 0 {
            list = compose()
        }
        guard case let .pixels(compositor) = pipeline.drawer else { preconditionFailure("render draws in software") }
        _ = compositor.execute(list, pixelRatio: pixelRatio, into: target)
        placedLabels = list.placedLabels
        lastDrawList = list
        return messages
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
            throw SDLError(message: "cannot write \(path) (\(String(cString: why)))")
        }
    }
}
