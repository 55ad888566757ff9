import Foundation
import MapCore
import MapGeometry
@testable import MapRouting
import MapTiles
import Platform
import Testing
import TestSupport

/// The readers of what engines answer, on real answers: Routino's own outputs over the
/// Helsinki and Andorra extracts (Tests/Fixtures/routino) and answers in OSRM's documented
/// shape (Tests/Fixtures/routing).
@Suite struct RouteReaderTests {
    static func fixture(_ path: String) throws -> Data {
        try Data(contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/" + path))
    }

    static func routino(_ name: String, html: Bool = false, request: RouteRequest? = nil) throws -> Result<Route, RouteError> {
        let r = request ?? RouteRequest(waypoints: [Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 0)], mode: .car)
        return RoutinoOutput.read(text: try fixture("routino/\(name).txt"), all: try fixture("routino/\(name)-all.txt"),
                                  html: html ? try fixture("routino/\(name).html") : nil, request: r)
    }

    @Test func routinosTextBecomesStepsAndItsNodesTheLine() throws {
        let route = try Self.routino("helsinki-car").get()
        // The all-nodes file's segments, summed to the metre: 0.91 km in its text file.
        #expect(abs(route.distance - 910) < 10)
        #expect(route.duration > 60 && route.duration < 120)   // 1.5 min: minutes become seconds
        #expect(route.geometry.count > 20)
        #expect(route.geometry.first == Coordinate(latitude: 60.169984, longitude: 24.939013))
        #expect(route.geometry.last == Coordinate(latitude: 60.173908, longitude: 24.949593))
        #expect(route.steps.first?.maneuver == .depart)
        #expect(route.steps.last?.maneuver == .arrive)
        #expect(route.steps.first?.road == "Kaivokatu")
        // Every step is on the line, in order, and their lengths add up to the route's.
        #expect(route.steps.map(\.index) == route.steps.map(\.index).sorted())
        for s in route.steps { #expect(route.geometry[s.index] == s.at) }
        #expect(abs(route.steps.reduce(0) { $0 + $1.distance } - route.distance) < 1)
        let roads = route.readableSteps.compactMap(\.road)
        #expect(roads.contains("Kaisaniemenkatu") && roads.contains("Unioninkatu"))
    }

    /// Turns are measured from the nodes' bearings: the text file's own turn column reads a
    /// right angle to the left as a slight one. Routino's HTML words (correct) are the reference.
    @Test func turnsAgreeWithRoutinosOwnWords() throws {
        let route = try Self.routino("helsinki-foot").get()
        let html = String(decoding: try Self.fixture("routino/helsinki-foot.html"), as: UTF8.self)
        var words: [String] = []
        for line in html.split(separator: "\n") where line.hasPrefix("<tr class='n'>") {
            if let a = line.firstRange(of: "go <span class='t'>"), let b = line[a.upperBound...].firstRange(of: "</span>") {
                words.append(String(line[a.upperBound..<b.lowerBound]))
            } else { words.append("") }
        }
        #expect(words.count == route.steps.count)
        let sides: [Maneuver: String] = [.slightLeft: "left", .left: "left", .sharpLeft: "left", .slightRight: "right", .right: "right", .sharpRight: "right"]
        var compared = 0
        for (step, word) in zip(route.steps, words) where word == "Left" || word == "Right" || word == "Sharp right" || word == "Sharp left" {
            #expect(sides[step.maneuver] == (word.lowercased().hasSuffix("left") ? "left" : "right"), "\(word) at \(step.at) read as \(step.maneuver)")
            #expect(step.maneuver != .slightLeft && step.maneuver != .slightRight, "\(word) at \(step.at) read as \(step.maneuver)")
            compared += 1
        }
        #expect(compared == 3)
        #expect(zip(route.steps, words).filter { $0.1 == "Straight on" }.allSatisfy { $0.0.maneuver == .straight || $0.0.maneuver == .slightLeft || $0.0.maneuver == .slightRight })
    }

    @Test func routinosNullNamesAreNone() throws {
        // Written with --output-stdout and one format: every road is "(null)".
        let text = try Self.fixture("routino/helsinki-car-stdout.txt")
        let route = try RoutinoOutput.read(text: text, all: try Self.fixture("routino/helsinki-car-all.txt"),
                                           request: RouteRequest(waypoints: [], mode: .car)).get()
        #expect(route.steps.allSatisfy { $0.road == nil })
        #expect(!route.steps.map(\.instruction).joined().contains("null"))
    }

    @Test func aViaPointIsAStepOfItsOwn() throws {
        let route = try Self.routino("helsinki-via-car").get()
        let via = try #require(route.steps.first { $0.maneuver == .via })
        #expect(abs(via.at.latitude - 60.16905) < 0.0005 && abs(via.at.longitude - 24.951) < 0.0005)
        #expect(route.steps.filter { $0.maneuver == .via }.count == 1)
        #expect(route.readableSteps.contains { $0.maneuver == .via })
    }

    @Test func aRoundaboutIsOneStepWithItsExit() throws {
        let route = try Self.routino("andorra-roundabout-car", html: true).get()
        let steps = route.steps
        let r = try #require(steps.first { if case .roundabout = $0.maneuver { true } else { false } })
        #expect(r.maneuver == .roundabout(exit: 3))
        #expect(r.road == "secondary road")
        #expect(r.instruction == "At the roundabout, take exit 3 onto secondary road")
        #expect(abs(steps.reduce(0) { $0 + $1.distance } - route.distance) < 1)
        // Without the HTML, the same route has no roundabout: the text does not say.
        let plain = try Self.routino("andorra-roundabout-car").get()
        #expect(!plain.steps.contains { if case .roundabout = $0.maneuver { true } else { false } })
        #expect(try Self.routino("andorra-minirb-car").get().steps.contains { $0.maneuver == .roundabout(exit: 0) })
    }

    @Test func routinoOutputThatIsNotRoutinosIsSaid() {
        let request = RouteRequest(waypoints: [], mode: .car)
        for (text, all) in [("", ""), ("hello\tworld\n", "x"), (" 95.0\t1.0\t0 km\n 1.0\t1.0\t0 km\n", " 1\t1\n 1\t1\n")] {
            guard case .failure(.unreadable) = RoutinoOutput.read(text: Data(text.utf8), all: Data(all.utf8), request: request) else {
                Issue.record("\(text.debugDescription) was read"); continue
            }
        }
    }

    @Test func routinosComplaintsAreErrorsAPersonCanActOn() {
        let r = RouteRequest(waypoints: [Coordinate(latitude: 60.17, longitude: 24.94), Coordinate(latitude: 0, longitude: 0)], mode: .car)
        let far = RoutinoEngine.meaning(of: "Error: Cannot find node close to specified point 2.", request: r, database: "/db")
        #expect(far == .noRoadNear(Coordinate(latitude: 0, longitude: 0), meters: 1000))
        #expect(far.description == "no road within 1 km of 0, 0")
        #expect(RoutinoEngine.meaning(of: "Cannot open file '/db/osm-nodes.mem' for reading [No such file or directory].", request: r, database: "/db")
                == .databaseMissing("/db"))
    }

