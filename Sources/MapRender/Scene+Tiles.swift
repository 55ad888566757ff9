import MapCore
import MapTiles
import Platform

extension Scene {
    /// Takes the map's settings from its stack of tile layers: each layer's name, zooms,
    /// opacity and credit (the session's `tileStack` from now on: the map chosen, the
    /// overlays as they start), the colour under them, and the map's credit with its
    /// copyright page. One place, for the scene a window or `render` starts from and for a
    /// map switched at run time (the session then says so once:
    /// `SessionEffect.tileLayersChanged`).
    public mutating func showTiles(from stack: TileStack) {
        background = stack.background
        tileLayers = stack.specs
        attribution = stack.source.attribution
        attributionURL = stack.source.attributionURL
    }
}
