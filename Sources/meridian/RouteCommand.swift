import ArgumentParser
import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapRouting
import MapSearch
import MapTiles
import MeridianKit
import Platform

/// `meridian route`: directions from one place to another, offline with Routino over an
/// OpenStreetMap extract, or online within FOSSGIS's terms.
struct RouteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "route",
        abstract: tr("Find a route by car, bike or foot, offline from an .osm.pbf extract or online."),
        // TRANSLATORS: FROM, TO, the example coordinates and the paths are typed as they are: keep them.
        discussion: tr("FROM, TO and --via are coordinates (47.1663,9.5097, 48°51′24″N 2°21′8″E, geo: URIs, OpenStreetMap links) or names the offline search finds (the first result is taken and said on stderr). Offline routing runs Routino's programs (Debian: apt install routino) over a database built once from each --osm extract and kept under ~/.cache/meridian/routing. Online routing asks the service named in ~/.config/meridian/routing.json (by default FOSSGIS's OSRM at routing.openstreetmap.de, at most one request a second); it is used when no extract holds the points, or with --online. Exit status: 0 a route, 1 none (said why), 64 wrong input."))

    @Argument(help: ArgumentHelp(tr("Where the route starts."), valueName: "FROM"))
    var from: String

    @Argument(help: ArgumentHelp(tr("Where it ends."), valueName: "TO"))
    var to: String

    @Option(name: .long, help: ArgumentHelp(tr("A point to pass on the way (again for more)."), valueName: "PLACE"))
    var via: [String] = []

    // TRANSLATORS: car, bike and foot are typed as they are: keep them.
    @Option(name: .long, help: ArgumentHelp(tr("car, bike or foot."), valueName: "MODE"))
    var by = "car"

    @Option(name: .long, help: ArgumentHelp(tr("An OpenStreetMap extract to route over offline (again for more)."), valueName: "FILE.osm.pbf"))
    var osm: [String] = []

    @Option(name: .long, help: ArgumentHelp(tr("A street map file whose names FROM, TO and --via may be."), valueName: "FILE"))
    var tiles: [String] = []

    @Flag(name: .long, help: ArgumentHelp(tr("Route offline only (no request is made).")))
    var offline = false

    @Flag(name: .long, help: ArgumentHelp(tr("Route online only.")))
    var online = false

    @Flag(name: .long, help: ArgumentHelp(tr("Print JSON.")))
    var json = false

    @Flag(name: .long, help: ArgumentHelp(tr("Print GPX: the steps as a route, the line as a track.")))
    var gpx = false

    static let usage: Int32 = 64

    func run() throws {
        // TRANSLATORS: %@ is what --by was given; car, bike and foot are typed as they are: keep them.
        guard let mode = TravelMode(name: by) else { return fail(tr("unknown mode \"%@\": car, bike or foot", by), status: Self.usage) }
        guard !(offline && online) else { return fail(tr("--offline and --online exclude each other"), status: Self.usage) }
        guard !(json && gpx) else { return fail(tr("--json and --gpx exclude each other"), status: Self.usage) }
        for file in osm where !FileIO.exists(file) { return fail(tr("--osm %@: no such file", file), status: Self.usage) }
        let points: [Coordinate]
        switch RoutePlaces.resolve([from] + via + [to], tiles: tiles) {
        case let .success(places): points = places.map(\.coordinate)
        case let .failure(problem): return fail(problem.text, status: Self.usage)
        }
        let made = RouteEngines.make(osm: osm, offline: offline)
        for p in made.problems { warn(p) }
        let router = Router(engines: made.engines)
        let request = RouteRequest(waypoints: points, mode: mode, language: GeocoderConfig.language(environment: ProcessInfo.processInfo.environment))
        let result = LockedValue<Result<Route, RouteError>>()
        router.route(request, preference: online ? .online : offline ? .offline : .any) { r in result.set(r) }
        router.waitUntilIdle()
        router.stop()
        switch result.get() {
        case let .success(route)?:
            if json { print(Self.json(route)) }
            else if gpx { FileHandleOut.write(RouteGPX.data(route)) }
            else { print(Self.text(route), terminator: "") }
        case let .failure(e)?:
            let said = e != .notCovered ? e.description
                : osm.isEmpty && offline ? tr("no offline routing data: give an extract with --osm FILE.osm.pbf") : WindowRouting.notCovered
            return fail(said, status: 1)
        case nil:
            return fail(tr("no route was found"), status: 1)
        }
    }

    private func fail(_ message: String, status: Int32) {
        warn("route: \(message)")
        Glibc.exit(status)
    }

    /// The summary line and the steps, for a person.
    static func text(_ route: Route) -> String {
        var out = RouteGPX.summary(route) + "\n"
        let steps = route.readableSteps
        let width = String(steps.count).count
        for (i, step) in steps.enumerated() {
            let number = String(repeating: " ", count: width - String(i + 1).count) + "\(i + 1)."
            let distance = step.maneuver == .arrive ? "" : "  " + TrackStatistics.distanceText(step.distance, imperial: false)
            out += "\(number) \(step.instruction)\(distance)\n"
        }
        // TRANSLATORS: %@ is the address where map errors are reported.
        if route.online { out += tr("Report a map error: %@", RouteLinks.fixTheMap) + "\n" }
        return out
    }

    /// The issue's shape: distance_m, duration_s, engine, geometry [[lat, lon]…], steps.
    static func json(_ route: Route) -> String {
        func point(_ c: Coordinate) -> JSONValue {
            .array([.number((c.latitude * 1e6).rounded() / 1e6), .number((c.longitude * 1e6).rounded() / 1e6)])
        }
        let steps: [JSONValue] = route.readableSteps.map { s in
            .object(["text": .string(s.instruction), "distance_m": .number(s.distance.rounded()), "duration_s": .number(s.duration.rounded()),
                     "maneuver": .string(s.maneuver.name), "at": point(s.at)]
                    .merging(s.road.map { ["road": JSONValue.string($0)] } ?? [:]) { a, _ in a }
                    .merging(roundaboutExit(s.maneuver).map { ["exit": JSONValue.number(Double($0))] } ?? [:]) { a, _ in a })
        }
        let top: JSONValue = .object([
            "distance_m": .number(route.distance.rounded()), "duration_s": .number(route.duration.rounded()),
            "engine": .string(route.engine), "credit": .string(route.credit), "mode": .string(route.request.mode.rawValue),
            "geometry": .array(route.geometry.map(point)), "steps": .array(steps),
        ])
        guard let data = try? JSONEncoder().encode(top) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    private static func roundaboutExit(_ m: Maneuver) -> Int? {
        if case let .roundabout(exit) = m, exit > 0 { return exit }
        return nil
    }
}

/// Bytes to standard output, all of them.
enum FileHandleOut {
    static func write(_ data: Data) {
        data.withUnsafeBytes { _ = FileIO.writeAll(1, $0) }
    }
}
