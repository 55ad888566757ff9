import Foundation
import MapCore
import MapGeometry
@testable import MapRouting
import Platform
import Testing
import TestSupport

/// Routino's real programs (Debian's routino) over a real OpenStreetMap extract of central
/// Helsinki (Tests/Fixtures/osm), each route checked against the extract itself, read here
/// independently (osmium's OPL text): a road graph of the test's own, with one-way
/// streets and what each mode may use.
@Suite(.serialized) struct RoutinoEngineTests {
    static let extract = packageRoot.appendingPathComponent("Tests/Fixtures/osm/helsinki.osm.pbf").path
    static let env = ProcessInfo.processInfo.environment

    /// One database for the suite, built into a folder of its own.
    static let built: Result<(RoutinoDatabase, RoutinoDatabase.BuildReport), RouteError> = {
        guard let dir = TemporaryDirectory.make("routino-tests") else { return .failure(.failed("no temporary folder")) }
        return RoutinoPrograms.find(environment: env).flatMap {
            RoutinoDatabase.build(osm: extract, into: dir + "/db", programs: $0, environment: env)
        }
    }()

    static func engine() throws -> RoutinoEngine {
        let (db, _) = try built.get()
        return RoutinoEngine(database: db, programs: try RoutinoPrograms.find(environment: env).get())
    }

    static func route(_ points: [(Double, Double)], _ mode: TravelMode) throws -> Route {
        try engine().route(RouteRequest(waypoints: points.map { Coordinate(latitude: $0.0, longitude: $0.1) }, mode: mode),
                           cancel: RouteCancellation()).get()
    }

    /// The extract's roads as a graph of the test's own: nodes are coordinates to 1e-6° (as
    /// Routino prints them), edges the ways' segments, directed where a mode must keep to
    /// one-way streets.
    struct Roads {
        struct Key: Hashable { let lat: Int, lon: Int }
        var car: [Key: [(Key, Double)]] = [:]
        var foot: [Key: [(Key, Double)]] = [:]
        var place: [Key: Coordinate] = [:]
        /// Keys of the nodes of ways for walkers only (footway, path, pedestrian, cycleway, steps).
        var walkways: Set<Key> = []

        static func key(_ c: Coordinate) -> Key { Key(lat: Int((c.latitude * 1e6).rounded()), lon: Int((c.longitude * 1e6).rounded())) }

        static let drivable: Set<String> = ["motorway", "motorway_link", "trunk", "trunk_link", "primary", "primary_link", "secondary",
                                            "secondary_link", "tertiary", "tertiary_link", "unclassified", "residential", "living_street", "service", "road"]
        static let walkOnly: Set<String> = ["footway", "path", "pedestrian", "cycleway", "steps", "track", "bridleway"]

