import Foundation
import MapCore
import MapGeometry
import MapNetwork
@testable import MapRouting
import MapTiles
import Platform
import Testing
import TestSupport

/// The online engine against a loopback stand-in for FOSSGIS's OSRM
/// (Tests/Fixtures/routing-server.py), which notes when each request arrived and who sent it:
/// the terms are checked on what the server saw. Tests wait for answers, never for a time.
@Suite(.serialized) struct OSRMEngineTests {
    static let agent = "Meridian/0.1.0 (+https://github.com/meridian-maps/meridian) tests"

    struct Arrival: Decodable {
        let t: Double
        let path: String
        let ua: String
    }

    let server: TileServer
    let client = HTTPClient(options: .init(userAgent: OSRMEngineTests.agent))

    init() throws { server = try TileServer(script: "routing-server.py") }

    func engine(interval: Double = 1, timeout: Double = 15) -> OSRMEngine {
        // A schedule of its own: a port used before in this run starts afresh.
        OSRMEngine(config: RoutingConfig(url: server.url(""), minimumInterval: interval), client: client, timeout: timeout, gate: ServiceGate())
    }

    func arrivals() throws -> [Arrival] {
        guard case let .response(r) = client.get(server.url("/log")) else { throw RouteError.offline("no log") }
        return try JSONDecoder().decode([Arrival].self, from: r.body)
    }

    func mode(_ m: String, times: Int = 1) {
        _ = client.get(server.url("/mode?set=\(m)&times=\(times)"))
    }

    static let from = Coordinate(latitude: 60.169, longitude: 24.946)
    static func request(to lat: Double = 60.1735, mode: TravelMode = .car) -> RouteRequest {
        RouteRequest(waypoints: [from, Coordinate(latitude: lat, longitude: 24.947)], mode: mode)
    }

    @Test func aRouteCostsOneRequestThatSaysWhoAsks() throws {
        let e = engine()
        let route = try e.route(Self.request(), cancel: RouteCancellation()).get()
        #expect(route.engine == "OSRM")
        #expect(route.credit == "© OpenStreetMap contributors")
        #expect(route.geometry.first == Self.from)
        #expect(route.steps.first?.maneuver == .depart && route.steps.last?.maneuver == .arrive)
        let seen = try arrivals()
        #expect(seen.count == 1)
        #expect(seen.first?.ua == Self.agent)
        #expect(seen.first?.path == "/routed-car/route/v1/driving/24.946000,60.169000;24.947000,60.173500?overview=full&geometries=geojson&steps=true&alternatives=false")
        // Asked again in the session: from what was kept, no request.
        #expect(try e.route(Self.request(), cancel: RouteCancellation()).get() == route)
        #expect(try arrivals().count == 1)
        _ = try e.route(Self.request(mode: .foot), cancel: RouteCancellation()).get()
        #expect(try arrivals().last?.path.hasPrefix("/routed-foot/") == true)
    }

    @Test func whileAPinIsDraggedRequestsStartAtMostOneASecondForTheNewestPoint() throws {
        let e = engine(interval: 1)
        let router = Router(engines: [e])
        defer { router.stop() }
        let last = LockedValue<Route>()
        // Sixty positions of a dragged pin, as fast as they come (a frame each).
        var answers = 0
        let counter = Lock()
        let start = MonotonicClock.now
        for k in 0..<60 {
            router.route(Self.request(to: 60.1735 + Double(k) * 0.0001)) { r in
                counter.lock(); answers += 1; counter.unlock()
                if case let .success(route) = r { last.set(route) }
            }
            usleep(20_000)
        }
        let dragged = MonotonicClock.now - start
        router.waitUntilIdle()
        let seen = try arrivals()
        // The first position at once, then one a second at most, and the last one's.
        #expect(seen.count >= 2 && Double(seen.count) <= dragged.rounded(.down) + 2)
        // Never two at once. (The server's clock hears them a delivery later than the gate
        // let them go, so the exact second is not its to judge: ServiceGate's own test holds
        // it, with the times given — GeocoderTests. A gate letting a second one through at
        // once would put them milliseconds apart.)
        for (a, b) in zip(seen, seen.dropFirst()) { #expect(b.t - a.t >= 0.5) }
        // The last answer is for the last position.
        #expect(abs((last.get()?.geometry.last?.latitude ?? 0) - (60.1735 + 59 * 0.0001)) < 1e-9)
        counter.lock(); #expect(answers == 60); counter.unlock()
    }

    @Test func aServiceThatAsksForAPauseGetsIt() throws {
        let e = engine(interval: 0)
        mode("busy")
        #expect(e.route(Self.request(), cancel: RouteCancellation()) == .failure(.busy(seconds: 2)))
        // The next request waits the two seconds Retry-After asked for.
        let route = e.route(Self.request(to: 60.174), cancel: RouteCancellation())
        #expect((try? route.get()) != nil)
        let seen = try arrivals()
        #expect(seen.count == 2)
        #expect(seen[1].t - seen[0].t >= 1.9)
    }

    @Test func failuresAreSaidAndNeverKept() throws {
        let e = engine(interval: 0, timeout: 1)
        for (m, expected) in [("broken", RouteError.serverError(status: 500)), ("noroute", .noRoute)] {
            mode(m)
            #expect(e.route(Self.request(), cancel: RouteCancellation()) == .failure(expected))
        }
        mode("garbage")
        guard case .failure(.unreadable) = e.route(Self.request(), cancel: RouteCancellation()) else { Issue.record("garbage was read"); return }
        mode("silent")
        #expect(e.route(Self.request(), cancel: RouteCancellation()) == .failure(.timedOut(seconds: 1)))
        // Nothing failed was kept: the same route asked now is asked of the server, and comes.
        let before = try arrivals().count
        #expect((try? e.route(Self.request(), cancel: RouteCancellation()).get()) != nil)
        #expect(try arrivals().count == before + 1)
    }

    @Test func aDeadServerIsSaidToBeUnreachable() {
        let e = OSRMEngine(config: RoutingConfig(url: "http://127.0.0.1:9", minimumInterval: 0), client: client, timeout: 5, gate: ServiceGate())
        guard case .failure(let error) = e.route(Self.request(), cancel: RouteCancellation()) else { Issue.record("a route from nowhere"); return }
        #expect(error == .offline(error.offlineReason ?? "") || { if case .network = error { true } else { false } }())
    }

    @Test func routingJSONNamesTheServiceAndCanTurnItOff() throws {
        let c = try RoutingConfig(reading: Data(#"{"url": "https://osrm.example.org/", "enabled": false, "profiles": {"bike": "bicycle"}}"#.utf8))
        #expect(c.url == "https://osrm.example.org")
        #expect(!c.enabled)
        #expect(c.profiles[.bike] == "bicycle" && c.profiles[.car] == "routed-car")
        // FOSSGIS's terms: never faster than one a second, whatever a file says.
        #expect(try RoutingConfig(reading: Data(#"{"minimumInterval": 0.1}"#.utf8)).minimumInterval == 1)
        for bad in [#"{"url": "ftp://x"}"#, #"{"engine": "valhalla"}"#, #"{"profiles": {"plane": "x"}}"#, #"{"enabled": "yes"}"#, "[]"] {
            #expect(throws: RoutingConfig.Invalid.self) { try RoutingConfig(reading: Data(bad.utf8)) }
        }
        let off = OSRMEngine(config: c, client: client)
        #expect(!off.covers(Self.request()))
    }
}

extension RouteError {
    var offlineReason: String? { if case let .offline(r) = self { r } else { nil } }
}
