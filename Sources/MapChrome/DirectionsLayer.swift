import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapSearch
import Platform

/// Directions: a right-click on the map opens its menu — "Drop a pin here" (what a right-click
/// did before directions; Shift+right-click still does it at once), "Directions from here",
/// "Directions to here"; Ctrl+D opens the panel (From, vias, To, the mode, the steps). The route is drawn
/// into the map's tiles as a line with a casing, under labels and pins; its start, vias and end
/// are pins that float while dragged, the route following as they move (every answer the
/// engine gives, the newest position last); a press on the line and a drag adds a via there.
/// The app finds routes (`Request.route`) and hands them back (`receive`).
public struct DirectionsLayer: MapLayer {
    /// What the layer asks of the app (`SessionEffect.layer`).
    public enum Request: Hashable, Sendable {
        /// Find this route; answer with `receive`.
        case route(RouteRequest)
        /// Save this route as GPX (Ctrl+S while the panel is open).
        case save(Route)
        /// The route was cleared: stop finding one.
        case cancel
    }

    enum Button: Hashable, Sendable {
        case menuPin, menuFrom, menuTo, menuVia
        /// Under a selected pin's callout: directions from or to the pin.
        case calloutFrom, calloutTo
        case mode(TravelMode)
        case swap, clear, close, reportError
        case removeVia(Int)
        case step(Int)
        /// A point's row: typed in (a place's name, coordinates).
        case row(Int)
        /// One of the places found for the row typed in.
        case choice(Int)
    }

    /// A place offered for the row being typed in.
    public struct Choice: Hashable, Sendable {
        public var title: String
        public var detail: String
        public var at: Coordinate
    }

    /// From, the vias, to; nil where not chosen yet.
    public private(set) var waypoints: [Coordinate?] = [nil, nil] {
        didSet { if names.count != waypoints.count { names = waypoints.map { _ in nil } } }
    }
    /// What each waypoint was chosen as ("Aleksanterinkatu 52", "My location"); nil: its
    /// coordinates say it (a right-click, a drag).
    public private(set) var names: [String?] = [nil, nil]
    public private(set) var mode = TravelMode.car
    /// The route shown (kept while a newer one is being found, so the line never blinks out).
    public private(set) var route: Route? {
        didSet {
            steps = route?.readableSteps ?? []
            profileAlong = route.map(Self.metresAlong) ?? []
        }
    }
    /// Its steps as the panel lists them (made once a route, not every frame).
    public private(set) var steps: [RouteStep] = []
    /// Metres along the route at each point of its line, where it has heights (its profile is
    /// drawn by distance): measured once a route, not every frame.
    var profileAlong: [Double] = []

    /// Metres along `route`'s line at each of its points; empty without heights.
    static func metresAlong(_ route: Route) -> [Double] {
        let g = route.geometry
        guard route.heights.count == g.count, g.count >= 2 else { return [] }
        var along = [0.0]
        for (a, b) in zip(g, g.dropFirst()) { along.append(along[along.count - 1] + TrackStatistics.distance(a.latitude, a.longitude, b.latitude, b.longitude)) }
        return along
    }
    /// What the panel says instead of the steps: "Finding a route…", why there is none.
    public private(set) var status: String?
    public private(set) var isOpen = false
    /// The last request sent, whose answer is the one shown.
    public private(set) var asked: RouteRequest?
    /// Changes with every route shown (the line is painted into the tiles).
    public private(set) var revision = 0
    /// The right-click menu: where it opened, the place it is about, and its name (a pin's).
    var menu: (at: ScreenPoint, place: Coordinate, name: String?, onPin: Bool)?
    /// A waypoint being dragged: which, and where its tip is from the pointer.
    var drag: (index: Int, offset: ScreenPoint)?
    /// A press on the route's line: a via there once the pointer moves a few points (a
    /// click alone adds nothing).
    var pressedLine: (at: ScreenPoint, place: Coordinate)?
    /// Why what is typed in a row is not a place (coordinates out of range).
    public private(set) var typingProblem: String?
    /// The step list's first row shown (the list scrolls with the wheel).
    var firstStep = 0
    /// Why routing cannot be had at all (no engine), said when the panel opens.
    public var unavailable: String?
    /// What a route that no offline data holds says (`RouteError.notCovered`): the host's
    /// words for how its user gets routing data (nil: the error's own sentence).
    public var notCovered: String?
    /// What finds places by name (the search box's: the built-in places and the street maps).
    public private(set) var searcher: (any PlaceSearching)?
    /// The row being typed in, what is typed, and the places it finds.
    public private(set) var editing: Int?
    public private(set) var typed = ""
    public private(set) var choices: [Choice] = []
    /// The next route shown is fitted into the view (its ends were chosen, not dragged).
    var fitNext = false
    /// The request whose answer was a failure, if the newest one's was.
    var failed: RouteRequest?
    /// The newest request has not been answered yet.
    public private(set) var awaiting = false

