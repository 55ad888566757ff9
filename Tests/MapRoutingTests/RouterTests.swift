import Foundation
import MapCore
import MapGeometry
@testable import MapRouting
import Platform
import Testing
import TestSupport

/// The router's choice of engine and its queue, with engines of the test's own that answer
/// when the test lets them.
@Suite struct RouterTests {
    /// An engine that holds each route until `release`, and notes what it was asked.
    final class HeldEngine: RouteEngine, @unchecked Sendable {
        let name: String
        let isOnline: Bool
        let box: [Double]
        private let condition = Condition()
        private var released = 0
        private(set) var asked: [RouteRequest] = []
        var wait: Double = 0

        init(_ name: String, online: Bool = false, box: [Double] = [-90, -180, 90, 180]) {
            self.name = name
            isOnline = online
            self.box = box
        }

        func covers(_ request: RouteRequest) -> Bool {
            request.waypoints.allSatisfy { $0.latitude >= box[0] && $0.longitude >= box[1] && $0.latitude <= box[2] && $0.longitude <= box[3] }
        }

        func delay(now: Double) -> Double { wait }

        var askedCount: Int { condition.lock(); defer { condition.unlock() }; return asked.count }

        func route(_ request: RouteRequest, cancel: RouteCancellation) -> Result<Route, RouteError> {
            condition.lock()
            asked.append(request)
            let mine = asked.count
            cancel.whenCancelled { [self] in condition.lock(); condition.broadcast(); condition.unlock() }
            while released < mine && !cancel.isCancelled { condition.wait() }
            condition.unlock()
            if cancel.isCancelled { return .failure(.cancelled) }
            return .success(Route(request: request, geometry: request.waypoints, steps: [], distance: 1, duration: 1, engine: name, credit: ""))
        }

        func release() { condition.lock(); released += 1; condition.broadcast(); condition.unlock() }
    }

    final class Results: @unchecked Sendable {
        private let lock = Lock()
        private var list: [(Int, Result<Route, RouteError>)] = []
        func add(_ n: Int, _ r: Result<Route, RouteError>) { lock.lock(); list.append((n, r)); lock.unlock() }
        var all: [(Int, Result<Route, RouteError>)] { lock.lock(); defer { lock.unlock() }; return list }
        func of(_ n: Int) -> Result<Route, RouteError>? { all.first { $0.0 == n }?.1 }
    }

    static let helsinki = [Coordinate(latitude: 60.17, longitude: 24.94), Coordinate(latitude: 60.175, longitude: 24.95)]
    static let helsinkiBox: [Double] = [60.16, 24.93, 60.18, 24.96]

    @Test func offlineDataThatCoversThePointsComesFirstThenOnline() throws {
        let offline = HeldEngine("Routino", box: Self.helsinkiBox), online = HeldEngine("OSRM", online: true)
        let router = Router(engines: [online, offline])
        defer { router.stop() }
        let inside = RouteRequest(waypoints: Self.helsinki, mode: .car)
        let outside = RouteRequest(waypoints: [Self.helsinki[0], Coordinate(latitude: 48.85, longitude: 2.35)], mode: .car)
        #expect(try router.engine(for: inside).get() === offline)
        #expect(try router.engine(for: outside).get() === online)
        #expect(try router.engine(for: inside, preference: .online).get() === online)
        #expect(throws: RouteError.notCovered) { try router.engine(for: outside, preference: .offline).get() }
        #expect(throws: RouteError.tooFewPoints) { try router.engine(for: RouteRequest(waypoints: [Self.helsinki[0]], mode: .car)).get() }
        let alone = Router(engines: [offline])
        defer { alone.stop() }
        #expect(throws: RouteError.disabled) { try alone.engine(for: inside, preference: .online).get() }
    }

    @Test func aNewerRequestReplacesTheWaitingOneNotTheOneUnderWay() {
        let engine = HeldEngine("E")
        let router = Router(engines: [engine])
        defer { router.stop() }
        let results = Results()
        func ask(_ n: Int) {
            let to = Coordinate(latitude: 60.17 + Double(n) * 0.001, longitude: 24.95)
            router.route(RouteRequest(waypoints: [Self.helsinki[0], to], mode: .foot)) { results.add(n, $0) }
        }
        ask(1)
        #expect(waitUntil { engine.askedCount == 1 })
        // Dragged on while the first is found: each newer position replaces the waiting one.
        for n in 2...6 { ask(n) }
        #expect(waitUntil { results.all.count == 4 })
        for n in 2...5 { #expect(results.of(n) == .failure(.superseded)) }
        engine.release()
        #expect(waitUntil { engine.askedCount == 2 })
        engine.release()
        router.waitUntilIdle()
        #expect(engine.asked.map { $0.waypoints[1].latitude } == [60.171, 60.176])
        if case let .success(route)? = results.of(6) { #expect(route.engine == "E") } else { Issue.record("the newest was not routed") }
    }

    @Test func cancelStopsTheRouteUnderWayAndDropsTheWaitingOne() {
        let engine = HeldEngine("E")
        let router = Router(engines: [engine])
        defer { router.stop() }
        let results = Results()
        router.route(RouteRequest(waypoints: Self.helsinki, mode: .car)) { results.add(1, $0) }
        #expect(waitUntil { engine.askedCount == 1 })
        router.route(RouteRequest(waypoints: Self.helsinki.reversed(), mode: .car)) { results.add(2, $0) }
        router.cancel()
        router.waitUntilIdle()
        #expect(results.of(1) == .failure(.cancelled))
        #expect(results.of(2) == .failure(.cancelled))
        #expect(engine.askedCount == 1)
    }

    @Test func aServicesPaceIsWaitedForWhereANewerRequestCanStillReplace() {
        let engine = HeldEngine("OSRM", online: true)
        engine.wait = 0.3
        let router = Router(engines: [engine])
        defer { router.stop() }
        let results = Results()
        for n in 1...3 {
            router.route(RouteRequest(waypoints: [Self.helsinki[0], Coordinate(latitude: 60.17 + Double(n) * 0.001, longitude: 24.95)], mode: .car)) { results.add(n, $0) }
        }
        #expect(waitUntil { results.all.count == 2 })
        engine.wait = 0
        #expect(waitUntil { engine.askedCount == 1 })
        engine.release()
        router.waitUntilIdle()
        #expect(engine.asked.count == 1)
        #expect(engine.asked.first?.waypoints[1].latitude == 60.173)
    }
}
