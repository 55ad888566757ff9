import FoundationEssentials
import MapCore
import MapData
import MapGeometry
import MapTiles

/// The one place where the command line becomes a map state: the window and `render` both
/// start from what this returns, so what one shows the other shows.
func makeScene(camera: Camera, source: TileSource, view: ViewOptions, overlays: OverlayOptions,
               demoAt: Coordinate?, pins: [Pin]) -> Scene {
    var scene = Scene(camera: camera, background: view.background(for: source), tileZoomRange: source.zoomRange)
    scene.attribution = source.attribution
    scene.circles = overlays.circles
    scene.location = overlays.location(demoAt: demoAt)
    scene.pins = PinEditor(pins: pins)
    return scene
}
