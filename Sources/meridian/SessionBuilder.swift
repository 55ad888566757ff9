import FoundationEssentials
import MapChrome
import MapCore
import MapData
import MapGeometry
import MapRender
import MapTiles
import MapWindow
import MeridianKit
import Platform

/// The one place where the command line becomes a map session: the window and `render` both
/// start from what this returns, so what one shows the other shows.
/// `tilesName`: the map's name in the layer switcher (nil: no switcher, as in the bench).
func makeSession(camera: Camera, tiles: MapCatalog.Tiles, tilesName: String?, overlays: OverlayOptions, pins: [Pin],
                 catalog: MapCatalog = Meridian.catalog) -> MapSession {
    var scene = Scene()
    scene.showTiles(from: tiles.stack)
    scene.circles = overlays.circles
    scene.location = overlays.fixedLocation
    scene.pins = PinEditor(pins: pins)
    if let tilesName {
        scene.layers.append(SourcesLayer(choices: catalog.choices(current: tilesName)))
        scene.layers.append(SaveAreaLayer())
        scene.layers.append(AreasLayer())
        var directions = DirectionsLayer()
        directions.notCovered = WindowRouting.notCovered
        scene.layers.append(directions)
    }
    // The zoom buttons and the help button's hint first: the search box's list drops over them.
    scene.layers.append(ZoomControlsLayer())
    // The help lists the keys the session binds when it opens (`MapSession.keyTable`).
    scene.layers.append(HelpLayer())
    scene.layers.append(SearchLayer())
    scene.layers.append(MeasureLayer())
    var session = MapSession(scene: scene, camera: camera)
    session.controller.keys = AppKeys.table
    return session
}

/// The window's map as the app runs it — MeridianKit's `MapView`, the facade an embedder
/// uses — with its test and diagnosis hooks read from the environment
/// (`HostConfiguration.current`) and its messages said as the app's.
func appView(window: SDLWindow, session: MapSession, stack: TileStack) throws -> MapView {
    let view = try MapView(window: window, session: session, tiles: stack, configuration: .current, catalog: Meridian.catalog)
    view.onMessage = { warn($0) }
    return view
}

/// The host of `appView`'s map (for the bench, which drives the loop itself).
func appHost(window: SDLWindow, session: MapSession, stack: TileStack) throws -> MapHost {
    try appView(window: window, session: session, stack: stack).host
}

extension MapSession {
    /// The app's buttons, panels and notices: what a printed page leaves out (`render` on
    /// paper, Ctrl+E and Ctrl+P), keeping the map and its own furniture.
    static var chromeLayers: [any MapLayer.Type] {
        [SourcesLayer.self, SaveAreaLayer.self, ZoomControlsLayer.self, SearchLayer.self, HelpLayer.self, LocateLayer.self, NoticeLayer.self]
    }

    mutating func removeChrome() {
        scene.layers.removeAll { layer in Self.chromeLayers.contains { ObjectIdentifier($0) == ObjectIdentifier(type(of: layer)) } }
        // Directions keep their route and its pins on the page; their panel and menu go.
        if let i = scene.index(of: DirectionsLayer.self) { _ = scene.change(at: i, as: DirectionsLayer.self) { $0.putAway() } }
    }
}
