import MapCore
import MapGeometry
import MapTiles
import Platform

/// The tiles of the drawings layer (`TileLayerSpec.Role.drawings`): a transparent tile where
/// something the map's layers paint into tiles touches it (a track), none elsewhere. Its
/// pipeline tells it what is painted now (`paint`).
final class DrawingsSource: TileSource, @unchecked Sendable {
    let name = "drawings"
    let zoomRange = 0...TileID.maxZoom
    let attribution = ""
    let concurrency = 2
    private let lock = Lock()
    private var painted: [any TileOverlay] = []

    /// What is painted into tiles from now on.
    func paint(_ overlays: [any TileOverlay]) {
        lock.lock(); painted = overlays; lock.unlock()
    }

    func payload(for tile: TileID) throws -> TilePayload? {
        lock.lock(); defer { lock.unlock() }
        return painted.contains { $0.touches(tile) } ? .drawings(tile) : nil
    }
}