        /// Read from the extract in OSM's own text form (`osmium cat -f opl`): every way with
        /// its tags and nodes. A node the extract lacks (ways cut at its edge) breaks the way
        /// there, as Routino does.
        init() throws {
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("roads-\(getpid()).opl").path
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/osmium")
            p.arguments = ["cat", "-f", "opl", "--overwrite", RoutinoEngineTests.extract, "-o", out]
            try p.run()
            p.waitUntilExit()
            defer { try? FileManager.default.removeItem(atPath: out) }
            let text = try String(contentsOfFile: out, encoding: .utf8)
            var nodes: [Substring: Coordinate] = [:]
            for line in text.split(separator: "\n") {
                let fields = line.split(separator: " ")
                guard let id = fields.first else { continue }
                if id.hasPrefix("n") {
                    let x = fields.first { $0.hasPrefix("x") }.flatMap { Double($0.dropFirst()) }
                    let y = fields.first { $0.hasPrefix("y") }.flatMap { Double($0.dropFirst()) }
                    if let x, let y { nodes[id] = Coordinate(latitude: y, longitude: x) }
                    continue
                }
                guard id.hasPrefix("w") else { continue }
                var props: [String: String] = [:]
                for pair in (fields.first { $0.hasPrefix("T") }?.dropFirst() ?? "").split(separator: ",") {
                    let kv = pair.split(separator: "=", maxSplits: 1)
                    if kv.count == 2 { props[String(kv[0])] = String(kv[1]) }
                }
                guard let highway = props["highway"] else { continue }
                let refs = (fields.first { $0.hasPrefix("N") }?.dropFirst() ?? "").split(separator: ",")
                let oneway = props["oneway"].map { ["yes", "1", "true"].contains($0) ? 1 : $0 == "-1" ? -1 : 0 }
                    ?? (props["junction"] == "roundabout" ? 1 : 0)
                let carAllowed = Self.drivable.contains(highway) && !["no", "private"].contains(props["motor_vehicle"] ?? props["access"] ?? "")
                let footAllowed = highway != "motorway" && highway != "motorway_link" && props["foot"] != "no"
                for (ra, rb) in zip(refs, refs.dropFirst()) {
                    guard let a = nodes[ra], let b = nodes[rb] else { continue }
                    let ka = Self.key(a), kb = Self.key(b)
                    place[ka] = a; place[kb] = b
                    let d = TrackStatistics.distance(a.latitude, a.longitude, b.latitude, b.longitude)
                    if carAllowed {
                        if oneway >= 0 { car[ka, default: []].append((kb, d)) }
                        if oneway <= 0 { car[kb, default: []].append((ka, d)) }
                    }
                    if footAllowed {
                        foot[ka, default: []].append((kb, d))
                        foot[kb, default: []].append((ka, d))
                    }
                    if Self.walkOnly.contains(highway) { walkways.insert(ka); walkways.insert(kb) }
                }
            }
        }

        /// The shortest path's length from `a` to `b` (Dijkstra), if there is one within `limit` metres.
        func shortest(_ graph: [Key: [(Key, Double)]], _ a: Key, _ b: Key, within limit: Double = .infinity) -> Double? {
            var dist: [Key: Double] = [a: 0]
            var done: Set<Key> = []
            var frontier: [(Key, Double)] = [(a, 0)]
            while let i = frontier.indices.min(by: { frontier[$0].1 < frontier[$1].1 }) {
                let (k, d) = frontier.remove(at: i)
                if done.contains(k) { continue }
                if k == b { return d }
                done.insert(k)
                for (n, w) in graph[k] ?? [] where d + w < dist[n] ?? .infinity {
                    dist[n] = d + w
                    frontier.append((n, d + w))
                }
            }
            return nil
        }

        /// The node of `graph` nearest `c`.
        func nearest(_ c: Coordinate, in graph: [Key: [(Key, Double)]]) -> Key {
            graph.keys.min { a, b in
                let pa = place[a]!, pb = place[b]!
                return TrackStatistics.distance(c.latitude, c.longitude, pa.latitude, pa.longitude)
                    < TrackStatistics.distance(c.latitude, c.longitude, pb.latitude, pb.longitude)
            }!
        }
    }

    static let roads: Result<Roads, any Error> = Result { try Roads() }

    /// Every point of the line is on a road the mode may use, and every stretch of it that runs
    /// along a road runs along a way the mode may take in that direction (a car never against
    /// a one-way street). planetsplitter prunes (nodes on a straight stretch dropped, nodes
    /// under 5 m apart merged) and keeps coordinates in units of its own, so points are
    /// matched to the roads' segments within 3 m, not to their nodes.
    static func checkOnRoads(_ route: Route, _ roads: Roads, _ graph: [Roads.Key: [(Roads.Key, Double)]]) {
        let segments = graph.flatMap { from, edges in edges.map { (roads.place[from]!, roads.place[$0.0]!) } }
        let origin = route.geometry[0]
        let kx = 111_320 * cos(origin.latitude * .pi / 180), ky = 110_574.0
        func xy(_ c: Coordinate) -> (Double, Double) { ((c.longitude - origin.longitude) * kx, (c.latitude - origin.latitude) * ky) }
        func distance(_ p: Coordinate, _ s: (Coordinate, Coordinate)) -> Double {
            let (px, py) = xy(p), (ax, ay) = xy(s.0), (bx, by) = xy(s.1)
            let dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy
            let t = len2 > 0 ? max(0, min(1, ((px - ax) * dx + (py - ay) * dy) / len2)) : 0
            return ((px - ax - t * dx) * (px - ax - t * dx) + (py - ay - t * dy) * (py - ay - t * dy)).squareRoot()
        }
        for c in route.geometry where !segments.contains(where: { distance(c, $0) < 3 }) { Issue.record("\(c) is off the roads") }
        var along = 0
        for (a, b) in zip(route.geometry, route.geometry.dropFirst()) where metres(a, b) > 2 {
            // The ways this stretch runs along, either way round; one must be the mode's, this way.
            let under = segments.filter { distance(a, $0) < 3 && distance(b, $0) < 3 }
            guard !under.isEmpty else { continue }
            along += 1
            let (ax, ay) = xy(a), (bx, by) = xy(b)
            let forward = under.contains { s in
                let (ux, uy) = xy(s.0), (vx, vy) = xy(s.1)
                return (vx - ux) * (bx - ax) + (vy - uy) * (by - ay) > 0
            }
            if !forward { Issue.record("from \(a) to \(b) goes against the way of the road") }
        }
        #expect(along > 0)
    }

