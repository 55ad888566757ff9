import Foundation
import Testing

/// Finding places in the real window: typing into the search box, geo: links on the
/// command line (as the desktop hands them over), and the zoom buttons.
@Suite(.serialized) struct SearchWindowTests {
    func window(_ x: Xvfb, _ dir: URL, _ args: [String]) throws -> (App, String) {
        let app = try App(["--size", "800x600", "--no-location"] + args,
                          env: ["DISPLAY": x.display, "WAYLAND_DISPLAY": "", "XDG_STATE_HOME": dir.path, "XDG_DATA_HOME": dir.path])
        let id = try x.waitForWindow("Meridian")
        try x.moveToOrigin(id)
        _ = try x.xdotool("windowfocus", "--sync", id)
        return (app, id)
    }

    @Test func typingZurAndEnterFliesToZurich() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("search")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (app, id) = try window(x, dir, ["--center", "40,-3", "--zoom", "5"])
        Thread.sleep(forTimeInterval: 1)
        _ = try x.xdotool("key", "slash")
        _ = try x.xdotool("type", "--delay", "60", "zur")
        Thread.sleep(forTimeInterval: 0.5)
        _ = try x.xdotool("key", "Return")
        // The flight takes about a second and a half.
        Thread.sleep(forTimeInterval: 3)
        try quit(x, id, app)
        let view = try SavedView.read(dir)
        #expect(abs(view.center.lat - 47.3667) < 0.001 && abs(view.center.lon - 8.55) < 0.001, "\(view.center)")
        #expect(view.zoom == 12, "a city of 400,000 at z12: \(view.zoom)")
    }

    @Test func coordinatesTypedGoThereAndBadOnesDoNot() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("search-coordinates")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (app, id) = try window(x, dir, ["--center", "40,-3", "--zoom", "5"])
        Thread.sleep(forTimeInterval: 1)
        _ = try x.xdotool("key", "ctrl+f")
        _ = try x.xdotool("type", "--delay", "40", "95, 2")
        _ = try x.xdotool("key", "Return")
        Thread.sleep(forTimeInterval: 0.5)
        for _ in 0..<5 { _ = try x.xdotool("key", "BackSpace") }
        _ = try x.xdotool("type", "--delay", "40", "48 51 24 N, 2 21 8 E")
        _ = try x.xdotool("key", "Return")
        Thread.sleep(forTimeInterval: 3)
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
        // The mark: the orange pin's head just above the centre.
        func marked(_ png: PNG) -> Bool {
            (270..<300).contains { y in let c = png.pixel(400, y); return c.r > 220 && c.g > 120 && c.g < 180 && c.b < 60 }
        }
        let shot = try screenshot(x, to: dir.appendingPathComponent("geo.png").path) { marked($0) }
        #expect(marked(shot), "no mark above the centre")
        try quit(x, id, app)
        let view = try SavedView.read(dir)
        #expect(abs(view.center.lat - 45.764) < 1e-6 && abs(view.center.lon - 4.8357) < 1e-6 && view.zoom == 13, "\(view)")
    }

    @Test func clickingPlusZoomsInByOneAroundTheCentre() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("zoom-button")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (app, id) = try window(x, dir, ["--center", "47,8", "--zoom", "6", "--tiles", "debug"])
        Thread.sleep(forTimeInterval: 1)
        // The + button: 36 points square, 10 from the right edge, 50 from the top.
        _ = try x.xdotool("mousemove", "--window", id, "772", "68", "click", "1")
        Thread.sleep(forTimeInterval: 1)
        try quit(x, id, app)
        let view = try SavedView.read(dir)
        #expect(abs(view.zoom - 7) < 1e-9 && abs(view.center.lat - 47) < 1e-6 && abs(view.center.lon - 8) < 1e-6, "\(view)")
    }
}
