import FoundationEssentials
import MapChrome
import MapCore
import MapData
import MapRouting
import MapWindow
import MeridianKit
import Platform

/// The window's directions, wired: the engines (Routino over each `--osm` extract, built on a
/// thread of its own at start; the online service of routing.json unless `--offline`), a
/// `Router` that finds one route at a time (a dragged waypoint's newest position replacing the
/// waiting one), answers handed to the directions layer through `MapHost.perform`, and a
/// route kept as GPX on Ctrl+S.
final class WindowRouting: @unchecked Sendable {
    private let host: UncheckedSendable<MapHost>
    private let router = Router()
    private let log: Bool
    /// Engines are being made (a database built): requests wait for them.
    private let ready = LockedValue<Bool>()
    private let waiting = LockedValue<RouteRequest>()

    init(host: MapHost, osm: [String], offline: Bool) {
        self.host = UncheckedSendable(host)
        log = host.configuration.logFrames
        let notices = self.host
        startThread(name: "route-engines") { [self] in
            let made = RouteEngines.make(osm: osm, offline: offline) { message in notices.value.perform { $0.showNotice(message) } }
            for p in made.problems { notices.value.showNotice(p) }
            router.engines = made.engines
            if made.engines.isEmpty {
                let why = offline ? "Directions need routing data offline: start Meridian with --osm FILE.osm.pbf (an OpenStreetMap extract)"
                    : "Online routing is off (routing.json) and no extract was given (--osm FILE.osm.pbf): there are no directions"
                notices.value.perform { host in host.change { $0.update(DirectionsLayer.self, at: host.clock.now) { $0.unavailable = why; return [] } } }
            }
            if log { FileIO.printError("route: engines " + made.engines.map(\.name).joined(separator: ", ")) }
            ready.set(true)
            if let r = waiting.get() { route(r) }
        }
    }

    /// A saved area's routing data, just built: its engine is tried first from now on.
    func add(_ db: RoutinoDatabase) {
        guard case let .success(programs) = RoutinoPrograms.find(environment: ProcessInfo.processInfo.environment) else { return }
        router.engines.insert(RoutinoEngine(database: db, programs: programs), at: 0)
        host.value.perform { host in host.change { $0.update(DirectionsLayer.self, at: host.clock.now) { $0.unavailable = nil; return [] } } }
    }

    /// An OpenStreetMap extract dropped on the window: its database built (once, kept under
    /// the cache) off the frame, then routed over.
    func addExtract(_ path: String) {
        let host = self.host
        host.value.showNotice("Building routing data for \(path.split(separator: "/").last ?? "")…")
        startThread(name: "route-extract") { [self] in
            let made = RouteEngines.make(osm: [path], offline: true, areas: false) { _ in }
            for p in made.problems { host.value.showNotice(p) }
            guard let engine = made.engines.first else { return }
            router.engines.insert(engine, at: 0)
            if log { FileIO.printError("route: engines " + router.engines.map(\.name).joined(separator: ", ")) }
            host.value.perform { host in
                host.change { $0.update(DirectionsLayer.self, at: host.clock.now) { $0.unavailable = nil; return [] } }
                host.showNotice("Directions offline in \(path.split(separator: "/").last ?? ""): right-click the map, Directions from here")
            }
        }
    }

    /// Routes handed to the layer so far (the bench counts them while a pin is dragged).
    let answered = LockedValue<Int>()

    /// What the directions layer asks (`opener` opens a saved route as a track).
    func handle(_ request: DirectionsLayer.Request, opener: TrackFileOpener?) {
        switch request {
        case let .route(r): route(r)
        case .cancel: router.cancel()
        case let .save(route): save(route, opener: opener)
        }
    }

    private func route(_ request: RouteRequest) {
        guard ready.get() == true else { waiting.set(request); return }
        let host = self.host, log = self.log, answered = self.answered
        router.route(request) { result in
            if log {
                switch result {
                case let .success(r):
                    FileIO.printError(String(cFormat: "route: %.0f m, %d steps, %d via, ", r.distance, r.readableSteps.count, r.request.waypoints.count - 2) + r.engine)
                case let .failure(e): FileIO.printError("route: none (\(e))")
                }
            }
            host.value.perform { host in
                answered.set((answered.get() ?? 0) + 1)
                host.change { session in
                    let camera = session.camera
                    session.update(DirectionsLayer.self, at: host.clock.now) { $0.receive(result, for: request, camera: camera) }
                }
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
            host.value.showNotice("The route is kept as \(url.path)")
        } catch {
            host.value.showNotice("Cannot keep the route: \(error)")
        }
    }

    func stop() { router.stop() }
}
