import Foundation
import Testing
import TestPictures

/// Finding places in the real window: typing into the search box, geo: links on the
/// command line (as the desktop hands them over), and the zoom buttons.
@Suite(.serialized) struct SearchWindowTests {
    /// The mark of a place gone to: the orange pin's head just above the window's centre.
    static func marked(_ png: PNG) -> Bool {
        (270..<300).contains { y in let c = png.pixel(400, y); return c.r > 220 && c.g > 120 && c.g < 180 && c.b < 60 }
    }

    /// The window, logging its frames (MERIDIAN_FRAME_LOG) and writing what it drew whole to
    /// `drawList(dir)` (MERIDIAN_DRAWLIST_OUT), once it has drawn and come to rest.
    func window(_ x: Xvfb, _ dir: URL, _ args: [String]) throws -> (App, String) {
        let (app, id) = try startWindow(x, dir: dir, ["--size", "800x600", "--no-location"] + args,
                                        env: ["MERIDIAN_FRAME_LOG": "1", "MERIDIAN_DRAWLIST_OUT": Self.drawList(dir)])
        try app.waitUntilReady()
        return (app, id)
    }

    /// Where the window writes the draw list of its last frame drawn whole.
    static func drawList(_ dir: URL) -> String { dir.appendingPathComponent("drawlist.txt").path }

    /// Over Spain, and (issue 54) over 0°, 0° at z3, where Zuru, Nigeria is nearer than
    /// Zürich: across a continent a city comes before a town, however near the town.
    @Test(arguments: [("40,-3", "5"), ("0,0", "3")])
    func typingZurAndEnterFliesToZurich(center: String, zoom: String) throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("search")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (app, id) = try window(x, dir, ["--center", center, "--zoom", zoom])
        // The box open (and taking text) before the letters come.
        try app.settle(after: "/") { _ = try x.xdotool("key", "slash") }
        _ = try x.xdotool("type", "--delay", "60", "zur")
        // Enter once the results are drawn (the places are read when the box first opens).
        try waitUntil("Zürich among the results drawn", detail: { app.log.suffix(500).description }) {
            ((try? String(contentsOfFile: Self.drawList(dir), encoding: .utf8)) ?? "").contains(#"text("Zürich""#)
        }
        _ = try x.xdotool("key", "Return")
        // The flight takes about a second and a half (and the places may still be loading in
        // a debug build): done when the mark stands at the centre.
        let shot = try screenshot(x, to: dir.appendingPathComponent("zurich.png").path) { Self.marked($0) }
        let landed = Self.marked(shot)
        #expect(landed, "no mark at the centre")
        // The centre comes before the last of the zoom: the flight is over when the loop rests.
        #expect(app.settles(), "the flight did not come to rest")
        try quit(x, id, app)
        let view = try SavedView.read(dir)
        #expect(abs(view.center.lat - 47.3667) < 0.001 && abs(view.center.lon - 8.55) < 0.001, "\(view.center)")
        #expect(view.zoom == 12, "a city of 400,000 at z12: \(view.zoom)")
    }

