import MapCore
import MapGeometry
import MapTiles
import Platform

/// The tiles of the drawings layer (`TileLayerSpec.Role.drawings`): a transparent tile where
/// something the map's layers paint into tiles touches it (a track), none elsewhere. Whoever
/// draws the layer makes one with what it paints (a pipeline, each time that changes; a page).
struct DrawingsSource: TileSource {
    let name = "drawings"
    let zoomRange = 0...TileID.maxZoom
    let attribution = ""
    let concurrency = 2
    let painted: [any TileOverlay]

    init(painting overlays: [any TileOverlay]) { painted = overlays }

    func payload(for tile: TileID) throws -> TilePayload? {
        painted.contains { $0.touches(tile) } ? .drawings(tile) : nil
    }
}