    static let helsinki = RouteRequest(waypoints: [Coordinate(latitude: 60.169, longitude: 24.946), Coordinate(latitude: 60.1735, longitude: 24.947)],
                                       mode: .car)

    @Test func osrmsAnswerBecomesARoute() throws {
        let route = try OSRMAnswer.read(try Self.fixture("routing/osrm-helsinki-car.json"), request: Self.helsinki, engine: "OSRM", credit: "c").get()
        #expect(route.geometry.count == 35)
        #expect(abs(route.distance - 739) < 1)
        #expect(route.steps.first?.maneuver == .depart)
        #expect(route.steps.last?.maneuver == .arrive)
        #expect(route.steps.contains { $0.maneuver == .left })
        #expect(route.steps.contains { $0.maneuver == .right })
        // A roundabout and its exit are one step: "exit roundabout" is no decision of its own.
        #expect(route.steps.filter { if case .roundabout = $0.maneuver { true } else { false } }.map(\.maneuver) == [.roundabout(exit: 2)])
        #expect(route.steps.map(\.index) == route.steps.map(\.index).sorted())
        for s in route.steps { #expect(route.geometry[s.index] == s.at) }
    }

    @Test func osrmsRefusalsAreSaid() throws {
        #expect(OSRMAnswer.read(try Self.fixture("routing/osrm-noroute.json"), request: Self.helsinki, engine: "", credit: "") == .failure(.noRoute))
        // "Could not find a matching segment for coordinate 1": the second point, counted from 0.
        #expect(OSRMAnswer.read(try Self.fixture("routing/osrm-nosegment.json"), request: Self.helsinki, engine: "", credit: "")
                == .failure(.noRoadNear(Self.helsinki.waypoints[1], meters: 1000)))
        for garbage in ["<html>busy</html>", "{}", #"{"code":"Ok","routes":[{"geometry":{"coordinates":[[1e999,2]]}}]}"#,
                        #"{"code":"Ok","routes":[{"geometry":{"coordinates":[[200,2],[1,2]]},"distance":1,"duration":1}]}"#] {
            guard case .failure(.unreadable) = OSRMAnswer.read(Data(garbage.utf8), request: Self.helsinki, engine: "", credit: "") else {
                Issue.record("\(garbage) was read"); continue
            }
        }
    }