    /// Letters typed right after Ctrl+F, before the box has drawn (one burst of keys, read
    /// from the display before text input was on), are the box's, none lost, none doubled,
    /// Shift kept. The app is held stopped while the keys are sent, so that it reads them all
    /// at once, as a busy frame does.
    @Test func lettersTypedWithCtrlFAreAllTheBoxs() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("search-burst")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (app, id) = try window(x, dir, ["--center", "40,-3", "--zoom", "5"])
        kill(app.process.processIdentifier, SIGSTOP)
        _ = try x.xdotool("key", "ctrl+f", "type", "--delay", "0", "Zurich")
        kill(app.process.processIdentifier, SIGCONT)
        // (The query as the box says it, whole: a letter lost or doubled never reads so.)
        #expect(app.readLog { $0.contains(#"search list "Zurich""#) }, "the box did not get all of Zurich: \(app.log.suffix(600))")
        try quit(x, id, app)
    }

    @Test func coordinatesTypedGoThereAndBadOnesDoNot() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("search-coordinates")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (app, id) = try window(x, dir, ["--center", "40,-3", "--zoom", "5"])
        try app.settle(after: "Ctrl+F") { _ = try x.xdotool("key", "ctrl+f") }
        try app.settle(after: "“95, 2” and Enter") {
            _ = try x.xdotool("type", "--delay", "40", "95, 2")
            _ = try x.xdotool("key", "Return")
        }
        for _ in 0..<5 { _ = try x.xdotool("key", "BackSpace") }
        _ = try x.xdotool("type", "--delay", "40", "48 51 24 N, 2 21 8 E")
        // The flight there is over when the loop rests.
        try app.settle(after: "the coordinates and Enter") { _ = try x.xdotool("key", "Return") }
        try quit(x, id, app)
        let view = try SavedView.read(dir)
        #expect(abs(view.center.lat - (48 + 51 / 60.0 + 24 / 3600.0)) < 1e-4 && abs(view.center.lon - (2 + 21 / 60.0 + 8 / 3600.0)) < 1e-4, "\(view.center)")
        #expect(view.zoom == 15)
    }

    @Test func aGeoLinkOpensThereWithAMark() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("geo-link")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (app, id) = try window(x, dir, ["geo:45.764,4.8357?z=13", "--tiles", "debug"])
        let shot = try screenshot(x, to: dir.appendingPathComponent("geo.png").path) { Self.marked($0) }
        let marked = Self.marked(shot)
        #expect(marked, "no mark above the centre")
        try quit(x, id, app)
        let view = try SavedView.read(dir)
        #expect(abs(view.center.lat - 45.764) < 1e-6 && abs(view.center.lon - 4.8357) < 1e-6 && view.zoom == 13, "\(view)")
    }

    @Test func tabReachesTheButtonsAndEnterPressesThem() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("tab-focus")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (app, id) = try window(x, dir, ["--center", "47,8", "--zoom", "6", "--tiles", "debug"])
        // The stops come in the order drawn: the map switcher, +, −, Search, ?. Tab until the
        // ring (blue, 3 points around the button) is around − (36 points square at 754, 87).
        func ringed(_ png: PNG) -> Bool { let c = png.pixel(752, 105); return c.b > 180 && c.r < 80 }
        var ok = false
        for i in 0..<6 where !ok {
            try app.settle(after: "Tab") { _ = try x.xdotool("key", "Tab") }
            ok = ringed(try screenshot(x, to: dir.appendingPathComponent("tab\(i).png").path, timeout: 0) { _ in true })
        }
        #expect(ok, "Tab never reached −")
        try app.settle(after: "Enter on −") { _ = try x.xdotool("key", "Return") }
        try quit(x, id, app)
        #expect(abs(try SavedView.read(dir).zoom - 5) < 1e-9)
    }

    @Test func clickingPlusZoomsInByOneAroundTheCentre() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("zoom-button")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (app, id) = try window(x, dir, ["--center", "47,8", "--zoom", "6", "--tiles", "debug"])
        // The + button: 36 points square, 10 from the right edge, 50 from the top.
        try app.settle(after: "the click on +") { _ = try x.xdotool("mousemove", "--window", id, "772", "68", "click", "1") }
        try quit(x, id, app)
        let view = try SavedView.read(dir)
        #expect(abs(view.zoom - 7) < 1e-9 && abs(view.center.lat - 47) < 1e-6 && abs(view.center.lon - 8) < 1e-6, "\(view)")
    }
}

