import Foundation
@testable import MapCore
import MapGeometry
import Testing

/// The map as the window drives it, seen from its pins: a session whose pins' layer takes
/// the input meant for the pins, and whatever else the camera.
struct PinMap {
    var session: MapSession
    /// The pins' events the session passed on, not yet taken.
    private var heard: [PinEvent] = []

    init(camera: Camera, pins: [Pin]) {
        session = MapSession(scene: Scene(), camera: camera)
        session.pins = pins
    }

    var camera: Camera { session.camera }
    var pins: PinEditor { session.scene.pins }
    var imperialUnits: Bool { session.imperialUnits }
    var isAutoPanning: Bool { session.scene.layer(PinsLayer.self)!.isAutoPanning(in: camera.viewportSize) }
    func isAnimating(at t: Double) -> Bool { session.isAnimating(at: t) }

    mutating func handle(_ event: InputEvent, at t: Double) { hear(session.handle(event, at: t)) }
    mutating func advance(to t: Double) { session.advance(to: t); hear(session.takeEffects()) }
    mutating func finishPinGestures(at t: Double) { session.finish(at: t); hear(session.takeEffects()) }

    mutating func takePinEvents() -> [PinEvent] {
        hear(session.takeEffects())
        defer { heard.removeAll() }
        return heard
    }

    private mutating func hear(_ effects: [SessionEffect]) {
        for case let .pin(e) in effects { heard.append(e) }
    }
}

/// The pins as a user edits them through the map's input: press, drag, drop, add, delete,
/// rename, undo, redo — and what the embedder hears of it.
struct PinEditorTests {
    static let paris = Coordinate(latitude: 48.8566, longitude: 2.3522)

    /// A 800×600 view at z10 centred on Paris, with one pin there.
    func controller(pins: [Pin] = [Pin(id: "p", coordinate: paris, title: "Paris")]) -> PinMap {
        PinMap(camera: Camera(center: Self.paris, zoom: 10, viewportSize: ScreenSize(width: 800, height: 600)), pins: pins)
    }

    let head = ScreenPoint(x: 400, y: 300 - 26)   // the pin's head, 26 points above its tip

    @Test func pressHoldMoveReleaseMovesThePinByTheDragAndNeverPans() {
        var c = controller()
        let camera = c.camera
        c.handle(.pointerDown(.left, head, clicks: 1, []), at: 0)
        c.advance(to: 0.3)                                     // held 0.25 s: lifted
        #expect(c.pins.drag.state == .starting)
        c.handle(.pointerMoved(head + ScreenPoint(x: 80, y: 40)), at: 0.4)
        c.handle(.pointerUp(.left, head + ScreenPoint(x: 80, y: 40)), at: 0.5)
        c.advance(to: 0.85)                                    // dropped
        #expect(c.camera == camera)
        let moved = c.camera.screenPoint(for: c.pins.pin("p")!.coordinate)
        #expect(abs(moved.x - 480) < 1e-6 && abs(moved.y - 340) < 1e-6)
        let events = c.takePinEvents()
        #expect(events.contains(.dragStateChanged(pin: "p", .starting)))
        #expect(events.contains(.dragStateChanged(pin: "p", .dragging)))
        #expect(events.contains(.dragStateChanged(pin: "p", .ending)))
        #expect(events.last == .moved(c.pins.pin("p")!, from: Self.paris))
        // Undo puts it back; redo moves it again.
        c.handle(.keyDown(.letter("z"), .control), at: 1)
        #expect(c.pins.pin("p")!.coordinate == Self.paris)
        c.handle(.keyDown(.letter("z"), [.control, .shift]), at: 1.1)
        #expect(abs(c.camera.screenPoint(for: c.pins.pin("p")!.coordinate).x - 480) < 1e-6)
    }

    @Test("Esc, a lost focus and a second button cancel a drag: the pin goes home", arguments: ["esc", "focus", "right"])
    func cancelsGoHome(how: String) {
        var c = controller()
        c.handle(.pointerDown(.left, head, clicks: 1, []), at: 0)
        c.handle(.pointerMoved(head + ScreenPoint(x: 50, y: 0)), at: 0.1)
        #expect(c.pins.drag.state == .dragging)
        switch how {
        case "esc": c.handle(.keyDown(.escape, []), at: 0.2)
        case "focus": c.handle(.focusLost, at: 0.2)
        default: c.handle(.pointerDown(.right, head, clicks: 1, []), at: 0.2)
        }
        #expect(c.pins.drag.state == .canceling)
        // Floating back: halfway, the ground mark is between where it was and home.
        let mid = c.camera.screenPoint(for: c.pins.drag.ground(at: 0.35)!)
        #expect(mid.x > 400.5 && mid.x < 449.5)
        c.advance(to: 0.6)
        #expect(c.pins.drag.state == .none && c.pins.pin("p")!.coordinate == Self.paris)
        #expect(c.pins.pins.count == 1)                         // the right button added nothing
        #expect(!c.takePinEvents().contains { if case .moved = $0 { return true } else { return false } })
    }

