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

    /// Called once, right after the first frame is on screen. On the frame thread.
    public var onFirstPresent: (() -> Void)? {
        get { host.onFirstPresent }
        set { host.onFirstPresent = newValue }
    }

    /// Called once, after the first frame with everything in view drawn: every tile, every
    /// label, and the ring of tiles around the view. On the frame thread.
    public var onFullyDrawn: (() -> Void)? {
        get { host.onFullyDrawn }
        set { host.onFullyDrawn = newValue }
    }

    /// What the map says to the person at it (a notice shown, a tile that failed), for the
    /// app to print or log as its own; by default printed to standard error.
    public var onMessage: (String) -> Void {
        get { host.onMessage }
        set { host.onMessage = newValue }
    }

    /// The map's model as the last frame left it: its layers, pins, tracks and tile layers.
    public var session: MapSession { host.session }

    /// Changes the map's model, on the frame thread (in `onEffect`, `onFirstPresent`, the
    /// work of `perform`), and draws it. Returns what `body` returns.
    @discardableResult
    public func change<R>(_ body: (inout MapSession) throws -> R) rethrows -> R { try host.change(body) }

    /// Changes the first layer of a kind (an app's panel given its worker's answer) and
    /// carries out what it asks, at the map's clock; on the frame thread.
    public func update<L: MapLayer>(_ kind: L.Type, _ body: (inout L) -> [LayerAction]) {
        host.change { $0.update(kind, at: host.clock.now, body) }
    }

    /// Shows `message` at the top of the map until it is clicked away. From any thread.
    public func showNotice(_ message: String) { host.showNotice(message) }

    /// What other threads keep of the map: `perform`, `showNotice`, `waitUntilDrawn`.
    public var handle: MapHostHandle { host.handle }

    /// Shows the map of `tiles` from the next frame (another map chosen, its overlays).
    public func setTiles(_ tiles: TileStack) { host.setTiles(tiles) }

    /// Fills the screen with the window, or gives the window its size back.
    public func toggleFullscreen() { host.window.toggleFullscreen() }

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
