import Foundation
import Testing
import TestPictures

/// Pins in the real window, driven by xdotool, checked through the pins file the app saves.
@Suite(.serialized)
struct PinWindowTests {
    /// The test pin, at the window's centre when the app starts: its tip at (400, 300).
    static let lat = 10.0, lon = 20.0, zoom = 5.0
    static let head = (x: 400, y: 300 - 26)

    struct FilePin: Equatable { var id: String; var title: String; var lat: Double; var lon: Double }

    static func read(_ url: URL) throws -> [FilePin] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        return (json["features"] as! [[String: Any]]).map { f in
            let c = (f["geometry"] as! [String: Any])["coordinates"] as! [Double]
            let p = f["properties"] as! [String: Any]
            return FilePin(id: p["id"] as! String, title: p["title"] as! String, lat: c[1], lon: c[0])
        }
    }

    /// Screen offset of `p` from the test pin's tip, in pixels at the test zoom.
    static func offset(_ p: FilePin) -> (x: Double, y: Double) {
        let a = worldPoint(lat: p.lat, lon: p.lon), b = worldPoint(lat: lat, lon: lon), k = pow(2, zoom)
        return ((a.x - b.x) * k, (a.y - b.y) * k)
    }

    static let original = """
    {"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[20.0,10.0]},"properties":{"id":"test-pin","title":"Test pin","color":"#FF3B30"}}]}
    """

    func start(_ x: Xvfb, dir: URL, pins: String = original) throws -> (App, String, URL) {
        let file = dir.appendingPathComponent("pins.geojson")
        try Data(pins.utf8).write(to: file)
        let app = try App(["--center", "\(Self.lat),\(Self.lon)", "--zoom", "\(Self.zoom)", "--size", "800x600", "--tiles", "debug",
                           "--no-location", "--pins", file.path],
                          env: ["DISPLAY": x.display, "WAYLAND_DISPLAY": "", "XDG_STATE_HOME": dir.path, "XDG_DATA_HOME": dir.path,
                                "MERIDIAN_FRAME_LOG": "1"])
        let id = try app.window(on: x)
        try x.moveToOrigin(id)
        _ = try x.xdotool("windowfocus", "--sync", id)
        try app.waitForLog("the first frame") { _ in app.presents > 0 }
        return (app, id, file)
    }

    func quit(_ x: Xvfb, _ app: App) throws {
        _ = try x.xdotool("key", "ctrl+q")
        #expect(app.waitForExit(timeout: 10), "Ctrl+Q did not quit")
        #expect(app.process.terminationStatus == 0)
    }

    /// Waits until the saved file satisfies `ok` (saves happen off the frame thread); throws,
    /// with what the file last held, if it never does.
    func waitFor(_ file: URL, _ what: String, _ ok: ([FilePin]) -> Bool) throws -> [FilePin] {
        var last: [FilePin] = []
        try waitUntil("\(file.lastPathComponent) to hold \(what)", detail: { "It holds \(last)" }) {
            guard let pins = try? Self.read(file) else { return false }
            last = pins
            return ok(pins)
        }
        return last
    }

    /// Presses the pin's head and holds it until the pin lifts, optionally moves, optionally
    /// presses Esc, releases; then waits until the pin is down (each step as the frame log's
    /// pin events say).
    func drag(_ x: Xvfb, _ app: App, _ id: String, by d: (Int, Int)?, escape: Bool = false) throws {
        // One xdotool: the pointer is on the head before the press (the X server keeps the order).
        _ = try x.xdotool("mousemove", "--window", id, "\(Self.head.x)", "\(Self.head.y)", "mousedown", "1")
        // gesture: held still until the pin lifts (the app lifts it once held 0.25 s).
        try app.waitForLog("PinDragState.starting")
        if let d {
            _ = try x.xdotool("mousemove_relative", "--", "\(d.0)", "\(d.1)")
            try app.waitForLog("PinDragState.dragging")
        }
        if escape {
            _ = try x.xdotool("key", "Escape")
            try app.waitForLog("PinDragState.canceling")
        }
        _ = try x.xdotool("mouseup", "1")
        // The drop (or the float back) takes 0.3 s.
        try app.waitForLog("PinDragState.none")
    }

    @Test func pressHoldMoveReleaseMovesThePinByExactlyTheDrag() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("pin-drag")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (app, id, file) = try start(x, dir: dir)
        try drag(x, app, id, by: (80, 40))
        try quit(x, app)
        let pins = try Self.read(file)
        #expect(pins.count == 1 && pins[0].id == "test-pin" && pins[0].title == "Test pin")
        let o = Self.offset(pins[0])
        #expect(abs(o.x - 80) <= 1 && abs(o.y - 40) <= 1, "moved by \(o)")
        // The view did not pan: a press on a pin is the pin's.
        let v = try SavedView.read(dir)
        #expect(abs(v.center.lat - Self.lat) < 1e-9 && abs(v.center.lon - Self.lon) < 1e-9)
        let log = app.wholeLog
        for state in ["starting", "dragging", "ending", "none"] { #expect(log.contains("PinDragState.\(state)"), "no \(state) in the log") }
    }

    @Test("Esc before release, and press-hold-release without moving, leave the file as it was", arguments: [true, false])
    func unchanged(escape: Bool) throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("pin-still")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (app, id, file) = try start(x, dir: dir)
        try drag(x, app, id, by: escape ? (80, 40) : nil, escape: escape)
        try quit(x, app)
        // Not a byte changed: nothing was saved.
        #expect(try String(contentsOf: file, encoding: .utf8) == Self.original)
        let log = app.wholeLog
        #expect(log.contains(escape ? "PinDragState.canceling" : "PinDragState.ending"))
    }

    @Test func rightClickAddsDeleteRemovesUndoRestores() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("pin-add")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (app, id, file) = try start(x, dir: dir)
        // (Clear of the buttons at the right edge: a right-click on one adds no pin under it.)
        // One xdotool: the pointer is there before the click (the X server keeps the order).
        // The right-click menu's first item: "Drop a pin here" (at the point right-clicked).
        try pickFromMenu(x, id, at: (520, 150), item: 0, dir: dir)
        let added = try waitFor(file, "2 pins") { $0.count == 2 }
        #expect(added.count == 2)
        guard let new = added.first(where: { $0.id != "test-pin" }) else { return }
        let o = Self.offset(new)
        #expect(abs(o.x - 120) <= 1 && abs(o.y - (-150)) <= 1, "added at \(o)")
        _ = try x.xdotool("key", "Delete")
        #expect(try waitFor(file, "1 pin") { $0.count == 1 }.map(\.id) == ["test-pin"])
        _ = try x.xdotool("key", "ctrl+z")
        #expect(try waitFor(file, "2 pins again") { $0.count == 2 }.contains(new))
        try quit(x, app)
        #expect(try Self.read(file).contains(new))
    }

    @Test func anUnreadableFileIsMovedAsideAndTheWindowSaysSo() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("pin-corrupt")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (app, id, file) = try start(x, dir: dir, pins: "{\"type\": \"FeatureCollection\", \"features\": [{")
        // The notice: a dark plate at the top centre of the window (a busy machine may take a
        // moment to show it).
        func noticeShown(_ png: PNG) -> Bool { png.darkFraction(x: 300, y: 8, w: 200, h: 24, level: 80) > 0.5 }
        let png = try screenshot(x, to: dir.appendingPathComponent("shot.png").path) { noticeShown($0) }
        // A right-click's menu adds a pin: the new file is written, the corrupt one is kept aside.
        // The right-click menu's first item: "Drop a pin here" (at the point right-clicked).
        try pickFromMenu(x, id, at: (300, 300), item: 0, dir: dir)
        #expect(try waitFor(file, "1 pin") { $0.count == 1 }.count == 1)
        try quit(x, app)
        let aside = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("pins.geojson.corrupt-") }
        #expect(aside.count == 1)
        #expect(try String(contentsOf: dir.appendingPathComponent(aside[0]), encoding: .utf8) == "{\"type\": \"FeatureCollection\", \"features\": [{")
        #expect(app.wholeLog.contains("moved aside to pins.geojson.corrupt-"))
        let p = png.pixel(400, 16)
        #expect(p.r < 70 && p.g < 70 && p.b < 70, "top centre is \(p)")
        #expect(noticeShown(png))
    }
}