    public init() {}

    public var levels: [LayerLevel] { [.callout, .chrome] }

    public var keyBindings: [KeyBinding] {
        // TRANSLATORS: what Ctrl+D does, in the list of keys.
        [KeyBinding(keys: [.letter("d")], modifiers: .control, command: .custom("directions"), label: "Ctrl+D", help: tr("directions"))]
    }

    /// The route's look: the seed's blue, wider than a track, with a white casing.
    public static let ink = Color(hex: 0x1A73E8)
    static let startInk = Color(hex: 0x34A853), viaInk = Color(hex: 0x8E8E93), endInk = Color(hex: 0xEA4335)

    // MARK: the model

    /// Sets the start (index 0), the end (-1) or adds a via, and asks for the route when both
    /// ends are known.
    public mutating func set(from c: Coordinate, name: String? = nil) -> [LayerAction] {
        waypoints[0] = c; names[0] = name
        return changedWaypoints()
    }

    public mutating func set(to c: Coordinate, name: String? = nil) -> [LayerAction] {
        waypoints[waypoints.count - 1] = c; names[names.count - 1] = name
        return changedWaypoints()
    }

    /// A via at `c`, in the leg of the route it is nearest (or before the end).
    public mutating func addVia(_ c: Coordinate, name: String? = nil) -> [LayerAction] {
        let i = viaIndex(for: c)
        names.insert(name, at: i)
        waypoints.insert(c, at: i)
        return changedWaypoints()
    }

    public mutating func setMode(_ m: TravelMode) -> [LayerAction] {
        // The mode pressed again after a failure (no network): asked again.
        guard m != mode else { return retry() + [.changed] }
        mode = m
        return changedWaypoints()
    }

    public mutating func swap() -> [LayerAction] {
        names.reverse()
        waypoints.reverse()
        return changedWaypoints()
    }

    public mutating func removeVia(_ i: Int) -> [LayerAction] {
        guard i > 0, i < waypoints.count - 1 else { return [.changed] }
        names.remove(at: i)
        waypoints.remove(at: i)
        return changedWaypoints()
    }

    /// No route, no waypoints (the panel stays as it is).
    public mutating func clear() -> [LayerAction] {
        waypoints = [nil, nil]
        names = [nil, nil]
        route = nil
        status = nil
        asked = nil
        awaiting = false
        failed = nil
        fitNext = false
        drag = nil
        pressedLine = nil
        menu = nil
        editing = nil
        typed = ""
        choices = []
        typingProblem = nil
        revision += 1
        return [.changed, .effect(.layer(LayerRequest(Request.cancel)))]
    }

    public mutating func open() { isOpen = true; menu = nil }

    public mutating func setSearcher(_ s: any PlaceSearching) -> [LayerAction] {
        searcher = s
        return editing == nil ? [] : [.changed]
    }

    public var wantsText: Bool { editing != nil }

    /// The places to search are read when first wanted (as the search box's are).
    var placesWanted: [LayerAction] { searcher == nil ? [.effect(.searchOpened)] : [] }

    /// Starts typing in row `i`: "My location" is offered at once when there is one.
    mutating func edit(_ i: Int, facts: SessionFacts, near: Coordinate?, zoom: Double? = nil) {
        editing = i
        typed = ""
        find(facts: facts, near: near, zoom: zoom)
    }