    @Test func aClickSelectsAClickOnTheMapDeselects() {
        var c = controller()
        c.handle(.pointerDown(.left, head, clicks: 1, []), at: 0)
        c.handle(.pointerUp(.left, head), at: 0.1)
        #expect(c.pins.selected == "p" && c.pins.drag.state == .none)
        c.handle(.pointerDown(.left, ScreenPoint(x: 100, y: 100), clicks: 1, []), at: 1)
        c.handle(.pointerUp(.left, ScreenPoint(x: 100, y: 100)), at: 1.1)
        #expect(c.pins.selected == nil)
        #expect(c.takePinEvents() == [.selected(pin: "p"), .selected(pin: nil)])
    }

    @Test func rightClickAddsAtThePointerDeleteRemovesUndoRestores() {
        var c = controller(pins: [])
        let at = ScreenPoint(x: 620, y: 170)
        c.handle(.pointerDown(.right, at, clicks: 1, []), at: 0)
        c.handle(.pointerUp(.right, at), at: 0)   // a click, not a turn: the pin drops now
        #expect(c.pins.pins.count == 1)
        let added = c.pins.pins[0]
        #expect(c.pins.selected == added.id)
        let p = c.camera.screenPoint(for: added.coordinate)
        #expect(abs(p.x - at.x) < 1e-6 && abs(p.y - at.y) < 1e-6)
        #expect(c.isAnimating(at: 0.1) && !c.isAnimating(at: 0.31))  // the drop animation
        c.handle(.keyDown(.delete, []), at: 1)
        #expect(c.pins.pins.isEmpty && c.pins.selected == nil)
        c.handle(.keyDown(.letter("z"), .control), at: 2)
        #expect(c.pins.pins == [added])
        c.handle(.keyDown(.letter("y"), .control), at: 3)
        #expect(c.pins.pins.isEmpty)
        #expect(c.takePinEvents().filter(\.changesPins) == [.added(added), .deleted(added), .added(added), .deleted(added)])
    }

    @Test func renameSelectsTheOldTitleTypingReplacesItEnterCommitsEscCancels() {
        var c = controller()
        c.handle(.pointerDown(.left, head, clicks: 1, []), at: 0)
        c.handle(.pointerUp(.left, head), at: 0.1)
        c.handle(.keyDown(.f2, []), at: 1)
        #expect(c.pins.renameText == "Paris" && c.pins.renameSelectsAll)
        c.handle(.text("Lutè"), at: 1.1)
        c.handle(.keyDown(.letter("u"), []), at: 1.15)          // keys go to the title, not the map
        c.handle(.text("ce"), at: 1.2)
        c.handle(.keyDown(.backspace, []), at: 1.3)
        c.handle(.text("e"), at: 1.4)
        #expect(c.pins.renameText == "Lutèce" && !c.imperialUnits)
        c.handle(.keyDown(.enter, []), at: 1.5)
        #expect(c.pins.pin("p")!.title == "Lutèce" && c.pins.renameText == nil)
        c.handle(.keyDown(.f2, []), at: 2)
        c.handle(.text("Nope"), at: 2.1)
        c.handle(.keyDown(.escape, []), at: 2.2)
        #expect(c.pins.pin("p")!.title == "Lutèce")
        c.handle(.keyDown(.letter("z"), .control), at: 3)
        #expect(c.pins.pin("p")!.title == "Paris")
    }

    @Test func doubleClickOnTheCalloutTitleRenames() {
        var c = controller()
        c.handle(.pointerDown(.left, head, clicks: 1, []), at: 0)
        c.handle(.pointerUp(.left, head), at: 0.1)
        c.session.lastFrame.calloutFrame = ScreenRect(x: 340, y: 200, width: 120, height: 62)
        c.session.lastFrame.calloutTitleFrame = ScreenRect(x: 340, y: 200, width: 120, height: 30)
        let camera = c.camera
        c.handle(.pointerDown(.left, ScreenPoint(x: 400, y: 240), clicks: 2, []), at: 1) // the coordinates line
        #expect(c.pins.renameText == nil && c.camera == camera)  // no rename, no zoom
        c.handle(.pointerDown(.left, ScreenPoint(x: 400, y: 210), clicks: 2, []), at: 2)
        #expect(c.pins.renameText == "Paris")
    }

