import ArgumentParser
import CSDL2
import FoundationEssentials
import Glibc
import MapChrome
import MapCore
import MapGeometry
import MapRouting
import MapWindow
import Platform

/// Directions: building Routino's database for an extract (seconds, size, the planetsplitter's
/// peak memory), offline routes of about 3 and 15 km with the process started each time (as
/// the window asks them), and a waypoint dragged in the window while the route follows (every
/// frame the engine can), its present intervals.
extension Bench {
    /// Routes through Andorra (make bench gives its extract): Andorra la Vella to Escaldes
    /// (about 3 km) and to El Tarter up the Valira valley (about 16 km).
    static let shortRoute = [Coordinate(latitude: 42.5063, longitude: 1.5218), Coordinate(latitude: 42.5106, longitude: 1.5440)]
    static let longRoute = [Coordinate(latitude: 42.5063, longitude: 1.5218), Coordinate(latitude: 42.5794, longitude: 1.6500)]

    func routeRows(osm: String) throws -> [Row] {
        let env = ProcessInfo.processInfo.environment
        let programs = try RoutinoPrograms.find(environment: env).get()
        guard let dir = TemporaryDirectory.make("meridian-bench-routing") else { throw ValidationError(tr("no temporary folder")) }
        defer { _ = FileIO.removeTree(dir) }
        let (db, build) = try RoutinoDatabase.build(osm: osm, into: dir + "/db", programs: programs, environment: env).get()
        let engine = RoutinoEngine(database: db, programs: programs)
        var rows = [
            Row(name: "routing database build (\(osm.split(separator: "/").last ?? ""))", value: build.seconds, unit: "s", target: "report"),
            Row(name: "routing database size", value: Double(build.bytes) / 1_048_576, unit: "MiB", target: "report"),
            Row(name: "routing database build peak RSS (planetsplitter)", value: Double(build.peakRSS) / 1_048_576, unit: "MiB", target: "≤ 300 MiB"),
        ]
        for (name, points) in [("~3 km", Self.shortRoute), ("~15 km", Self.longRoute)] {
            var times: [Double] = []
            var metres = 0.0
            for _ in 0..<30 {
                let start = MonotonicClock.now
                let route = try engine.route(RouteRequest(waypoints: points, mode: .car), cancel: RouteCancellation()).get()
                times.append(MonotonicClock.now - start)
                metres = route.distance
            }
            times.sort()
            let label = "offline route \(name) (" + String(cFormat: "%.1f", metres / 1000) + " km by car, process start included)"
            rows.append(Row(name: label + " p50", value: times[times.count / 2] * 1000, unit: "ms", target: ""))
            rows.append(Row(name: label + " p99", value: times[times.count - 1] * 1000, unit: "ms", target: name == "~15 km" ? "≤ 150 ms" : ""))
        }
        rows += try routeDragRows(osm: osm)
        return rows
    }

    /// A 1280×800 window over Andorra la Vella with the long route shown; its end pin is
    /// pressed and carried in a circle for `seconds` (an SDL mouse event each frame, as a
    /// hand sends them), the route following from Routino as fast as it answers.
    private func routeDragRows(osm: String) throws -> [Row] {
        let (host, start) = try benchWindow(width: 1280, height: 800, renderer: renderer)
        host.change { $0.scene.layers.append(DirectionsLayer()) }
        let routing = WindowRouting(host: host, osm: [osm], offline: true, catalog: Meridian.catalog)
        defer { routing.stop() }
        host.onEffect = { effect in
            if case let .layer(r) = effect, let request = r.as(DirectionsLayer.Request.self) { routing.handle(request, opener: nil) }
        }
        var camera = start
        camera.setCenter(WebMercator.project(Coordinate(latitude: 42.52, longitude: 1.55)))
        camera.setZoom(13)
        host.change { $0.controller.camera = camera }
        host.change { session in
            session.update(DirectionsLayer.self, at: host.clock.now) { layer in
                _ = layer.set(from: Self.shortRoute[0])
                return layer.set(to: Self.shortRoute[1])
            }
        }
        quit(after: 3); host.run()
        let shown = host.session.scene.layer(DirectionsLayer.self)?.route != nil
        let tip = host.session.camera.screenPoint(for: Self.shortRoute[1])
        let head = ScreenPoint(x: tip.x, y: tip.y - 20)
        host.resetStats()
        let before = cpuSeconds(), answeredBefore = routing.answered.get() ?? 0
        var t0: Double?
        let duration = seconds
        func push(_ type: SDL_EventType, _ p: ScreenPoint) {
            var e = SDL_Event()
            e.type = type.rawValue
            if type == SDL_MOUSEMOTION {
                e.motion.x = Int32(saturating: p.x.rounded()); e.motion.y = Int32(saturating: p.y.rounded())
                e.motion.state = 1 // SDL_BUTTON_LMASK (a C macro)
            } else {
                e.button.x = Int32(saturating: p.x.rounded()); e.button.y = Int32(saturating: p.y.rounded())
                e.button.button = UInt8(SDL_BUTTON_LEFT); e.button.clicks = 1
                e.button.state = UInt8(type == SDL_MOUSEBUTTONDOWN ? SDL_PRESSED : SDL_RELEASED)
            }
            e.button.windowID = SDL_GetWindowID(host.window.raw)
            SDL_PushEvent(&e)
        }
        var released = false
        host.script = { t in
            if t0 == nil { t0 = t; push(SDL_MOUSEBUTTONDOWN, head); return host.session.camera }
            let e = t - t0!
            guard e <= duration else {
                if !released { released = true; push(SDL_MOUSEBUTTONUP, head) }
                return nil
            }
            // Round a circle of 150 points every 4 s (a person's steady drag).
            let a = 2 * Double.pi * e / 4
            push(SDL_MOUSEMOTION, ScreenPoint(x: head.x + 150 * sin(a), y: head.y - 150 * (1 - cos(a))))
            return host.session.camera
        }
        quit(after: duration + 0.5); host.run()
        host.script = nil
        let run = MeasuredRun(stats: host.stats, processCPU: cpuSeconds() - before)
        let routes = (routing.answered.get() ?? 0) - answeredBefore
        host.close()
        return frameRows("route pin dragged (offline\(shown ? "" : ", no route shown"))", run, period: host.clock.period, withIntervals: true)
            + [Row(name: "routes shown while the pin was dragged", value: Double(routes), unit: String(cFormat: "in %.0f s", duration), target: "report")]
    }
}