    /// The places for what is typed: coordinates as typed, else the search's best, with "My
    /// location" first while nothing is typed.
    /// Places named as typed, ranked as the search box ranks them: by nearness to the view's
    /// centre as much as the view's scale (`zoom`) makes it count.
    mutating func find(facts: SessionFacts, near: Coordinate?, zoom: Double? = nil) {
        choices = []
        typingProblem = nil
        let q = typed.trimmed
        if q.isEmpty {
            // TRANSLATORS: offered as a route's point: where the user is.
            if let here = facts.location { choices = [Choice(title: tr("My location"), detail: Self.text(here), at: here)] }
            return
        }
        switch CoordinateParser.parse(q) {
        case let .success(place)?:
            // TRANSLATORS: said under coordinates typed as a route's point (what they are).
            choices = [Choice(title: Self.text(place.coordinate), detail: tr("coordinates"), at: place.coordinate)]
            return
        case let .failure(problem)?: typingProblem = Self.sentence(problem.description); return
        case nil: break
        }
        let found = searcher?.search(q, near: near, zoom: zoom, limit: 6) ?? []
        choices = found.map { r in Choice(title: r.name, detail: SearchRanking.detail(r, from: near, imperial: facts.imperialUnits), at: r.coordinate) }
    }

    /// The row typed in takes this place.
    mutating func choose(_ k: Int) -> [LayerAction] {
        guard let i = editing, choices.indices.contains(k), waypoints.indices.contains(i) else { return [.changed] }
        waypoints[i] = choices[k].at
        names[i] = choices[k].title
        editing = nil
        typed = ""
        choices = []
        return changedWaypoints()
    }
    /// The panel and the menu put away, the route and its pins kept (a printed page).
    public mutating func putAway() { isOpen = false; menu = nil }
    public mutating func close() { isOpen = false }

    /// The request for the waypoints as they are, if both ends are chosen.
    public var request: RouteRequest? {
        let points = waypoints.compactMap { $0 }
        guard points.count == waypoints.count, points.count >= 2 else { return nil }
        return RouteRequest(waypoints: points, mode: mode)
    }

    private mutating func changedWaypoints() -> [LayerAction] {
        guard let r = request else {
            // TRANSLATORS: "Directions from here" is an item of the right-click menu: say it as it does.
            status = waypoints[0] == nil ? tr("Choose where to start: right-click the map, Directions from here")
                // TRANSLATORS: "Directions to here" is an item of the right-click menu: say it as it does.
                : tr("Choose where to go: right-click the map, Directions to here")
            return [.changed]
        }
        guard r != asked else { return [.changed] }
        asked = r
        fitNext = drag == nil
        awaiting = true
        // While a pin is dragged the line itself says it; otherwise the panel does (Esc stops).
        if drag == nil || route == nil { status = tr("Finding a route… (Esc stops)") }
        return [.changed, .effect(.layer(LayerRequest(Request.route(r))))]
    }

    /// How much the route shown for `request` climbs and falls (heights came after the route).
    public mutating func setHeights(ascent: Double, descent: Double, heights: [Float] = [], for request: RouteRequest) -> [LayerAction] {
        guard route?.request == request else { return [] }
        route?.ascent = ascent
        route?.descent = descent
        if heights.count == route?.geometry.count { route?.heights = heights }
        return [.changed]
    }

    /// Asks for the route through `places` — the start, the vias, the end — as if each was
    /// chosen in the panel, which opens (the window started with them). `names` says what
    /// each was given as (nil: its coordinates say it).
    public mutating func ask(through places: [Coordinate], names: [String?] = []) -> [LayerAction] {
        guard places.count >= 2 else { return [] }
        open()
        drag = nil
        waypoints = places
        self.names = places.indices.map { names.indices.contains($0) ? names[$0] : nil }
        return changedWaypoints() + (unavailable.map { [.notice($0)] } ?? [])
    }

    /// Asks again for the route whose answer was a failure (an engine came since, the mode
    /// was pressed again).
    public mutating func retry() -> [LayerAction] {
        guard failed != nil, failed == request else { return [] }
        asked = nil
        failed = nil
        return changedWaypoints()
    }

