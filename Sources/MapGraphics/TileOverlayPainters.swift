import CCairo
import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapTiles
import Platform

/// Paints what layers put into the map's tiles (`TileOverlay`), on the tile workers: one
/// painter per kind of overlay, registered here, the one place a new kind (polygons from a
/// file, say) adds its painter.
public enum TileOverlayPainters {
    /// Paints one kind of overlay onto a tile's canvas; `pointScale`: device pixels per point.
    public typealias Painter = @Sendable (_ overlay: any TileOverlay, _ tile: TileID, _ pointScale: Double, _ canvas: CairoCanvas) -> Void

    /// The painters, by the overlay's type.
    nonisolated(unsafe) private static var painters: [ObjectIdentifier: Painter] = [ // under `lock`
        ObjectIdentifier(LineOverlay.self): { overlay, tile, scale, canvas in
            guard let o = overlay as? LineOverlay else { return }
            TrackPainter.paint(o.painted, areas: o.areas, ramp: o.ramp, tile: tile, pointScale: scale, into: canvas)
        },
    ]
    private static let lock = Lock()

    /// Adds the painter of overlays of type `T` (an embedder's own kind of content).
    public static func register<T: TileOverlay>(_ type: T.Type, _ painter: @escaping Painter) {
        lock.lock(); defer { lock.unlock() }
        painters[ObjectIdentifier(type)] = painter
    }

    private static func painter(for overlay: any TileOverlay) -> Painter? {
        lock.lock(); defer { lock.unlock() }
        return painters[ObjectIdentifier(type(of: overlay))]
    }

    /// Paints `overlays` (bottom first) over `bitmap`, an opaque picture of `tile` in ARGB
    /// order: those that `touch` the tile; others would leave it as it is at a cost.
    public static func paint(_ overlays: [any TileOverlay], onto bitmap: inout Bitmap, tile: TileID) {
        let touching = overlays.filter { $0.touches(tile) }
        guard !touching.isEmpty, bitmap.width > 0, bitmap.height > 0 else { return }
        let (w, h) = (bitmap.width, bitmap.height)
        bitmap.pixels.withUnsafeMutableBytes { raw in
            guard let canvas = CairoCanvas(wrapping: raw.baseAddress!, width: w, height: h) else { return }
            paint(touching, onto: canvas, tile: tile, pointScale: Double(w) / 256)
            cairo_surface_flush(canvas.surface)
        }
    }

    /// Paints `overlays` that touch `tile` onto `canvas`, a picture of the tile `pointScale`
    /// device units per point across (a page's recording, or a tile's pixels).
    public static func paint(_ overlays: [any TileOverlay], onto canvas: CairoCanvas, tile: TileID, pointScale: Double) {
        for overlay in overlays where overlay.touches(tile) { painter(for: overlay)?(overlay, tile, pointScale, canvas) }
    }
}
