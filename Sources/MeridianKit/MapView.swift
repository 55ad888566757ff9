import CSDL2
import FoundationEssentials
import MapChrome
import MapCore
import MapGeometry
import MapRender
import MapWindow
import Platform

/// A map in a window of the app's own: the basemap (or the tiles given) with the app's
/// layers over it, panned, zoomed and animated like Meridian's. The app keeps its name, its
/// signals and its keys: the map answers only its own (`KeyBindings.map`) unless given more,
/// and reads nothing from the environment.
///
/// ```swift
/// let window = try SDLWindow(title: "My map", width: 800, height: 600)
/// let view = try MapView(window: window, center: Coordinate(latitude: 60.17, longitude: 24.94), zoom: 5)
/// view.run()
/// ```
public final class MapView {
    /// The window's frame loop, tile pipeline and session: for what this class does not say.
    public let host: MapHost
    /// The maps by name, for the app to switch to (`MapCatalog.tiles`): the one given, or a
    /// plain one (no sources of the app's, a tile cache in /tmp).
    public let catalog: MapCatalog

    /// The map of `tiles` (nil: the embedded basemap) in `window`, centred on `center` at
    /// `zoom`, turned to `bearing` (degrees clockwise from north that the top faces), with
    /// `layers` drawn over it in order (the app's buttons among them) and the keys of `keys`
    /// answered. `catalog`: the app's maps by name (nil: a plain catalogue).
    public init(window: SDLWindow, center: Coordinate, zoom: Double, bearing: Double = 0, tiles: TileStack? = nil,
                layers: [any MapLayer] = [ZoomControlsLayer()], keys: [KeyBinding] = KeyBindings.map, catalog: MapCatalog? = nil) throws {
        self.catalog = catalog ?? MapCatalog()
        let stack = try tiles ?? BuiltInMaps.basemap()
        var scene = Scene()
        scene.showTiles(from: stack)
        scene.layers += layers
        var session = MapSession(scene: scene, camera: Camera(center: center, zoom: zoom, viewportSize: window.size, bearing: bearing))
        session.controller.keys = keys
        host = try MapHost(window: window, session: session, stack: stack)
    }

    /// The map of a session the app made itself (its layers, pins, tracks and keys) over
    /// `tiles`, as Meridian's own window is: `configuration` says what the loop logs and how
    /// it draws (`HostConfiguration.current` reads the environment; the default reads nothing).
    public init(window: SDLWindow, session: MapSession, tiles: TileStack, configuration: HostConfiguration = HostConfiguration(),
                catalog: MapCatalog? = nil) throws {
        self.catalog = catalog ?? MapCatalog()
        host = try MapHost(window: window, session: session, stack: tiles, configuration: configuration)
    }

    /// What the map shows now.
    public var camera: Camera { host.camera }

    /// What the map asks of the app, on the frame thread: a layer's `.effect(…)`, pins
    /// dropped and moved, a file dropped on the window, a link to open.
    public var onEffect: (SessionEffect) -> Void {
        get { host.onEffect }
        set { host.onEffect = newValue }
    }

    /// Called each time the map comes to rest: nothing moves, nothing is left to draw until
    /// an event. On the frame thread.
    public var onIdle: (() -> Void)? {
        get { host.onIdle }
        set { host.onIdle = newValue }
    }

    /// Shows the map until the window is closed (or the app calls `quit`), in the map's own
    /// loop: frames on vsync while something moves, asleep otherwise.
    public func run() {
        host.run()
    }

    /// For an app that runs its own event loop: hands the map one SDL event; true when it
    /// was the map's (`MapHost.handle`).
    @discardableResult
    public func handle(_ event: inout SDL_Event) -> Bool { host.handle(&event) }

    /// For an app that runs its own event loop: the map's turn, a frame if the picture
    /// changed; how long the app may wait for events before the next turn, nil for until
    /// one comes (`MapHost.update`).
    public func update() -> Double? { host.update() }

    /// Ends `run` after the frame under way.
    public func quit() { host.requestQuit() }

    /// Runs `body` with the map before the next frame; may be called from any thread.
    public func perform(_ body: @escaping @Sendable (MapHost) -> Void) { host.perform(body) }

    /// Ends the pins' gestures (as `run` does when it ends) and stops the map's workers;
    /// call before the window goes, after `run` or the app's own loop.
    public func close() {
        host.finish()
        host.close()
    }
}