    /// The app's answer to `request`. Only the newest request's answer is shown; a replaced
    /// one says nothing (a newer answer is coming).
    public mutating func receive(_ result: Result<Route, RouteError>, for request: RouteRequest, camera: Camera? = nil) -> [LayerAction] {
        guard request == asked else { return [] }
        if case .failure(.superseded) = result {} else { awaiting = false }
        switch result {
        case let .success(r):
            route = r
            status = nil
            failed = nil
            firstStep = 0
            revision += 1
            // As the seed did: a new route is shown whole (right of the panel).
            if fitNext, let camera, let fit = fitting(r, camera) {
                fitNext = false
                return [.changed, fit]
            }
        case .failure(.superseded), .failure(.cancelled):
            return []
        case let .failure(e):
            // While dragging, a point off the roads keeps the last route shown: it says why.
            status = Self.sentence(e == .notCovered ? notCovered ?? e.description : e.description)
            failed = request
            if drag == nil { route = nil; revision += 1 }
        }
        return [.changed]
    }

    /// Where the view goes to show `route` whole, clear of the panel on the left; nil when it
    /// is in view already.
    func fitting(_ route: Route, _ camera: Camera) -> LayerAction? {
        guard camera.isTurned else { return fitted(route, camera).map { .show($0) } }
        guard let b = route.bounds else { return nil }
        // The route's box seen along the view's turned axes (points at the view's scale, from
        // its centre).
        let corners = [(b.north, b.west), (b.north, b.east), (b.south, b.east), (b.south, b.west)].map {
            camera.screenPoint(for: Coordinate(latitude: $0.0, longitude: $0.1))
        }
        let v = camera.viewportSize
        let free = freeArea(v)
        if corners.allSatisfy(free.contains) { return nil }
        guard free.width > 50, free.height > 50 else { return nil }
        let x0 = corners.map(\.x).min()!, x1 = corners.map(\.x).max()!, y0 = corners.map(\.y).min()!, y1 = corners.map(\.y).max()!
        // Points of the view now per point of the view wanted: the box fills the free part.
        let k = max(max(x1 - x0, 1e-9) / free.width, max(y1 - y0, 1e-9) / free.height)
        // The zoom `show` would choose for that view (a margin as when north-up, no closer than a street).
        let margin = min((v.width - 96) / v.width, (v.height - 96) / v.height)
        let zoom = min(max(camera.zoom - log2(k) + log2(max(margin, 1e-9)), Camera.minZoom), 16)
        // The screen point now that is to be the view's centre: the box's middle moved by the
        // free part's offset from the view's middle, at the scale the zoom chosen gives.
        let r = pow(2, camera.zoom - zoom)
        let middle = ScreenPoint(x: (x0 + x1) / 2 - (free.x + free.width / 2 - v.width / 2) * r,
                                 y: (y0 + y1) / 2 - (free.y + free.height / 2 - v.height / 2) * r)
        return .goTo(camera.coordinate(for: middle), zoom: zoom)
    }

    /// The part of the view a fitted route goes in: right of the panel when it is open.
    private func freeArea(_ v: ScreenSize) -> ScreenRect {
        ScreenRect(x: isOpen ? Self.panelWidth + 30 : 20, y: 70, width: v.width - (isOpen ? Self.panelWidth + 50 : 40), height: v.height - 120)
    }

    /// The part of the world that shows `route` whole, clear of the panel on the left; nil
    /// when it is in view already.
    func fitted(_ route: Route, _ camera: Camera) -> MapRect? {
        guard let b = route.bounds else { return nil }
        let a = camera.screenPoint(for: Coordinate(latitude: b.north, longitude: b.west)), c = camera.screenPoint(for: Coordinate(latitude: b.south, longitude: b.east))
        let free = freeArea(camera.viewportSize)
        if free.contains(a) && free.contains(c) { return nil }
        return fit(b, camera)
    }

    /// The part of the world that shows `places` whole, clear of the panel on the left, in
    /// view or not (the window's first view of a route asked for on the command line).
    public func fitted(_ places: [Coordinate], _ camera: Camera) -> MapRect? {
        Route.bounds(of: places).flatMap { fit($0, camera) }
    }

