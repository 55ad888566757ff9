import CImage
import FoundationEssentials
import Glibc
import Platform
import MapCore
import MapGeometry
import MapGraphics
import MapTiles

/// Owns the pixels `render` draws into: 0xAARRGGBB words, rows one after another, all
/// transparent black to begin with.
final class PixelMemory {
    let pixels: UnsafeMutablePointer<UInt32>
    init?(count: Int) {
        guard let p = calloc(count, 4) else { return nil }
        pixels = p.assumingMemoryBound(to: UInt32.self)
    }
    deinit { free(pixels) }
}

/// Renders the same draw list as the window into memory with the software compositor the
/// window uses without a GPU, which needs no display, and writes PNGs. What `meridian render`
/// and the pixel tests look at.
public final class OffscreenRenderer {
    private let memory: PixelMemory
    private let target: PixelTarget
    public let pixelRatio: Double
    /// The labels the last render placed.
    public private(set) var placedLabels: [PlacedLabel] = []
    /// What the last render drew.
    public private(set) var lastDrawList = DrawList()

    public init(pixelWidth: Int, pixelHeight: Int, pixelRatio: Double) throws {
        // Rows and their bytes fit in 32 bits, as the compositor's C loops and the PNG
        // writer take them.
        let (count, over) = pixelWidth.multipliedReportingOverflow(by: pixelHeight)
        guard pixelWidth >= 0, pixelHeight >= 0, !over, count <= Int(Int32.max) / 4,
              let memory = PixelMemory(count: max(count, 1)) else {
            // TRANSLATORS: the picture's width and height in pixels.
            throw RenderError(tr("cannot allocate a %@×%@ image", pixelWidth, pixelHeight))
        }
        // A picture of no pixels has nothing to draw into.
        guard count > 0 else { throw RenderError(tr("unexpected surface format")) }
        self.memory = memory
        target = PixelTarget(pixels: memory.pixels, width: pixelWidth, height: pixelHeight, stride: pixelWidth)
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
        var pipeline = RenderPipeline(device: nil, viewport: (target.width, target.height), stack: stack, pixelRatio: pixelRatio,
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
            throw RenderError(tr("cannot render off screen: the pipeline has no software compositor"))
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
        target.pixels[y * target.stride + x]
    }

    public func writePNG(to path: String) throws {
        var why = [CChar](repeating: 0, count: 128)
        guard let w = UInt32(exactly: target.width), let h = UInt32(exactly: target.height),
              let pitch = Int32(exactly: target.stride * 4),
              mi_png_write(path, target.pixels, w, h, pitch, &why) == 0 else {
            // TRANSLATORS: the file, then why.
            throw RenderError(tr("cannot write %@ (%@)", path, String(cBuffer: why)))
        }
    }
}