    @Test func continuingOnTheSameRoadFoldsIntoTheStepBefore() {
        let at = Coordinate(latitude: 0, longitude: 0)
        func step(_ m: Maneuver, _ road: String?, _ d: Double) -> RouteStep { RouteStep(maneuver: m, road: road, distance: d, duration: d, at: at, index: 0) }
        let route = Route(request: Self.helsinki, geometry: [at, at],
                          steps: [step(.depart, "A", 10), step(.straight, "A", 5), step(.left, "B", 20), step(.straight, nil, 1),
                                  step(.slightRight, "B", 3), step(.straight, "C", 7), step(.slightLeft, "D", 4), step(.arrive, nil, 0)],
                          distance: 50, duration: 50, engine: "", credit: "")
        let folded = route.readableSteps
        // A slight bend that stays on B is B still; one onto D is a decision.
        #expect(folded.map(\.maneuver) == [.depart, .left, .straight, .slightLeft, .arrive])
        #expect(folded.map(\.distance) == [15, 24, 7, 4, 0])
        #expect(folded.map(\.instruction) == ["Head along A", "Turn left onto B", "Continue on C", "Keep slightly left onto D", "Arrive at the destination"])
    }

    @Test func turnsAreBandedAsPeopleSayThem() {
        #expect(Maneuver.turn(degrees: 5) == .straight)
        #expect(Maneuver.turn(degrees: 45) == .slightRight)
        #expect(Maneuver.turn(degrees: -90) == .left)
        #expect(Maneuver.turn(degrees: 150) == .sharpRight)
        #expect(Maneuver.turn(degrees: 179) == .uTurn)
        #expect(Maneuver.turn(degrees: 350) == .straight)
        #expect(Maneuver.turn(degrees: .nan) == .straight)
    }

    @Test func aRouteAsGPXHasItsStepsAndItsLine() throws {
        let route = try Self.routino("helsinki-car").get()
        let gpx = String(decoding: RouteGPX.data(route, name: "To <Kaisaniemi>"), as: UTF8.self)
        #expect(gpx.contains("<rte>") && gpx.contains("<trk>"))
        #expect(gpx.components(separatedBy: "<rtept ").count - 1 == route.readableSteps.count)
        #expect(gpx.components(separatedBy: "<trkpt ").count - 1 == route.geometry.count)
        #expect(gpx.contains("<desc>Continue on Kaisaniemenkatu</desc><type>straight</type>"))
        #expect(gpx.contains("To &lt;Kaisaniemi&gt;"))
    }
}

extension RouteReaderTests {
    /// Climbing from heights: a route up a slope 2 km long climbs what the slope rises, and
    /// back down falls it; where there are no heights there is no answer.
    @Test func aRouteUpASlopeClimbsWhatItRises() throws {
        // A z12 DEM tile whose heights rise 1 m a pixel eastwards (about 27 m a pixel here).
        let size = 256
        let slope = try DEMTile(size: size, heights: (0..<size * size).map { Float($0 % size) + 500 })
        let id = TileID(containing: Coordinate(latitude: 60.17, longitude: 24.94), zoom: 12)
        let tile: (TileID) -> DEMTile? = { $0 == id ? slope : nil }
        let west = Coordinate(latitude: 60.17, longitude: 24.88), east = Coordinate(latitude: 60.17, longitude: 24.96)
        func route(_ a: Coordinate, _ b: Coordinate) -> Route {
            Route(request: RouteRequest(waypoints: [a, b], mode: .foot), geometry: [a, b], steps: [],
                  distance: TrackStatistics.distance(a.latitude, a.longitude, b.latitude, b.longitude), duration: 1, engine: "", credit: "")
        }
        let up = try #require(RouteHeights.measure(route(west, east), tile: tile))
        // The slope's rise between the ends: their pixels' difference, in metres.
        func pixel(_ c: Coordinate) -> Double { Double(RouteHeights.height(at: c, in: slope, of: id)) }
        #expect(abs(up.ascent - (pixel(east) - pixel(west))) < 6, "\(up)")
        #expect(up.descent < 6)
        let down = try #require(RouteHeights.measure(route(east, west), tile: tile))
        #expect(abs(down.descent - up.ascent) < 6 && down.ascent < 6)
        #expect(up.heights.count == 2 && up.heights[1] > up.heights[0])
        #expect(RouteHeights.measure(route(west, east), tile: { _ in nil }) == nil)
        // A saved route's track carries the heights: its profile.
        var climbed = route(west, east)
        climbed.heights = up.heights
        let gpx = String(decoding: RouteGPX.data(climbed), as: UTF8.self)
        #expect(gpx.components(separatedBy: "<ele>").count - 1 == 2)
    }
}
