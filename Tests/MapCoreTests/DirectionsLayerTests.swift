import Foundation
@testable import MapChrome
@testable import MapCore
import MapGeometry
@testable import MapSearch
import Testing
import TestSupport

/// Directions as the window drives them, with no window and no engine: the right-click menu
/// asks for routes, answers are shown only for the newest request, waypoints are dragged and
/// vias added on the line, Ctrl+S asks the app to save, Esc closes.
struct DirectionsLayerTests {
    typealias Layer = DirectionsLayer
    static let center = Coordinate(latitude: 60.1715, longitude: 24.944)

    func session() -> SessionDriver {
        SessionDriver(layers: [DirectionsLayer()], zoom: 15, center: Self.center)
    }

    func requests(_ effects: [SessionEffect]) -> [Layer.Request] {
        effects.compactMap { if case let .layer(r) = $0 { r.as(Layer.Request.self) } else { nil } }
    }

    func layer(_ s: SessionDriver) -> Layer { s.session.scene.layer(Layer.self)! }

    /// Right-click at `p`, then the menu's item `button`.
    mutating func menu(_ s: inout SessionDriver, at p: ScreenPoint, _ button: Layer.Button) -> [SessionEffect] {
        s.t += 0.01
        _ = s.session.handle(.pointerDown(.right, p, clicks: 1, []), at: s.t)
        // (A right press is a click once released where it was: a drag would turn the map.)
        _ = s.session.handle(.pointerUp(.right, p), at: s.t)
        #expect(s.buttons(of: Layer.Button.self).contains(button), "the menu offers \(button)")
        return s.click(button)
    }

    /// A route along the waypoints, through the point halfway between each pair.
    static func route(_ r: RouteRequest) -> Route {
        var line: [Coordinate] = []
        for (a, b) in zip(r.waypoints, r.waypoints.dropFirst()) {
            line += [a, Coordinate(latitude: (a.latitude + b.latitude) / 2, longitude: (a.longitude + b.longitude) / 2)]
        }
        line.append(r.waypoints.last!)
        let steps = [RouteStep(maneuver: .depart, road: "A", distance: 100, duration: 10, at: line[0], index: 0),
                     RouteStep(maneuver: .left, road: "B", distance: 100, duration: 10, at: line[1], index: 1),
                     RouteStep(maneuver: .arrive, road: nil, distance: 0, duration: 0, at: line.last!, index: line.count - 1)]
        return Route(request: r, geometry: line, steps: steps, distance: 200, duration: 20, engine: "Test", credit: "c")
    }

