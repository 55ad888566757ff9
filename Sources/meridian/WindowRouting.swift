import FoundationEssentials
import MapChrome
import MapCore
import MapData
import MapRouting
import MapTiles
import MapWindow
import MeridianKit
import Platform

/// The window's directions, wired: the online service of routing.json at once, then Routino
/// over each `--osm` extract and saved area (databases built on a thread of its own, each
/// engine added as it is ready, tried first); a `Router` that finds one route at a time (a
/// dragged waypoint's newest position replacing the waiting one); answers handed to the
/// directions layer through `MapHost.perform`; a route kept as GPX on Ctrl+S. Requests are
/// made on the frame's thread.
final class WindowRouting: @unchecked Sendable {
    private let host: MapHostHandle
    private let router = Router()
    /// Where the terrain's heights come from.
    private let catalog: MapCatalog
    private let log: Bool
    /// Database builds under way (stopped when the window closes).
    private let builds = LockedValue<[RouteCancellation]>()
    /// Successful routes handed to the layer so far (the bench counts them while a pin is dragged).
    let answered = LockedValue<Int>()

    /// `ask`: the route the window was started with (`--route`), asked for once the engines
    /// first made are in (an extract's, not the online service's, when it holds the places).
    init(host: MapHost, osm: [String], offline: Bool, catalog: MapCatalog, ask: [RoutePlaces.Place] = []) {
        self.host = host.handle
        self.catalog = catalog
        log = host.configuration.logFrames
        let env = ProcessInfo.processInfo.environment
        if !offline {
            let online = RouteEngines.onlineEngine(environment: env)
            for p in online.problems { host.showNotice(p) }
            for e in online.engines { router.add(e, first: false) }
        }
        addOffline(osm: osm, areas: true, offline: offline, ask: ask)
    }

    /// Routino's engines for `osm` (and the saved areas' data), made on a thread of their own;
    /// then the route `ask` names, if any.
    private func addOffline(osm: [String], areas: Bool, offline: Bool, ask: [RoutePlaces.Place] = []) {
        let host = self.host, log = self.log
        let token = RouteCancellation()
        builds.set((builds.get() ?? []) + [token])
        startThread(name: "route-engines") { [self] in
            let made = RouteEngines.offlineEngines(osm: osm, areas: areas, environment: ProcessInfo.processInfo.environment) { message in
                host.showNotice(message)
            }
            for p in made.problems { host.showNotice(p) }
            if token.isCancelled { return }
            for e in made.engines.reversed() { add(e) }
            let none = router.engines.isEmpty
            if log { FileIO.printError("route: engines " + router.engines.map(\.name).joined(separator: ", ")) }
            host.perform { host in
                // TRANSLATORS: --osm FILE.osm.pbf is an option of the command line and sources.json a file's name: not to translate.
                let why = none ? (offline ? tr("Directions need routing data offline: start Meridian with --osm FILE.osm.pbf (an OpenStreetMap extract) or name one in sources.json")
                                  // TRANSLATORS: routing.json is a file's name and --osm FILE.osm.pbf an option of the command line: not to translate.
                                  : tr("Online routing is off (routing.json) and no extract was given (--osm FILE.osm.pbf): there are no directions")) : nil
                // A request that found no engine yet is asked again now.
                host.change { $0.update(DirectionsLayer.self, at: host.clock.now) { layer in
                    layer.unavailable = why
                    // Unless the person chose ends meanwhile (a first Routino build can take minutes).
                    if !ask.isEmpty, !layer.waypoints.contains(where: { $0 != nil }) {
                        return layer.ask(through: ask.map(\.coordinate), names: ask.map(\.name))
                    }
                    return none ? [] : layer.retry()
                } }
            }
        }
    }

    /// What a route no offline data holds says, with the app's ways of getting some.
    static var notCovered: String { tr("no offline routing data holds these points (open an .osm.pbf with --osm, or save the area with directions)") }

    /// An engine tried first from now on (another over the same database is replaced).
    private func add(_ engine: RouteEngine) {
        if let r = engine as? RoutinoEngine {
            router.remove { ($0 as? RoutinoEngine)?.database.directory == r.database.directory }
        }
        router.add(engine, first: true)
    }

