import FoundationEssentials
import MapCore
import MapData
import MapGeometry
import MapTiles

/// The one place where the command line becomes a map state: the window and `render` both
/// start from what this returns, so what one shows the other shows.
func makeScene(camera: Camera, tiles: MapSources.Tiles, overlays: OverlayOptions, demoAt: Coordinate?, pins: [Pin]) -> Scene {
    var scene = Scene(camera: camera, background: tiles.background, tileZoomRange: tiles.source.zoomRange)
    scene.underZoomRange = tiles.under?.source.zoomRange
    scene.attribution = tiles.source.attribution
    scene.underAttribution = tiles.under?.source.attribution ?? ""
    scene.attributionURL = tiles.link
    scene.circles = overlays.circles
    scene.location = overlays.location(demoAt: demoAt)
    scene.pins = PinEditor(pins: pins)
    return scene
}