    /// The places the window was started with (`--route`): the panel opens, the route is
    /// asked through them in their order, with the names they were found as, and its answer
    /// is fitted into the view; the places' box is what the view first shows.
    @Test func placesGivenAskForTheirRouteAndItIsShownWhole() throws {
        var s = session()
        let places = [Coordinate(latitude: 60.20, longitude: 24.90), Coordinate(latitude: 60.22, longitude: 24.95),
                      Coordinate(latitude: 60.25, longitude: 25.05)]
        s.session.update(Layer.self, at: s.t) { $0.ask(through: places, names: ["Home", nil, "Work"]) }
        let asked = requests(s.session.takeEffects())
        guard case let .route(r)? = asked.first else { Issue.record("no route asked: \(asked)"); return }
        #expect(asked.count == 1 && r.waypoints == places)
        #expect(layer(s).isOpen && layer(s).names == ["Home", nil, "Work"])
        let before = s.session.camera
        s.session.update(Layer.self, at: s.t) { $0.receive(.success(Self.route(r)), for: r, camera: before) }
        #expect(layer(s).route != nil)
        // The view flies to the route (it was out of view, at Helsinki's centre at z15).
        s.t += 5
        _ = s.session.frame(at: s.t, tiles: NoTiles())
        let cam = s.session.camera
        for p in places { #expect(cam.screenPoint(for: p).x > Layer.panelWidth && cam.screenPoint(for: p).x < cam.viewportSize.width, "\(p) in view") }
        // The first view of the places, right of the panel.
        let rect = try #require(layer(s).fitted(places, cam))
        #expect(rect.minX < WebMercator.project(places[0]).x && rect.maxX > WebMercator.project(places[2]).x)
        // Fewer than two places ask nothing; with no engine at all, the panel says why.
        var lone = DirectionsLayer()
        let none = lone.ask(through: [places[0]])
        #expect(none.isEmpty)
        lone.unavailable = "no engines"
        let said = lone.ask(through: places)
        #expect(said.contains { if case .notice("no engines") = $0 { true } else { false } })
    }

    @Test mutating func fromAndToAskForOneRouteAndItsAnswerIsShown() throws {
        var s = session()
        let a = ScreenPoint(x: 500, y: 200), b = ScreenPoint(x: 600, y: 450)
        #expect(requests(menu(&s, at: a, .menuFrom)).isEmpty, "one end is no route")
        #expect(layer(s).isOpen)
        let asked = requests(menu(&s, at: b, .menuTo))
        guard case let .route(r)? = asked.first else { Issue.record("no route asked: \(asked)"); return }
        #expect(asked.count == 1 && r.waypoints.count == 2 && r.mode == .car)
        let cam = s.session.camera
        #expect(cam.screenPoint(for: r.waypoints[0]).distance(to: a) < 0.5)
        #expect(cam.screenPoint(for: r.waypoints[1]).distance(to: b) < 0.5)
        // A stale answer (another request) is not shown; this one's is, with its steps as buttons.
        var other = r
        other.mode = .foot
        s.session.update(Layer.self, at: s.t) { $0.receive(.success(Self.route(other)), for: other) }
        #expect(layer(s).route == nil)
        s.session.update(Layer.self, at: s.t) { $0.receive(.success(Self.route(r)), for: r, camera: cam) }
        #expect(layer(s).route?.request == r)
        #expect(s.buttons(of: Layer.Button.self).filter { if case .step = $0 { true } else { false } }.count == 3)
        // Heights for the route (the terrain's): the panel draws its profile, steps below it.
        let profileInk = Color(hex: 0x4C8DFF, alpha: 0.8)
        func profileColumns() -> Int {
            s.frame().commands.filter { if case let .fillRect(_, c) = $0, c == profileInk { true } else { false } }.count
        }
        #expect(profileColumns() == 0)
        let heights: [Float] = Self.route(r).geometry.indices.map { Float(100 + 10 * $0) }
        s.session.update(Layer.self, at: s.t) { $0.setHeights(ascent: 20, descent: 0, heights: heights, for: r) }
        #expect(profileColumns() > 50)
        #expect(layer(s).route?.ascent == 20)
        // A step clicked flies there.
        _ = s.click(Layer.Button.step(1))
        s.t += 5
        s.frame()
        #expect(s.session.camera.screenPoint(for: Self.route(r).steps[1].at).distance(to: ScreenPoint(x: 400, y: 300)) < 1)
        // The mode: asked again.
        guard case let .route(byFoot)? = requests(s.click(Layer.Button.mode(.foot))).first else { Issue.record("no route by foot"); return }
        #expect(byFoot.mode == .foot && byFoot.waypoints == r.waypoints)
        // Waiting, the panel says so; Esc stops it (the route shown stays) and tells the app.
        #expect(layer(s).awaiting && layer(s).status?.hasPrefix("Finding a route") == true)
        #expect(requests(s.key(.escape)) == [.cancel])
        #expect(!layer(s).awaiting && layer(s).route != nil && layer(s).isOpen)
        // Asked again (the mode clicked once more is the same mode: the panel asks by Foot again).
        _ = s.click(Layer.Button.mode(.car))
        guard case .route? = requests(s.click(Layer.Button.mode(.foot))).first else { Issue.record("no route by foot again"); return }
        // A failure is said in the panel, and the route is gone.
        s.session.update(Layer.self, at: s.t) { $0.receive(.failure(.noRoute), for: byFoot) }
        #expect(layer(s).route == nil && layer(s).status == "No route joins these points")
        // A replaced request says nothing.
        s.session.update(Layer.self, at: s.t) { $0.receive(.failure(.superseded), for: byFoot) }
        #expect(layer(s).status == "No route joins these points")
        // No offline data: the library's sentence names no app's options; the host's words, when given, say how to get some.
        s.session.update(Layer.self, at: s.t) { $0.receive(.failure(.notCovered), for: byFoot) }
        #expect(layer(s).status == "No offline routing data holds these points")
        s.session.scene.modify(Layer.self, default: Layer()) { $0.notCovered = "open an extract" }
        s.session.update(Layer.self, at: s.t) { $0.receive(.failure(.notCovered), for: byFoot) }
        #expect(layer(s).status == "Open an extract")
    }

    @Test mutating func draggingAnEndAsksAgainAsItMovesAndDroppingKeepsIt() throws {
        var s = session()
        _ = menu(&s, at: ScreenPoint(x: 450, y: 250), .menuFrom)
        guard case let .route(r)? = requests(menu(&s, at: ScreenPoint(x: 600, y: 450), .menuTo)).first else { Issue.record("no route"); return }
        s.session.update(Layer.self, at: s.t) { $0.receive(.success(Self.route(r)), for: r) }
        // Press the end's pin (its head, above the tip), drag it in three moves.
        let head = ScreenPoint(x: 600, y: 450 - 20)
        s.t += 0.01
        _ = s.session.handle(.pointerDown(.left, head, clicks: 1, []), at: s.t)
        var asked: [RouteRequest] = []
        for k in 1...3 {
            s.t += 0.016
            for case let .route(q) in requests(s.session.handle(.pointerMoved(ScreenPoint(x: 600 + 20 * Double(k), y: 430)), at: s.t)) { asked.append(q) }
        }
        #expect(asked.count == 3, "each move asks (the router keeps only the newest waiting)")
        let cam = s.session.camera
        #expect(cam.screenPoint(for: asked.last!.waypoints[1]).distance(to: ScreenPoint(x: 660, y: 450)) < 0.5, "the tip follows, not the head")
        // While the newest is found, the route shown is the last one found: the line never blinks out.
        #expect(layer(s).route != nil)
        s.t += 0.01
        _ = s.session.handle(.pointerUp(.left, ScreenPoint(x: 660, y: 430)), at: s.t)
        #expect(layer(s).drag == nil)
        #expect(layer(s).waypoints.last! == asked.last!.waypoints[1])
    }

    @Test mutating func aPressOnTheLineAddsAViaInItsLeg() throws {
        var s = session()
        _ = menu(&s, at: ScreenPoint(x: 300, y: 300), .menuFrom)
        guard case let .route(r)? = requests(menu(&s, at: ScreenPoint(x: 700, y: 300), .menuTo)).first else { Issue.record("no route"); return }
        s.session.update(Layer.self, at: s.t) { $0.receive(.success(Self.route(r)), for: r) }
        // The line runs from (300, 300) to (700, 300): pressed at (500, 302), dragged down.
        s.t += 0.01
        _ = s.session.handle(.pointerDown(.left, ScreenPoint(x: 500, y: 302), clicks: 1, []), at: s.t)
        s.t += 0.016
        let moved = requests(s.session.handle(.pointerMoved(ScreenPoint(x: 500, y: 380)), at: s.t))
        guard case let .route(q)? = moved.first else { Issue.record("no route through the via"); return }
        #expect(q.waypoints.count == 3)
        #expect(s.session.camera.screenPoint(for: q.waypoints[1]).distance(to: ScreenPoint(x: 500, y: 378)) < 3)
        // The via has a ✕ in the panel that takes it away again.
        s.t += 0.01
        _ = s.session.handle(.pointerUp(.left, ScreenPoint(x: 500, y: 380)), at: s.t)
        guard case let .route(back)? = requests(s.click(Layer.Button.removeVia(1))).first else { Issue.record("no route without the via"); return }
        #expect(back.waypoints == r.waypoints)
    }

    @Test mutating func ctrlSSavesEscClosesClearForgets() throws {
        var s = session()
        _ = menu(&s, at: ScreenPoint(x: 450, y: 250), .menuFrom)
        guard case let .route(r)? = requests(menu(&s, at: ScreenPoint(x: 600, y: 450), .menuTo)).first else { Issue.record("no route"); return }
        #expect(requests(s.key(.letter("s"), .control)).isEmpty, "nothing to save before a route")
        s.session.update(Layer.self, at: s.t) { $0.receive(.success(Self.route(r)), for: r) }
        guard case let .save(saved)? = requests(s.key(.letter("s"), .control)).first else { Issue.record("Ctrl+S saves nothing"); return }
        #expect(saved.request == r)
        _ = s.key(.escape)
        #expect(!layer(s).isOpen && layer(s).route != nil, "Esc closes the panel; the route stays")
        _ = s.key(.letter("d"), .control)
        #expect(layer(s).isOpen)
        #expect(requests(s.click(Layer.Button.clear)) == [.cancel])
        #expect(layer(s).route == nil && layer(s).waypoints == [nil, nil])
        // "Drop a pin here" is the right-click's first item: a pin where it was pressed.
        var pins = SessionDriver(layers: [PinsLayer(), DirectionsLayer()], zoom: 15, center: Self.center)
        _ = menu(&pins, at: ScreenPoint(x: 420, y: 320), .menuPin)
        // Shift+right-click drops one at once, with no menu.
        pins.t += 0.01
        _ = pins.session.handle(.pointerDown(.right, ScreenPoint(x: 200, y: 200), clicks: 1, [.shift]), at: pins.t)
        _ = pins.session.handle(.pointerUp(.right, ScreenPoint(x: 200, y: 200)), at: pins.t)
        #expect(pins.session.pins.count == 2 && !pins.buttons(of: Layer.Button.self).contains(.menuFrom))
        let pin = try #require(pins.session.pins.min { a, b in
            pins.session.camera.screenPoint(for: a.coordinate).distance(to: ScreenPoint(x: 420, y: 320))
                < pins.session.camera.screenPoint(for: b.coordinate).distance(to: ScreenPoint(x: 420, y: 320))
        })
        #expect(pins.session.camera.screenPoint(for: pin.coordinate).distance(to: ScreenPoint(x: 420, y: 320)) < 0.5)
        // The selected pin's callout offers directions to it (the pin just dropped is selected).
        guard pins.session.pins.count == 2 else { return }
        let selected = try #require(pins.session.facts.selectedPin)
        #expect(pins.buttons(of: Layer.Button.self).contains(.calloutTo))
        _ = pins.click(Layer.Button.calloutTo)
        #expect(pins.session.scene.layer(Layer.self)?.waypoints.last == selected.coordinate)
        #expect(pins.session.scene.layer(Layer.self)?.names.last == selected.title)
        // A right-click on that pin (its head): directions from the pin itself, named as it is.
        pins.t += 0.01
        _ = pins.session.handle(.pointerDown(.right, ScreenPoint(x: 421, y: 300), clicks: 1, []), at: pins.t)
        _ = pins.session.handle(.pointerUp(.right, ScreenPoint(x: 421, y: 300)), at: pins.t)
        #expect(!pins.buttons(of: Layer.Button.self).contains(.menuPin), "no second pin over the first")
        _ = pins.click(Layer.Button.menuFrom)
        let directions = try #require(pins.session.scene.layer(Layer.self))
        #expect(directions.waypoints[0] == pin.coordinate && directions.names[0] == pin.title)
    }
}