    @Test func carryingAPinNearAnEdgePansTheMapAndTheLandingFollows() {
        var c = controller()
        c.handle(.pointerDown(.left, head, clicks: 1, []), at: 0)
        let edge = ScreenPoint(x: 795, y: 274)
        c.handle(.pointerMoved(edge), at: 0.1)
        let before = c.camera.center
        #expect(c.isAutoPanning)
        for i in 1...10 { c.advance(to: 0.1 + Double(i) * 0.016) }
        #expect(c.camera.center.x > before.x)                  // the view travels right
        #expect(c.camera.center.y == before.y)
        // The landing stays under the pointer (minus the grab offset) as the map moves.
        let land = c.camera.screenPoint(for: c.pins.drag.landing!)
        #expect(abs(land.x - 795) < 1e-6 && abs(land.y - 300) < 1e-6)
        c.handle(.pointerMoved(ScreenPoint(x: 400, y: 300)), at: 0.3)
        #expect(!c.isAutoPanning)
    }

    @Test func theTopmostPinIsHitAndPinsArePaintedNorthToSouth() {
        let north = Pin(id: "n", coordinate: Coordinate(latitude: 48.87, longitude: 2.3522), title: "N")
        let south = Pin(id: "s", coordinate: Coordinate(latitude: 48.85, longitude: 2.3522), title: "S")
        let e = PinEditor(pins: [south, Pin(id: "p", coordinate: Self.paris, title: "P"), north])
        #expect(e.pins.map(\.id) == ["n", "p", "s"])
        let camera = Camera(center: Self.paris, zoom: 10, viewportSize: ScreenSize(width: 800, height: 600))
        // At z10 the three are a few points apart: the southern one is on top and is hit.
        #expect(e.hit(ScreenPoint(x: 400, y: 290), camera: camera)?.id == "s")
        #expect(e.hit(ScreenPoint(x: 400 + 23, y: 290), camera: camera) == nil)
        #expect(e.hit(ScreenPoint(x: 400 + 21, y: 290), camera: camera)?.id == "s")   // 44-pt hit area
    }

    @Test func historyForgetsRedoOnANewEditAndKeepsAThousand() {
        var h = PinHistory()
        let a = Pin(id: "a", coordinate: Self.paris, title: "A")
        h.record(.add(a))
        #expect(h.undo() == .delete(a))
        h.record(.rename(pin: "a", from: "A", to: "B"))
        #expect(h.redo() == nil)
        for i in 0..<1500 { h.record(.rename(pin: "a", from: "\(i)", to: "\(i + 1)")) }
        #expect(h.undoStack.count == PinHistory.limit)
    }

    @Test func quittingMidDropLandsAndMidDragGoesBack() {
        var c = controller()
        c.handle(.pointerDown(.left, head, clicks: 1, []), at: 0)
        c.handle(.pointerMoved(head + ScreenPoint(x: 30, y: 0)), at: 0.1)
        c.handle(.pointerUp(.left, head + ScreenPoint(x: 30, y: 0)), at: 0.2)
        c.finishPinGestures(at: 0.25)                           // still falling
        #expect(abs(c.camera.screenPoint(for: c.pins.pin("p")!.coordinate).x - 430) < 1e-6)
        var d = controller()
        d.handle(.pointerDown(.left, head, clicks: 1, []), at: 0)
        d.handle(.pointerMoved(head + ScreenPoint(x: 30, y: 0)), at: 0.1)
        d.finishPinGestures(at: 0.2)                            // still in the air
        #expect(d.pins.pin("p")!.coordinate == Self.paris && d.pins.drag.state == .none)
    }
}

extension PinEditorTests {
    @Test func aClickOnABubbleZoomsInTwoLevelsAroundItAndHiddenPinsCannotBePressed() {
        var c = controller()
        c.session.lastFrame.pinClusters = [PlacedPinCluster(frame: ScreenRect(x: 600, y: 100, width: 30, height: 30), count: 2)]
        c.session.lastFrame.pressablePins = []                  // the test pin is inside a bubble
        c.handle(.pointerDown(.left, ScreenPoint(x: 615, y: 115), clicks: 1, []), at: 0)
        c.advance(to: 1)
        #expect(abs(c.camera.zoom - 12) < 1e-9)
        var d = controller()
        d.session.lastFrame.pressablePins = []
        d.handle(.pointerDown(.left, head, clicks: 1, []), at: 0)
        #expect(!d.pins.drag.isActive)                          // the press pans the map instead
    }
}