    private func fit(_ b: (south: Double, west: Double, north: Double, east: Double), _ camera: Camera) -> MapRect? {
        let nw = WebMercator.project(Coordinate(latitude: b.north, longitude: b.west))
        let se = WebMercator.project(Coordinate(latitude: b.south, longitude: b.east))
        let v = camera.viewportSize
        let free = freeArea(v)
        guard free.width > 50, free.height > 50 else { return nil }
        // The route's box, grown by the view's margins in the route's own scale.
        let w = max(se.x - nw.x, 1e-9), h = max(se.y - nw.y, 1e-9)
        let k = max(w / free.width, h / free.height)
        return MapRect(x: nw.x - (free.x + (free.width - w / k) / 2) * k, y: nw.y - (free.y + (free.height - h / k) / 2) * k,
                       width: v.width * k, height: v.height * k)
    }

    static func sentence(_ s: String) -> String { s.prefix(1).uppercased() + s.dropFirst() }

    /// Where a new via goes among the waypoints: after those the route passes before the
    /// point of the line nearest `c`.
    func viaIndex(for c: Coordinate) -> Int {
        guard let route, route.geometry.count >= 2, waypoints.count >= 2 else { return max(1, waypoints.count - 1) }
        func nearest(_ p: Coordinate) -> Int {
            route.geometry.indices.min { a, b in distance(route.geometry[a], p) < distance(route.geometry[b], p) } ?? 0
        }
        let at = nearest(c)
        var index = 1
        for (i, w) in waypoints.enumerated() where i > 0 && i < waypoints.count - 1 {
            if let w, nearest(w) <= at { index = i + 1 }
        }
        return index
    }