    static func metres(_ a: Coordinate, _ b: Coordinate) -> Double { TrackStatistics.distance(a.latitude, a.longitude, b.latitude, b.longitude) }

    @Test func theDatabaseIsBuiltOnceWithItsVersionAndItsBox() throws {
        let (db, report) = try Self.built.get()
        #expect(db.version == (try RoutinoPrograms.find(environment: Self.env).get().version()))
        #expect(db.version.split(separator: ".").count >= 2)
        #expect(report.bytes > 50_000 && report.peakRSS > 0)
        let box = try #require(db.bounds)
        #expect(abs(box[0] - 60.1641551) < 1e-6 && abs(box[3] - 24.9534132) < 1e-6)
        #expect(db.covers(Coordinate(latitude: 60.17, longitude: 24.94)))
        #expect(!db.covers(Coordinate(latitude: 60.5, longitude: 24.94)))
        // No Routino leftovers beside it, and opening it again gives the same database.
        let files = try FileManager.default.contentsOfDirectory(atPath: db.directory).sorted()
        #expect(files == ["meridian-routing.json", "osm-nodes.mem", "osm-relations.mem", "osm-segments.mem", "osm-ways.mem"])
        #expect(try RoutinoDatabase.open(db.directory).get().bounds == db.bounds)
    }

    @Test func aCarKeepsToOneWayStreetsAWalkerNeedNot() throws {
        let roads = try Self.roads.get()
        // Both ends on one-way Yrjönkatu (way 28408345), the end upstream of the start.
        let ends = [(60.16803, 24.93870), (60.16780, 24.93780)]
        let car = try Self.route(ends, .car), foot = try Self.route(ends, .foot)
        Self.checkOnRoads(car, roads, roads.car)
        Self.checkOnRoads(foot, roads, roads.foot)
        // Round the block by car; straight along the street on foot.
        #expect(car.distance > 300)
        #expect(foot.distance < 100)
        #expect(Set(car.readableSteps.compactMap(\.road)).isSuperset(of: ["Kalevankatu", "Annankatu"]))
        // The check sees a car driven the walker's way: against the one-way street.
        withKnownIssue("the walker's way, driven, is against Yrjönkatu's one way") { Self.checkOnRoads(foot, roads, roads.car) }
    }

    @Test func aWalkerTakesTheParkPathWhereItIsShorter() throws {
        let roads = try Self.roads.get()
        // The west and east ends of Kaisaniemi park.
        let ends = [(60.17382, 24.94314), (60.17398, 24.94889)]
        let car = try Self.route(ends, .car), foot = try Self.route(ends, .foot)
        Self.checkOnRoads(foot, roads, roads.foot)
        #expect(foot.distance < car.distance / 2)
        let onPaths = foot.geometry.map(Roads.key).filter { k in (-1...1).contains { d in roads.walkways.contains(Roads.Key(lat: k.lat + d, lon: k.lon)) } }.count
        #expect(Double(onPaths) > Double(foot.geometry.count) * 0.5)
        #expect(foot.readableSteps.contains { $0.road == "Svante Olssonin puistokuja" })
    }

