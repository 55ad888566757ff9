import Foundation
import Testing
import TestPictures

/// Turning the map in the real window, driven by xdotool: Shift+→ turns and the compass
/// shows, a click on it brings north back, a right-drag turns; what the app keeps (the view
/// state, the pins file) says where it ended. Each step waits for the frames it causes to be
/// drawn and the loop to rest (the frame log), never for a time.
@Suite(.serialized)
struct TurnWindowTests {
    static let lat = 10.0, lon = 20.0, zoom = 5.0

    /// The view state as the app leaves it, with the bearing (absent: north-up).
    struct View: Decodable {
        var bearing: Double?
        static func read(_ dir: URL) throws -> View {
            try JSONDecoder().decode(View.self, from: Data(contentsOf: dir.appendingPathComponent("meridian/view.json")))
        }
    }

    func start(_ x: Xvfb, dir: URL, _ more: [String] = []) throws -> (App, String) {
        let (app, id) = try startWindow(x, dir: dir, ["--center", "\(Self.lat),\(Self.lon)", "--zoom", "\(Self.zoom)", "--size", "800x600",
                                                      "--tiles", "debug", "--no-location"] + more,
                                        env: ["MERIDIAN_FRAME_LOG": "1"])
        try app.waitUntilReady()
        return (app, id)
    }

    /// The compass's plate, under the zoom buttons and the ? button at the window's right.
    static let compass = (x: 754, y: 168, side: 36)

    /// Red needle pixels on the compass (none while north-up: no compass is drawn).
    static func needle(_ png: PNG) -> Int {
        var n = 0
        for y in compass.y..<compass.y + compass.side { for x in compass.x..<compass.x + compass.side {
            let p = png.pixel(x, y)
            if p.r > 180 && p.g < 90 && p.b < 90 { n += 1 }
        } }
        return n
    }

    /// Where the red half of the needle lies from the compass's centre: its direction,
    /// degrees clockwise from straight up.
    static func needleDirection(_ png: PNG) -> Double {
        var sx = 0.0, sy = 0.0
        let c = (x: Double(compass.x) + Double(compass.side) / 2, y: Double(compass.y) + Double(compass.side) / 2)
        for y in compass.y..<compass.y + compass.side { for x in compass.x..<compass.x + compass.side {
            let p = png.pixel(x, y)
            if p.r > 180 && p.g < 90 && p.b < 90 { sx += Double(x) + 0.5 - c.x; sy += Double(y) + 0.5 - c.y }
        } }
        var d = atan2(sx, -sy) * 180 / .pi
        if d < 0 { d += 360 }
        return d
    }

    @Test func shiftRightTurnsTheCompassShowsAndItsClickBringsNorthBack() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("turn-keys")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (app, id) = try start(x, dir: dir)
        let before = try screenshot(x, to: dir.appendingPathComponent("north.png").path) { _ in true }
        #expect(Self.needle(before) == 0, "no compass north-up")
        // Three steps of 15°: the top of the view faces 45° (north-east).
        try app.settle(after: "Shift+→ ×3") { _ = try x.xdotool("key", "shift+Right", "shift+Right", "shift+Right") }
        let turned = try screenshot(x, to: dir.appendingPathComponent("turned.png").path) { Self.needle($0) > 20 }
        #expect(Self.needle(turned) > 20, "the compass shows")
        // Its needle points north: 45° anticlockwise from straight up.
        let d = Self.needleDirection(turned)
        #expect(abs(d - 315) < 12, "the needle points at \(d)°")
        // The map turned: the debug grid's lines are no longer square to the window.
        #expect(before.distinctColours != turned.distinctColours || before.pixel(200, 200) != turned.pixel(200, 200))
        // A click on the compass: north-up again, and the compass goes.
        try app.settle(after: "a click on the compass") {
            _ = try x.xdotool("mousemove", "--window", id, "\(Self.compass.x + Self.compass.side / 2)", "\(Self.compass.y + Self.compass.side / 2)",
                              "click", "1")
        }
        let back = try screenshot(x, to: dir.appendingPathComponent("back.png").path) { Self.needle($0) == 0 }
        #expect(Self.needle(back) == 0, "the compass went")
        try quit(x, id, app)
        #expect(try View.read(dir).bearing == nil, "north-up is kept as no bearing")
    }

    @Test func aRightDragTurnsByTheAngleSweptAndIsKept() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("turn-drag")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (app, id) = try start(x, dir: dir)
        // From straight right of the centre (400, 300) to below and right: atan(100/200) clockwise.
        try app.settle(after: "a right-drag") {
            _ = try x.xdotool("mousemove", "--window", id, "600", "300", "mousedown", "3", "mousemove", "--window", id, "600", "350",
                              "mousemove", "--window", id, "600", "400", "mouseup", "3")
        }
        let shot = try screenshot(x, to: dir.appendingPathComponent("dragged.png").path) { Self.needle($0) > 20 }
        #expect(Self.needle(shot) > 20, "the compass shows")
        // No menu: a drag is not a right-click (the menu's white plate would be at the press).
        #expect(shot.pixel(610, 310) != (255, 255, 255))
        try quit(x, id, app)
        let swept = atan2(100.0, 200.0) * 180 / .pi
        let bearing = try #require(try View.read(dir).bearing)
        #expect(abs(bearing - (360 - swept)) < 1e-6, "bearing \(bearing)")
    }

    @Test func aPinDroppedOnATurnedMapLandsUnderTheDropPoint() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("turn-pin")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("pins.geojson")
        try Data(PinWindowTests.original.utf8).write(to: file)
        let bearing = 30.0
        let (app, id) = try start(x, dir: dir, ["--pins", file.path, "--bearing", "\(bearing)"])
        // The pin at the centre stands upright: its head 26 points above its tip.
        _ = try x.xdotool("mousemove", "--window", id, "400", "274", "mousedown", "1")
        try app.waitForLog("PinDragState.starting")
        _ = try x.xdotool("mousemove_relative", "--", "80", "40")
        try app.waitForLog("PinDragState.dragging")
        _ = try x.xdotool("mouseup", "1")
        try app.waitForLog("PinDragState.none")
        try quit(x, id, app)
        let pins = try PinWindowTests.read(file)
        #expect(pins.count == 1)
        guard let pin = pins.first else { return }
        // Dropped 80 right and 40 down on the screen, from the centre; on a map whose top faces
        // 30°, that is this far east and south (in pixels at the zoom).
        let b = bearing * .pi / 180
        let east = 80 * cos(b) - 40 * sin(b), south = 80 * sin(b) + 40 * cos(b)
        let o = PinWindowTests.offset(pin)
        #expect(abs(o.x - east) <= 1 && abs(o.y - south) <= 1, "landed \(o), expected (\(east), \(south))")
        #expect(try View.read(dir).bearing == bearing)
    }
}
