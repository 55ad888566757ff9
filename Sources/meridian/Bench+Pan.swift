import ArgumentParser
import FoundationEssentials
import Glibc
import MapChrome
import MapCore
import MapGeometry
import MapRouting
import MapWindow
import MeridianKit
import Platform

/// What panning the street map costs, plain and with each of this wave's features, in one
/// run: a hand's drag (a figure-eight, as ../shared/peer-bench plays it) over the street map
/// at z15 in a 1280×800 window, north-up with local names; with the directions layer there
/// but no route; with a route shown; turned 30°; with the labels in German (and, where the
/// fixture with translated names is at hand, in Swedish). The variants take turns, three
/// rounds, and each is measured over a view loaded first (the gesture played once untimed).
extension Bench {
    /// The pan's variants: what is on besides the plain street map.
    struct PanVariant {
        var name: String
        var directions = false
        var route = false
        var bearing = 0.0
        /// The labels' names, in `language` when not local.
        var labels = LabelNames.local
        var language: String?
        /// Another street map than --vector (the same features with translated names).
        var tiles: String?
    }

    /// Routino's longest sensible car route inside the Helsinki extract (1.0 × 1.7 km): from
    /// Kaartinkaupunki to Siltasaari, 2.7 km. At z15 the 1280×800 view spans about 3 × 1.9 km,
    /// so the whole line is in view all the pan long, as much of it as a 15 km route would show.
    static let panRoute = [Coordinate(latitude: 60.1660, longitude: 24.9400), Coordinate(latitude: 60.1788, longitude: 24.9460)]