    @Test func aViaPointIsPassed() throws {
        let direct = try Self.route([(60.17000, 24.93900), (60.17398, 24.94889)], .car)
        let via = Coordinate(latitude: 60.16905, longitude: 24.95100)
        let through = try Self.route([(60.17000, 24.93900), (via.latitude, via.longitude), (60.17398, 24.94889)], .car)
        Self.checkOnRoads(through, try Self.roads.get(), try Self.roads.get().car)
        let nearest = through.geometry.map { TrackStatistics.distance($0.latitude, $0.longitude, via.latitude, via.longitude) }.min() ?? .infinity
        #expect(nearest < 30)
        #expect(!direct.geometry.contains { TrackStatistics.distance($0.latitude, $0.longitude, via.latitude, via.longitude) < 100 })
        #expect(through.distance > direct.distance + 300)
        #expect(through.steps.filter { $0.maneuver == .via }.count == 1)
    }

    /// Routino's routes are as long as a shortest path the test finds itself, within a few
    /// percent: its quickest route weighs road kinds (a walker's speeds are all equal), and its
    /// database drops the nodes of nearly straight stretches (routes come out 1–3 % shorter).
    @Test func routesAreAsLongAsAShortestPathFoundIndependently() throws {
        let roads = try Self.roads.get()
        let pairs: [((Double, Double), (Double, Double))] = [((60.17000, 24.93900), (60.17398, 24.94889)),
                                                             ((60.16600, 24.94300), (60.17700, 24.95100)),
                                                             ((60.16450, 24.93600), (60.17850, 24.94700))]
        for (a, b) in pairs {
            // From one node of the graph to another, so that both measure between the same points.
            let ka = roads.nearest(Coordinate(latitude: a.0, longitude: a.1), in: roads.foot)
            let kb = roads.nearest(Coordinate(latitude: b.0, longitude: b.1), in: roads.foot)
            let pa = roads.place[ka]!, pb = roads.place[kb]!
            let expected = try #require(roads.shortest(roads.foot, ka, kb))
            let route = try Self.route([(pa.latitude, pa.longitude), (pb.latitude, pb.longitude)], .foot)
            Self.checkOnRoads(route, roads, roads.foot)
            #expect(abs(route.distance / expected - 1) < 0.05, "\(route.distance) m by Routino, \(expected) m the shortest")
        }
    }

    @Test func badPointsAndDataAreSaid() throws {
        let e = try Self.engine()
        let far = e.route(RouteRequest(waypoints: [Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 60.17, longitude: 24.94)], mode: .car),
                          cancel: RouteCancellation())
        #expect(far == .failure(.noRoadNear(Coordinate(latitude: 0, longitude: 0), meters: 1000)))
        let missing = RoutinoEngine(database: RoutinoDatabase(directory: "/nonexistent", prefix: "osm", version: "3", bounds: nil, source: "",
                                                              sourceSize: 0, sourceTime: 0),
                                    programs: try RoutinoPrograms.find(environment: Self.env).get())
        #expect(missing.route(RouteRequest(waypoints: [Coordinate(latitude: 60.17, longitude: 24.94), Coordinate(latitude: 60.171, longitude: 24.941)], mode: .car),
                              cancel: RouteCancellation()) == .failure(.databaseMissing("/nonexistent")))
        #expect(RoutinoDatabase.open("/nonexistent").map { _ in 0 } == .failure(.databaseMissing("/nonexistent")))
        #expect(RoutinoPrograms.find(environment: ["PATH": "/nonexistent"]).map { _ in 0 } == .failure(.engineMissing(program: "routino-router")))
        // An extract that is not one: said, and nothing is left behind.
        let dir = try #require(TemporaryDirectory.make("routino-bad"))
        let bad = dir + "/bad.osm.pbf"
        try Data("not a pbf".utf8).write(to: URL(fileURLWithPath: bad))
        let built = RoutinoDatabase.build(osm: bad, into: dir + "/db", programs: try RoutinoPrograms.find(environment: Self.env).get(), environment: Self.env)
        guard case let .failure(.failed(said)) = built else { Issue.record("a database from nothing"); return }
        #expect(said.contains("could not be read for routing"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["bad.osm.pbf"], "nothing but the extract is left")
    }
}