    private func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let dLat = a.latitude - b.latitude, dLon = (a.longitude - b.longitude) * cos(a.latitude * .pi / 180)
        return dLat * dLat + dLon * dLon
    }

    /// The route as a line in the tiles.
    public var tileContent: TileContent? {
        // The track is made when the painter asks (once a revision), not every frame.
        let shown = route
        return TileContent(revision: revision) {
            shown.map { Self.track(of: $0) }.map { LineOverlay(lines: [TrackLine(track: $0, geometry: TrackGeometry($0, threads: 1),
                                                     style: TrackStyle(color: Self.ink, width: 5, casing: Color(hex: 0xFFFFFF, alpha: 0.95), casingWidth: 2))]) }
        }
    }

    /// A route's line as a track (to paint, to save).
    public static func track(of route: Route) -> Track {
        var p = TrackPoints()
        for c in route.geometry { p.append(latitude: c.latitude, longitude: c.longitude, elevation: .nan, time: .nan) }
        return Track(kind: .route, name: "Route", segments: route.geometry.count >= 2 ? [0..<route.geometry.count] : [], points: p)
    }

    // MARK: input

    public mutating func perform(_ command: KeyBinding.Command, key: Key, context: InputContext) -> [LayerAction]? {
        switch command {
        case .custom("directions"):
            if isOpen { close() } else { open() }
            if isOpen, let unavailable { return [.changed, .notice(unavailable)] }
            if isOpen, request == nil, status == nil { _ = changedWaypoints() }
            return [.changed] + placesWanted
        case .cancel where menu != nil:
            menu = nil
            return [.changed]
        case .cancel where awaiting:
            // A route that takes long is stopped; the one shown stays.
            awaiting = false
            asked = nil
            // TRANSLATORS: finding a route was stopped (Esc).
            status = route == nil ? tr("Stopped") : nil
            return [.changed, .effect(.layer(LayerRequest(Request.cancel)))]
        case .cancel where isOpen:
            close()
            return [.changed]
        default: return nil
        }
    }

    public mutating func take(_ event: InputEvent, context: InputContext) -> [LayerAction]? {
        let cam = context.camera
        if editing != nil, let actions = typing(event, context: context) { return actions }
        switch event {
        case let .pointerDown(.right, p, _, mods):
            // A carried pin is put back by a right-click (the pins' own rule), and Shift drops a
            // pin at once (many in a row): not a menu.
            if context.carryingPin || mods.contains(.shift) { return nil }
            // On a pin: the menu is about the pin (its place exactly, its title).
            if let pin = context.pins.last(where: { Self.pinHit(cam.screenPoint(for: $0.coordinate)).contains(p) }) {
                menu = (p, pin.coordinate, pin.title.isEmpty ? nil : pin.title, true)
            } else {
                menu = (p, cam.coordinate(for: p), nil, false)
            }
            return [.changed]
        case let .pointerDown(.left, p, _, _):
            // A press on a button (the menu's items, the panel's) is the button's: buttons act
            // on release.
            if context.lastFrame.button(at: p) != nil { return nil }
            if menu != nil { menu = nil; return [.changed] }
            // The panel's background is not the map under it.
            if isOpen && panelFrame(cam, steps: steps.count).contains(p) { return [] }
            if let i = waypointHit(p, cam) {
                let tip = cam.screenPoint(for: waypoints[i]!)
                drag = (i, ScreenPoint(x: tip.x - p.x, y: tip.y - p.y))
                return [.holdCamera, .changed]
            }
            if let c = lineHit(p, cam) {
                pressedLine = (p, c)
                return [.holdCamera]
            }
            return nil
        case let .pointerMoved(p):
            if let pressed = pressedLine {
                // Far enough from the press: a via there, carried from now on.
                guard abs(p.x - pressed.at.x) + abs(p.y - pressed.at.y) > 4 else { return [] }
                pressedLine = nil
                let i = viaIndex(for: pressed.place)
                names.insert(nil, at: i)
                waypoints.insert(pressed.place, at: i)
                let tip = cam.screenPoint(for: pressed.place)
                drag = (i, ScreenPoint(x: tip.x - pressed.at.x, y: tip.y - pressed.at.y))
            }
            guard let d = drag, waypoints.indices.contains(d.index) else { return nil }
            waypoints[d.index] = cam.coordinate(for: ScreenPoint(x: p.x + d.offset.x, y: p.y + d.offset.y))
            names[d.index] = nil
            return changedWaypoints()
        case .pointerUp(.left, _) where pressedLine != nil:
            pressedLine = nil
            return []
        case let .pointerUp(.left, p):
            guard let d = drag, waypoints.indices.contains(d.index) else { return nil }
            waypoints[d.index] = cam.coordinate(for: ScreenPoint(x: p.x + d.offset.x, y: p.y + d.offset.y))
            drag = nil
            // Dropped where no route goes: the last one found no longer ends at the pin.
            if failed != nil && failed == request { route = nil; revision += 1 }
            return changedWaypoints()
        case .focusLost:
            // A release that will never come: the dragged point stays where it was carried to.
            pressedLine = nil
            if drag != nil { drag = nil; return nil }
            return nil
        case .keyDown(.letter("s"), .control) where isOpen && route != nil:
            return [.effect(.layer(LayerRequest(Request.save(route!))))]
        case .keyDown where menu != nil:
            // Any other key puts the menu away (Esc does in `perform`).
            if case .keyDown(.escape, _) = event { return nil }
            menu = nil
            return [.changed]
        case let .wheel(dy, _, p) where isOpen && stepsFrame(cam).contains(p):
            let count = steps.count
            firstStep = max(0, min(firstStep + (dy > 0 ? -3 : 3), max(0, count - 3)))
            return [.changed]
        case .wheel where menu != nil:
            // The map moves: the menu's point would no longer be under it.
            menu = nil
            return nil
        default:
            return nil
        }
    }

    /// Keys and text while a row is typed in: Enter takes the first place, Esc stops typing.
    private mutating func typing(_ event: InputEvent, context: InputContext) -> [LayerAction]? {
        let near = context.camera.coordinate(for: ScreenPoint(x: context.camera.viewportSize.width / 2, y: context.camera.viewportSize.height / 2))
        switch event {
        case let .text(s):
            typed = String((typed + s).prefix(200))
            find(facts: context.facts, near: near, zoom: context.camera.zoom)
            return [.changed]
        case .keyDown(.backspace, _):
            if !typed.isEmpty { typed.removeLast() }
            find(facts: context.facts, near: near, zoom: context.camera.zoom)
            return [.changed]
        case .keyDown(.enter, _):
            return choices.isEmpty ? [.changed] : choose(0)
        case .keyDown(.escape, _):
            editing = nil; typed = ""; choices = []
            return [.changed]
        case .keyDown(_, let mods) where mods.contains(.control) || mods.contains(.alt):
            return nil
        case .keyDown:
            // Keys are the box's while it is typed in (the map's keys would move the map).
            return [.changed]
        case .pointerDown(.left, let p, _, _) where context.lastFrame.button(at: p)?.as(Button.self) == nil:
            editing = nil; typed = ""; choices = []
            return nil
        default:
            return nil
        }
    }

    public mutating func press(_ button: ButtonID, context: InputContext) -> [LayerAction]? {
        guard let b = button.as(Button.self) else { return nil }
        switch b {
        case let .row(i):
            let c = context.camera
            edit(i, facts: context.facts, near: c.coordinate(for: ScreenPoint(x: c.viewportSize.width / 2, y: c.viewportSize.height / 2)), zoom: c.zoom)
            return [.changed]
        case let .choice(k): return choose(k)
        case .calloutFrom, .calloutTo:
            guard let pin = context.facts.selectedPin else { return [.changed] }
            open()
            if let unavailable { return [.changed, .notice(unavailable)] }
            let name = pin.title.isEmpty ? nil : pin.title
            return (b == .calloutFrom ? set(from: pin.coordinate, name: name) : set(to: pin.coordinate, name: name)) + placesWanted
        case .menuPin:
            guard let m = menu else { return [.changed] }
            menu = nil
            return [.dropPin(m.place)]
        case .menuFrom, .menuTo, .menuVia:
            guard let m = menu else { return [.changed] }
            menu = nil
            open()
            if let unavailable { return [.changed, .notice(unavailable)] }
            return (b == .menuFrom ? set(from: m.place, name: m.name) : b == .menuTo ? set(to: m.place, name: m.name) : addVia(m.place, name: m.name)) + placesWanted
        case let .mode(m): return setMode(m)
        case .swap: return swap()
        case .clear: return clear()
        case .close: close(); return [.changed]
        case let .removeVia(i): return removeVia(i)
        case .reportError: return [.effect(.openLink(RouteLinks.fixTheMap))]
        case let .step(i):
            guard let step = steps[safe: i] else { return [.changed] }
            return [.goTo(step.at, zoom: max(context.camera.zoom, 17))]
        }
    }

    /// The waypoint whose pin is under `p` (its head above the tip, a wider area than drawn).
    func waypointHit(_ p: ScreenPoint, _ cam: Camera) -> Int? {
        for (i, w) in waypoints.enumerated().reversed() {
            guard let w else { continue }
            if Self.pinHit(cam.screenPoint(for: w)).contains(p) { return i }
        }
        return nil
    }

    /// Where a press takes the pin whose tip is at `tip` (a wider area than drawn, as pins do).
    static func pinHit(_ tip: ScreenPoint) -> ScreenRect {
        ScreenRect(x: tip.x - Pin.hitSize.width / 2, y: tip.y - Pin.hitSize.height + 6, width: Pin.hitSize.width, height: Pin.hitSize.height)
    }

    /// The place on the route's line within a few points of `p`, if any.
    func lineHit(_ p: ScreenPoint, _ cam: Camera) -> Coordinate? {
        guard let route, route.geometry.count >= 2 else { return nil }
        var best = 7.0 * 7.0, found: Coordinate?
        var a = cam.screenPoint(for: route.geometry[0])
        for c in route.geometry.dropFirst() {
            let b = cam.screenPoint(for: c)
            let dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy
            let t = len2 > 0 ? max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2)) : 0
            let qx = a.x + t * dx - p.x, qy = a.y + t * dy - p.y
            if qx * qx + qy * qy < best { best = qx * qx + qy * qy; found = cam.coordinate(for: ScreenPoint(x: a.x + t * dx, y: a.y + t * dy)) }
            a = b
        }
        return found
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