extension DirectionsLayerTests {
    /// Finds one place whatever is typed: Kaivokatu.
    struct OnePlace: PlaceSearching {
        func search(_ query: String, near: Coordinate?, zoom: Double?, limit: Int) -> [SearchResult] {
            [SearchResult(name: "Kaivokatu", category: .street, area: "Kluuvi", coordinate: Coordinate(latitude: 60.1705, longitude: 24.9425), zoom: 16,
                          origin: .offline("test"), match: 1)]
        }
    }

    @Test mutating func aRowTypedInFindsPlacesAndCoordinates() throws {
        var s = session()
        s.session.update(Layer.self, at: s.t) { $0.setSearcher(OnePlace()) }
        _ = s.key(.letter("d"), .control)
        _ = s.click(Layer.Button.row(0))
        #expect(layer(s).editing == 0 && layer(s).wantsText)
        _ = s.type("kaivo")
        #expect(layer(s).choices.map(\.title) == ["Kaivokatu"])
        // Keys are the box's while it is typed in: arrows do not move the map.
        let before = s.session.camera
        _ = s.key(.left)
        #expect(s.session.camera == before)
        _ = s.key(.enter)
        #expect(layer(s).waypoints[0] == Coordinate(latitude: 60.1705, longitude: 24.9425))
        #expect(layer(s).names[0] == "Kaivokatu" && layer(s).editing == nil)
        // Coordinates as typed, for the end: the route is asked.
        _ = s.click(Layer.Button.row(1))
        _ = s.type("60.1735, 24.9470")
        #expect(layer(s).choices.first?.detail == "coordinates")
        guard case let .route(r)? = requests(s.click(Layer.Button.choice(0))).first else { Issue.record("no route asked"); return }
        #expect(r.waypoints == [Coordinate(latitude: 60.1705, longitude: 24.9425), Coordinate(latitude: 60.1735, longitude: 24.947)])
        // Esc stops typing and leaves the point as it was.
        _ = s.click(Layer.Button.row(1))
        _ = s.type("x")
        _ = s.key(.escape)
        #expect(layer(s).editing == nil && layer(s).waypoints[1] == Coordinate(latitude: 60.1735, longitude: 24.947))
    }
}

extension ScreenPoint {
    func distance(to p: ScreenPoint) -> Double { ((x - p.x) * (x - p.x) + (y - p.y) * (y - p.y)).squareRoot() }
}

/// A route's point typed in is found as the search box finds places: "zur" over a continent is
/// Zürich, over Zuru itself Zuru (the view's scale says how much nearness counts).
struct DirectionsPlaceTests {
    func firstChoice(_ typed: String, lat: Double, lon: Double, zoom: Double) -> String? {
        var s = SessionDriver(layers: [DirectionsLayer()], zoom: zoom, center: Coordinate(latitude: lat, longitude: lon))
        s.session.update(DirectionsLayer.self, at: s.t) { $0.setSearcher(realPlaces) }
        _ = s.key(.letter("d"), .control)
        _ = s.click(DirectionsLayer.Button.row(0))
        _ = s.type(typed)
        return s.session.scene.layer(DirectionsLayer.self)?.choices.first?.title
    }

    @Test func zurIsZurichFromAContinentAndZuruNearZuru() {
        #expect(firstChoice("zur", lat: 0, lon: 0, zoom: 3) == "Zürich")
        #expect(firstChoice("zur", lat: 11.4352, lon: 5.2349, zoom: 12) == "Zuru")
    }
}