    /// A saved area's routing data, just built.
    func add(_ db: RoutinoDatabase) {
        guard case let .success(programs) = RoutinoPrograms.find(environment: ProcessInfo.processInfo.environment) else { return }
        add(RoutinoEngine(database: db, programs: programs))
        host.perform { host in host.change { $0.update(DirectionsLayer.self, at: host.clock.now) { $0.unavailable = nil; return $0.retry() } } }
    }

    /// A saved area was deleted: its routing data is gone with it.
    func removeArea(_ path: String) {
        let dir = AreaRouting.directory(forArea: path)
        router.remove { ($0 as? RoutinoEngine)?.database.directory == dir }
    }

    /// An OpenStreetMap extract dropped on the window: its database built (once, kept under
    /// the cache) off the frame, then routed over.
    func addExtract(_ path: String) {
        // TRANSLATORS: %@ is the name of an OpenStreetMap extract's file.
        host.showNotice(tr("Building routing data for %@…", path.split(separator: "/").last ?? ""))
        addOffline(osm: [path], areas: false, offline: false)
    }

    /// What the directions layer asks (`opener` opens a saved route as a track).
    func handle(_ request: DirectionsLayer.Request, opener: TrackFileOpener?) {
        switch request {
        case let .route(r): route(r)
        case .cancel: router.cancel()
        case let .save(route): save(route, opener: opener)
        }
    }

    private func route(_ request: RouteRequest) {
        let host = self.host, log = self.log, answered = self.answered
        router.route(request) { result in
            if log {
                switch result {
                case let .success(r):
                    FileIO.printError(String(cFormat: "route: %.0f m, %d steps, %d via, ", r.distance, r.readableSteps.count, r.request.waypoints.count - 2) + r.engine)
                case let .failure(e): FileIO.printError("route: none (\(e))")
                }
            }
            host.perform { [self] host in
                if case .success = result { answered.set((answered.get() ?? 0) + 1) }
                host.change { session in
                    let camera = session.camera
                    session.update(DirectionsLayer.self, at: host.clock.now) { $0.receive(result, for: request, camera: camera) }
                }
                // With terrain on, its heights are at hand: the climbing, measured off the frame.
                if case let .success(route) = result,
                   host.session.scene.tileLayers.contains(where: { $0.name == MapOverlays.terrain && $0.role == .overlay && $0.isVisible }) {
                    measureHeights(route)
                }
            }
        }
    }

    /// The terrain's heights, opened when a route first wants them.
    private let terrain = LockedValue<TerrainSource>()

    /// How much `route` climbs and falls, from the terrain's heights, handed to the layer.
    private func measureHeights(_ route: Route) {
        let host = self.host, log = self.log, terrain = self.terrain, catalog = self.catalog
        startThread(name: "route-heights") {
            if terrain.get() == nil { terrain.set(try? catalog.terrain(over: OnlineSource.terrainDEM.name)) }
            guard let source = terrain.get(), let climb = RouteHeights.measure(route, tile: { RouteHeights.tile($0, from: source) }) else { return }
            if log { FileIO.printError(String(cFormat: "route: climbs %.0f m, falls %.0f m", climb.ascent, climb.descent)) }
            host.perform { host in
                host.change { $0.update(DirectionsLayer.self, at: host.clock.now) { $0.setHeights(ascent: climb.ascent, descent: climb.descent, heights: climb.heights, for: route.request) } }
            }
        }
    }

    /// Ctrl+S with the panel open: the route kept as GPX beside the measured lines and trails,
    /// and opened as a track.
    private func save(_ route: Route, opener: TrackFileOpener?) {
        let url = TrailRecorder.unusedURL("route", in: TrailRecorder.defaultFolder())
        do {
            try AtomicFile.write(RouteGPX.data(route), to: url)
            if log { FileIO.printError("route: saved \(url.path)") }
            opener?.open([url.path], animated: false, moveView: false)
            host.showNotice(tr("The route is kept as %@", url.path))
        } catch {
            host.showNotice(tr("Cannot keep the route: %@", error))
        }
    }

    /// Stops the routes and the database builds under way (the window closes).
    func stop() {
        for b in builds.get() ?? [] { b.cancel() }
        router.stop()
    }
}
