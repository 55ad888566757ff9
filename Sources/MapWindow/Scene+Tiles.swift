import MapCore
import MapTiles

extension Scene {
    /// Takes the base map's settings from its tile sources: the zooms of each plane, the colour
    /// under them, and the credits with the copyright page. One place, for the scene a window
    /// or `render` starts from and for a map switched at run time.
    public mutating func showTiles(from source: TileSource, under: UnderPlane?, background: Color) {
        self.background = background
        tileZoomRange = source.zoomRange
        underZoomRange = under?.source.zoomRange
        attribution = source.attribution
        underAttribution = under?.source.attribution ?? ""
        attributionURL = source.attributionURL
    }
}