/// Measuring in the real window, and copying a position to the clipboard.
@Suite(.serialized) struct MeasureWindowTests {
    /// Great-circle distance (haversine, mean Earth radius), written out again here.
    func haversine(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let r = Double.pi / 180, dLat = (b.0 - a.0) * r, dLon = (b.1 - a.1) * r
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.0 * r) * cos(b.0 * r) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6_371_008.8 * asin(min(1, h.squareRoot()))
    }

    @Test func measuringBetweenTwoPointsMatchesTheGeodesicAndKeepsTheLine() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("measure")
        defer { try? FileManager.default.removeItem(at: dir) }
        // z6 at 46° N: two clicks 300 px apart along the same row, and one 200 px below.
        let (app, id) = try SearchWindowTests().window(x, dir, ["--center", "46,8", "--zoom", "6", "--tiles", "debug"])
        try app.settle(after: "M") { _ = try x.xdotool("key", "m") }
        for (px, py) in [(250, 300), (550, 300), (550, 500)] {
            try app.settle(after: "the click at \(px), \(py)") { _ = try x.xdotool("mousemove", "--window", id, "\(px)", "\(py)", "click", "1") }
        }
        // Backspace takes the third point back; Ctrl+S keeps the line: the window says so once
        // the file is written.
        _ = try x.xdotool("key", "BackSpace")
        _ = try x.xdotool("key", "ctrl+s")
        try app.waitForLog("kept as")
        let file = dir.appendingPathComponent("meridian/tracks/measured-line.gpx")
        try waitUntil("\(file.path) written whole") { ((try? String(contentsOf: file, encoding: .utf8)) ?? "").contains("</gpx>") }
        try quit(x, id, app)
        let gpx = try String(contentsOf: file, encoding: .utf8)
        let points = gpx.components(separatedBy: "<trkpt ").dropFirst().compactMap { s -> (Double, Double)? in
            let lat = s.components(separatedBy: "lat=\"").dropFirst().first?.prefix { $0 != "\"" }
            let lon = s.components(separatedBy: "lon=\"").dropFirst().first?.prefix { $0 != "\"" }
            return lat.flatMap { Double($0) }.flatMap { a in lon.flatMap { Double($0) }.map { (a, $0) } }
        }
        #expect(points.count == 2, "\(gpx)")
        guard points.count == 2 else { return }
        // Where the clicks were, by the independent Mercator formula: 300 px at z6.
        let center = worldPoint(lat: 46, lon: 8), k = 64.0
        func coordinate(_ px: Double, _ py: Double) -> (Double, Double) {
            let wx = center.x + (px - 400) / k, wy = center.y + (py - 300) / k
            let lon = wx / 256 * 360 - 180
            let lat = atan(sinh(.pi * (1 - 2 * wy / 256))) * 180 / .pi
            return (lat, lon)
        }
        let a = coordinate(250, 300), b = coordinate(550, 300)
        #expect(abs(points[0].0 - a.0) < 1e-4 && abs(points[0].1 - a.1) < 1e-4 && abs(points[1].1 - b.1) < 1e-4, "\(points) vs \(a), \(b)")
        // The length the window showed is the geodesic between them, within 0.1 %.
        let shown = haversine(points[0], points[1]), expected = haversine(a, b)
        #expect(abs(shown - expected) / expected < 0.001, "\(shown) m vs \(expected) m")
        let said = app.wholeLog
        #expect(said.contains("kept as"), "\(said)")
    }

    @Test func ctrlCCopiesThePositionUnderThePointer() throws {
        guard let xclip = which("xclip") else { throw HarnessError("xclip is not installed (make test installs it)") }
        let x = try Xvfb()
        let dir = temporaryDirectory("copy")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (app, id) = try SearchWindowTests().window(x, dir, ["--center", "46,8", "--zoom", "6", "--tiles", "debug"])
        // One xdotool: the pointer is there before the keys come (the X server keeps the order).
        _ = try x.xdotool("mousemove", "--window", id, "400", "300", "key", "ctrl+c")
        try app.waitForLog("Copied ")
        // The app owns the clipboard while it runs: read it now.
        let clip = try run(xclip, ["-o", "-selection", "clipboard"], env: ["DISPLAY": x.display], timeout: 5)
        try quit(x, id, app)
        let parts = clip.stdout.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        #expect(parts.count == 2 && abs((parts[0] ?? 0) - 46) < 0.02 && abs((parts[1] ?? 0) - 8) < 0.02, "clipboard: \(clip.stdout)")
    }
}