    func panRows(_ path: String, at: Coordinate) throws -> [Row] {
        let env = ProcessInfo.processInfo.environment
        // A route over the extract (run from the source tree; without it that variant is left out).
        let osm = "Tests/Fixtures/osm/helsinki.osm.pbf"
        var route: Route?
        var routeFolder: String?
        defer { if let routeFolder { _ = FileIO.removeTree(routeFolder) } }
        if FileIO.exists(osm), let programs = try? RoutinoPrograms.find(environment: env).get(),
           let dir = TemporaryDirectory.make("meridian-bench-pan") {
            routeFolder = dir
            let (db, _) = try RoutinoDatabase.build(osm: osm, into: dir + "/db", programs: programs, environment: env).get()
            route = try RoutinoEngine(database: db, programs: programs)
                .route(RouteRequest(waypoints: Self.panRoute, mode: .car), cancel: RouteCancellation()).get()
        }
        // The same features with names in Swedish, English and Finnish (the --vector file has none but the local).
        let named = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("helsinki-names.mbtiles").path
        var variants = [PanVariant(name: "plain"), PanVariant(name: "directions layer unused", directions: true)]
        if let route {
            variants.append(PanVariant(name: "route " + String(cFormat: "%.1f km", route.distance / 1000) + " shown", directions: true, route: true))
        }
        variants.append(PanVariant(name: "turned 30°", bearing: 30))
        // The fixtures hold no German names: these labels fall back to the local ones, so this
        // is the rewritten style's cost alone; the Swedish labels below are other words.
        variants.append(PanVariant(name: "labels in German", labels: .mine, language: "de"))
        if path.hasSuffix("/helsinki.mbtiles"), FileIO.exists(named) {
            variants.append(PanVariant(name: "labels in Swedish (helsinki-names)", labels: .mine, language: "sv", tiles: named))
        }
        // MERIDIAN_BENCH_PAN=turned,route: plain and the variants whose names hold one of these words.
        if let only = env["MERIDIAN_BENCH_PAN"]?.split(separator: ","), !only.isEmpty {
            variants = variants.enumerated().filter { i, v in i == 0 || only.contains { v.name.contains($0) } }.map(\.element)
        }

        let window = try SDLWindow(title: "Meridian bench", width: 1280, height: 800, renderer: renderer)
        // Each variant's tiles from a catalogue of its own: styles are kept by path and mode,
        // and the German and Swedish ones differ only in the reader's language.
        let reader = Localization.languages
        defer { Localization.use(languages: reader) }
        let made = try variants.map { v in
            Localization.use(languages: v.language.map { [$0] } ?? reader)
            return try MapCatalog(settings: Meridian.catalogSettings(env))
                .tiles(v.tiles ?? path, pixelRatio: window.pixelRatio, style: StyleChoice(labels: v.labels))
        }
        Localization.use(languages: reader)
        let start = Camera(center: WebMercator.project(at), zoom: 15, viewportSize: window.size)
        let session = makeSession(camera: start, tiles: made[0], tilesName: nil, overlays: try OverlayOptions.parse(["--no-location"]), pins: [])
        let host = try appHost(window: window, session: session, stack: made[0].stack)
        defer { host.close() }
        let duration = 6.0
        var runs = [[MeasuredRun]](repeating: [], count: variants.count)
        for _ in 0..<3 {
            for (i, v) in variants.enumerated() {
                // Every variant on the same footing: its tiles shown afresh (new workers), the
                // view and the ring the drag passes over loaded by the gesture played once.
                host.setTiles(made[i].stack)
                host.change { $0.scene.layers.removeAll { $0 is DirectionsLayer } }
                if v.directions { host.change { $0.scene.layers.append(DirectionsLayer()) } }
                if v.route, let route {
                    host.change { session in
                        session.update(DirectionsLayer.self, at: host.clock.now) { layer in
                            _ = layer.set(from: Self.panRoute[0])
                            _ = layer.set(to: Self.panRoute[1])
                            // The route handed back as the app hands Routino's answer (no view fitted).
                            guard let asked = layer.request else { return [] }
                            return layer.receive(.success(route), for: asked)
                        }
                    }
                }
                var turned = start
                turned.setBearing(v.bearing)
                host.change { $0.controller.camera = turned }
                quit(after: 1)
                host.run()
                _ = panScript(host, from: turned, seconds: duration)
                runs[i].append(panScript(host, from: turned, seconds: duration))
            }
        }
        host.change { $0.scene.layers.removeAll { $0 is DirectionsLayer } }

        let period = host.clock.period
        func median(_ values: [Double]) -> Double { FrameStats.percentile(values, 50) }
        func cpu(_ r: MeasuredRun) -> Double { r.processCPU / duration }
        func total(_ r: MeasuredRun) -> Double? { r.serverCPU.map { (r.processCPU + $0) / duration } }
        var rows: [Row] = []
        for (v, rs) in zip(variants, runs) {
            let name = "pan z15 1280×800, \(v.name):"
            rows.append(Row(name: "\(name) process CPU per s, all threads", value: median(rs.map(cpu)), unit: "s/s", target: "report"))
            let server = rs.compactMap(\.serverCPU)
            if server.count == rs.count {
                rows.append(Row(name: "\(name) X server CPU per s", value: median(server) / duration, unit: "s/s", target: "report"))
            }
            rows += [
                Row(name: "\(name) frames", value: median(rs.map { Double($0.stats.presents) }), unit: "", target: ""),
                Row(name: "\(name) frame CPU p50", value: median(rs.map { $0.stats.frameCPU.percentile(50) }) * 1000, unit: "ms", target: ""),
                Row(name: "\(name) frame CPU p99", value: median(rs.map { $0.stats.frameCPU.percentile(99) }) * 1000, unit: "ms", target: "≤ 4 ms"),
                Row(name: "\(name) present interval p99", value: median(rs.map { $0.stats.presentIntervals.percentile(99) }) * 1000, unit: "ms",
                    target: String(cFormat: "≤ %.2f ms", 2 * period * 1000)),
                Row(name: "\(name) present intervals > 2 periods", value: median(rs.map { Double($0.stats.presentIntervals.count(above: 2 * period)) }),
                    unit: "", target: "0"),
            ]
        }
        // Each variant's CPU over the plain pan's (medians of the three rounds), the app's
        // alone and with the X server's (which draws the software path's frames).
        let plain = runs[0]
        for (v, rs) in zip(variants, runs).dropFirst() {
            let target = v.route ? "≤ 1.10" : v.bearing != 0 ? "≤ 1.20" : v.directions ? "≈ 1.00" : "report"
            let label = v.directions && !v.route ? "directions layer unused" : v.name
            rows.append(Row(name: "pan CPU, \(label) / plain", value: median(rs.map(cpu)) / median(plain.map(cpu)), unit: "", target: target))
            let a = rs.compactMap(total), b = plain.compactMap(total)
            if a.count == rs.count, b.count == plain.count {
                rows.append(Row(name: "pan CPU with the X server's, \(label) / plain", value: median(a) / median(b), unit: "", target: target))
            }
        }
        return rows
    }

    /// A hand's drag: the map follows a pointer that goes round a figure-eight (±250 px
    /// across, ±125 px up and down, 2.75 loops) from the view's centre for `duration`, its
    /// speed eased in and out over 0.3 s, ending 250 px left of where it began. In screen
    /// space: a turned view is dragged the same way on the screen.
    func panScript(_ host: MapHost, from start: Camera, seconds duration: Double) -> MeasuredRun {
        let r = 0.3 / duration, loops = 2.75, radius = 250.0
        // Phase 0…1 for time 0…1: an even speed, reached and left along cosine ramps.
        func ease(_ u: Double) -> Double {
            func ramp(_ v: Double) -> Double { v / 2 - r / (2 * .pi) * sin(.pi * v / r) }
            let a = u <= r ? ramp(u) : u >= 1 - r ? (1 - r) - ramp(1 - u) : r / 2 + (u - r)
            return a / (1 - r)
        }
        let centre = start.screenCenter
        return scripted(host, seconds: duration) { e in
            let p = 2 * .pi * loops * ease(min(e / duration, 1))
            // The map moves with the pointer, whole points at a time as mouse events come (and
            // as xdotool moves it): the view's centre is what lay that far the other way.
            let grabbed = ScreenPoint(x: centre.x - (radius * sin(p)).rounded(), y: centre.y - (radius / 2 * sin(2 * p)).rounded())
            var cam = start
            cam.setCenter(start.mapPoint(for: grabbed))
            return cam
        }
    }
}
