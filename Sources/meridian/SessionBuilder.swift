import FoundationEssentials
import MapChrome
import MapCore
import MapData
import MapGeometry
import MapTiles

/// The one place where the command line becomes a map session: the window and `render` both
/// start from what this returns, so what one shows the other shows.
/// `tilesName`: the map's name in the layer switcher (nil: no switcher, as in the bench).
/// `chrome`: the app's buttons and panels (false for a printed page: the map and its own
/// furniture only).
func makeSession(camera: Camera, tiles: MapSources.Tiles, tilesName: String?, overlays: OverlayOptions, pins: [Pin],
                 chrome: Bool = true) -> MapSession {
    var scene = Scene(camera: camera)
    scene.showTiles(from: tiles.source, under: tiles.under, background: tiles.background)
    scene.circles = overlays.circles
    scene.location = overlays.fixedLocation
    scene.pins = PinEditor(pins: pins)
    guard chrome else {
        scene.layers.append(MeasureLayer())
        return MapSession(scene: scene)
    }
    if let tilesName {
        scene.layers.append(SourcesLayer(choices: MapSources.choices(current: tilesName), current: tilesName))
        scene.layers.append(SaveAreaLayer())
    }
    // The zoom buttons first: the search box's list drops over them.
    scene.layers.append(ZoomControlsLayer())
    scene.layers.append(SearchLayer())
    scene.layers.append(MeasureLayer())
    scene.layers.append(HelpLayer())
    return MapSession(scene: scene)
}
