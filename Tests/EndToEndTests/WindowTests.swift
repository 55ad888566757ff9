import Foundation
import Testing
import TestPictures

/// The real binary in a real X server, driven by xdotool like a person with a mouse.
@Suite(.serialized)
struct WindowTests {
    /// Starts the app at 0,0 z3 in an 800×600 window at the screen's top-left (no position,
    /// live or fixed, unless `extra` asks for overlays), once it has presented a frame. Its
    /// frame log is on (MERIDIAN_FRAME_LOG) for `App.settles`.
    func start(_ x: Xvfb, state: URL, extra: [String] = ["--no-location"], env: [String: String] = [:]) throws -> (App, String) {
        let app = try App(["--center", "0,0", "--zoom", "3", "--size", "800x600", "--tiles", "debug"] + extra,
                          env: ["DISPLAY": x.display, "WAYLAND_DISPLAY": "", "XDG_STATE_HOME": state.path,
                                "MERIDIAN_FRAME_LOG": "1"].merging(env) { $1 })
        let id = try app.window(on: x)
        try x.moveToOrigin(id)
        #expect(app.readLog { _ in app.frameEvents.contains { $0.kind == "present" } }, "no frame")
        return (app, id)
    }

    @Test func titleStartsWithMeridian() throws {
        let x = try Xvfb()
        let state = temporaryDirectory("title")
        defer { try? FileManager.default.removeItem(at: state) }
        let (app, id) = try start(x, state: state)
        #expect(try x.xdotool("getwindowname", id).hasPrefix("Meridian"))
        // The window class names the .desktop file, so docks show Meridian's icon.
        let wmClass = try run(which("xprop")!, ["-id", id, "WM_CLASS"], env: ["DISPLAY": x.display])
        #expect(wmClass.stdout.contains("\"io.github.meridian.Meridian\""), "\(wmClass.stdout)")
        try quit(x, id, app)
    }

    @Test func slowDragPansByExactlyThePointersPath() throws {
        let x = try Xvfb()
        let state = temporaryDirectory("pan")
        defer { try? FileManager.default.removeItem(at: state) }
        let (app, id) = try start(x, state: state)
        // One xdotool: the pointer is there before the press (the X server keeps the order).
        _ = try x.xdotool("mousemove", "--window", id, "400", "300", "mousedown", "1")
        for i in 1...20 {
            _ = try x.xdotool("mousemove", "--window", id, "\(400 + i * 5)", "\(300 + i * 5 / 2)")
            Thread.sleep(forTimeInterval: 0.03) // gesture: a slow drag, 5 px each 30 ms (the app measures the pointer's speed)
        }
        Thread.sleep(forTimeInterval: 0.4) // gesture: held still, so the release is not a flick (speed over the last 100 ms)
        _ = try x.xdotool("mouseup", "1")
        #expect(app.settles())
        try quit(x, id, app)
        let v = try SavedView.read(state)
        let p = worldPoint(lat: v.center.lat, lon: v.center.lon)
        // The centre moved by (−100, −50) px of map at z3 (8 px per world unit).
        #expect(abs((p.x - 128) * 8 - (-100)) <= 1, "dx \((p.x - 128) * 8)")
        #expect(abs((p.y - 128) * 8 - (-50)) <= 1, "dy \((p.y - 128) * 8)")
        #expect(v.zoom == 3)
    }

    @Test func oneWheelNotchZoomsHalfALevelAroundTheCursor() throws {
        let x = try Xvfb()
        let state = temporaryDirectory("wheel")
        defer { try? FileManager.default.removeItem(at: state) }
        let (app, id) = try start(x, state: state)
        // One xdotool: the pointer is there before the notch (the X server keeps the order).
        _ = try x.xdotool("mousemove", "--window", id, "600", "300", "click", "4") // wheel up
        #expect(app.settles(), "the zoom did not come to rest")
        try quit(x, id, app)
        let v = try SavedView.read(state)
        #expect(abs(v.zoom - 3.5) < 1e-9)
        // What was under the cursor at z3 — world (128 + 200/8, 128) — is still under it.
        let c = worldPoint(lat: v.center.lat, lon: v.center.lon)
        let k = pow(2, v.zoom)
        let underX = c.x + (600 - 400) / k, underY = c.y + (300 - 300) / k
        #expect(abs((underX - 153) * k) <= 1 && abs((underY - 128) * k) <= 1)
    }

    @Test func theLastViewIsRestoredAtTheNextStart() throws {
        let x = try Xvfb()
        let state = temporaryDirectory("restore")
        defer { try? FileManager.default.removeItem(at: state) }
        let saved = state.appendingPathComponent("meridian/view.json")
        try FileManager.default.createDirectory(at: saved.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"center":{"lat":51.5,"lon":-0.12},"zoom":9.25}"#.utf8).write(to: saved)
        let app = try App(["--size", "640x480", "--tiles", "debug"], env: ["DISPLAY": x.display, "WAYLAND_DISPLAY": "", "XDG_STATE_HOME": state.path,
                                                                   "MERIDIAN_FRAME_LOG": "1"])
        let id = try app.window(on: x)
        try app.waitForLog("the first frame") { _ in app.presents > 0 }
        try quit(x, id, app)
        let v = try SavedView.read(state)
        #expect(abs(v.center.lat - 51.5) < 1e-9 && abs(v.center.lon + 0.12) < 1e-9 && v.zoom == 9.25)
    }

    /// Closing the window and SIGTERM (a session logging out) both arrive as SDL_QUIT: the
    /// app must quit cleanly and save. (Without a window manager, xdotool cannot send the
    /// close request itself; the Wayland test closes the window through the compositor.)
    @Test func terminationQuitsCleanlyAndSaves() throws {
        let x = try Xvfb()
        let state = temporaryDirectory("close")
        defer { try? FileManager.default.removeItem(at: state) }
        let (app, _) = try start(x, state: state)
        app.process.terminate()
        #expect(app.waitForExit(timeout: 10))
        #expect(app.process.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: state.appendingPathComponent("meridian/view.json").path))
    }

    /// A screenshot of the real window shows the debug grid (labels drawn, not a blank window).
    @Test func theWindowShowsTheMap() throws {
        let x = try Xvfb()
        let state = temporaryDirectory("shot")
        defer { try? FileManager.default.removeItem(at: state) }
        let (app, id) = try start(x, state: state)
        let shot = state.appendingPathComponent("shot.png").path
        // At 0,0 z3 the corner of four tiles is at the window's centre; their labels are 128 px away.
        let labelled = { (png: PNG) in png.distinctColours > 20 && png.darkFraction(x: 400 - 128 - 60, y: 300 - 128 - 15, w: 120, h: 30) > 0.05 }
        let png = try screenshot(x, to: shot, until: labelled)
        try quit(x, id, app)
        #expect(png.distinctColours > 20)
        #expect(png.darkFraction(x: 400 - 128 - 60, y: 300 - 128 - 15, w: 120, h: 30) > 0.05)
    }

    /// The window uploads pixels in the GPU's channel order (RGBA) and `render` in the
    /// software renderer's (ARGB): both show the same colours. Sea, land and a red circle
    /// at the same points agree within a few levels, so red and blue are never swapped.
    /// Every renderer: OpenGL (RGBA textures), the X server's (RENDER) and the app's own
    /// compositor, on a 24-bit screen and on a 16-bit one (the server converts; the app draws
    /// in a shadow that SDL converts), within the few levels 5 and 6 bits a channel lose.
    @Test(arguments: [("gpu", 24), ("software", 24), ("software", 16), ("pixels", 24), ("pixels", 16)])
    func theWindowShowsTheSameColoursAsRender(renderer: String, depth: Int) throws {
        let near = depth == 16 ? 9 : 6
        let args = ["--center", "45,-20", "--zoom", "4", "--size", "800x600", "--tiles", "basemap",
                    "--circle", "45,-20,400000,red", "--no-location"]
        let dir = temporaryDirectory("colours-\(renderer)-\(depth)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let rendered = dir.appendingPathComponent("render.png").path
        let r = try run(meridianBinary, ["render", "--at", "0.4", "--out", rendered] + args)
        #expect(r.status == 0, "\(r.stderr)")

        let x = try Xvfb(depth: depth)
        let app = try App(args + ["--renderer", renderer], env: ["DISPLAY": x.display, "WAYLAND_DISPLAY": "", "XDG_STATE_HOME": dir.path,
                                      "MERIDIAN_FIXED_TIME": "0.4", "MERIDIAN_REPORT_DRIVER": "1"])
        let id = try app.window(on: x)
        try x.moveToOrigin(id)
        let offscreen = try PNG(rendered)
        // The circle's fill at the centre, open sea, land in France, sea off Morocco.
        let points = [(400, 300), (560, 300), (700, 180), (120, 520)]
        func agrees(_ window: PNG) -> Bool {
            points.allSatisfy { (px, py) in
                let a = window.pixel(px, py), b = offscreen.pixel(px, py)
                return abs(a.r - b.r) <= near && abs(a.g - b.g) <= near && abs(a.b - b.b) <= near
            }
        }
        let window = try screenshot(x, to: dir.appendingPathComponent("shot.png").path, until: agrees)
        try quit(x, id, app)
        let log = app.errorOutput
        #expect(log.contains(renderer == "gpu" ? "renderer: opengl" : "renderer: software"), "\(log)")

        for (px, py) in points {
            let a = window.pixel(px, py), b = offscreen.pixel(px, py)
            #expect(abs(a.r - b.r) <= near && abs(a.g - b.g) <= near && abs(a.b - b.b) <= near,
                    "at \(px),\(py): window \(a), render \(b)")
        }
        // Red over blue: the sea is blue, the red circle's fill makes it redder and less green.
        let sea = window.pixel(560, 300), circle = window.pixel(400, 300)
        #expect(sea.b > sea.r + 40, "the sea is \(sea)")
        #expect(circle.r > sea.r + 5 && circle.g < sea.g - 10, "the red circle over the sea is \(circle)")
    }

    /// After a resize the whole new area is drawn, around the same centre.
    @Test func resizingRelaysOutAroundTheCentre() throws {
        let x = try Xvfb()
        let state = temporaryDirectory("resize")
        defer { try? FileManager.default.removeItem(at: state) }
        let (app, id) = try start(x, state: state)
        _ = try x.xdotool("windowsize", "--sync", id, "1000", "700")
        // The centre (0,0) is now at (500,350): the label of tile 3/5/3 is centred 384 px right
        // and 128 px down of it, in the part of the window that did not exist before.
        let labelled = { (png: PNG) in png.darkFraction(x: 884 - 60, y: 478 - 15, w: 120, h: 30) > 0.05 }
        let png = try screenshot(x, to: state.appendingPathComponent("shot.png").path, size: "1000x700", until: labelled)
        try quit(x, id, app)
        #expect(labelled(png))
        let v = try SavedView.read(state)
        #expect(abs(v.center.lat) < 1e-9 && abs(v.center.lon) < 1e-9)
    }

    /// With the location pulsing on screen the loop presents frame after frame and never
    /// sleeps; dragged off screen, it goes to sleep and stays asleep.
    @Test func framesFlowOnlyWhileAPulseIsOnScreen() throws {
        let x = try Xvfb()
        let state = temporaryDirectory("pulse")
        defer { try? FileManager.default.removeItem(at: state) }
        let (app, id) = try start(x, state: state, extra: ["--location", "0,0,200"], env: ["MERIDIAN_FRAME_LOG": "1"])
        // Nothing touched: the pulse alone brings 60 presents (a second's worth at vsync,
        // however long they take here), and the loop does not sleep between them.
        let pulsed = app.readLog { _ in app.frameEvents.filter { $0.kind == "present" }.count >= 60 }
        let events = app.frameEvents
        let presents = events.indices.filter { events[$0].kind == "present" }
        #expect(pulsed, "only \(presents.count) presents")
        let slept = events[(presents.first ?? 0)...(presents.last ?? 0)].filter { $0.kind == "idle" }.count
        #expect(slept == 0, "the loop slept \(slept) times with the pulse on screen")
        // Drag the map 500 px to the right: the location (at the centre) leaves the window.
        _ = try x.xdotool("mousemove", "--window", id, "100", "300")
        _ = try x.xdotool("mousedown", "1")
        for i in 1...10 {
            _ = try x.xdotool("mousemove", "--window", id, "\(100 + i * 60)", "300")
            Thread.sleep(forTimeInterval: 0.02) // gesture: a drag, 60 px each 20 ms (the app measures the pointer's speed)
        }
        Thread.sleep(forTimeInterval: 0.3) // gesture: held still, so the release is not a flick (speed over the last 100 ms)
        _ = try x.xdotool("mouseup", "1")
        // Then the loop sleeps until an event and no frame wakes it.
        #expect(app.settles(), "frames went on with nothing on screen moving: \(app.frameEvents.suffix(5))")
        try quit(x, id, app)
    }

    /// While only the pulse animates, the map comes from the compositor's cache (the app's),
    /// or stays in the server's frame (the X server's): only the pulse is drawn again. What is
    /// on screen must still be the map (grid labels) with the dot at the centre.
    @Test(arguments: ["software", "pixels"])
    func pulseFramesDrawnFromTheCacheShowTheMap(renderer: String) throws {
        let x = try Xvfb()
        let state = temporaryDirectory("cache-\(renderer)")
        defer { try? FileManager.default.removeItem(at: state) }
        let (app, id) = try start(x, state: state, extra: ["--location", "0,0,200", "--renderer", renderer], env: ["MERIDIAN_FRAME_LOG": "1"])
        // 90 pulse frames: the dozen tiles at most fill the cache a few dozen times, the rest
        // draw from it.
        #expect(app.readLog { _ in app.frameEvents.filter { $0.kind == "present" }.count >= 90 })
        let shot = state.appendingPathComponent("shot.png").path
        #expect(try run(which("import")!, ["-window", "root", "-crop", "800x600+0+0", shot], env: ["DISPLAY": x.display]).status == 0)
        try quit(x, id, app)
        let quitLine = try #require(app.wholeLog.split(separator: "\n").first { $0.hasPrefix("quit ") })
        let hits = Int(quitLine.split(separator: " ")[3]) ?? 0
        #expect(hits > 30, "\(quitLine)")
        let png = try PNG(shot)
        let dot = png.pixel(400, 300)
        #expect(dot.r < 60 && dot.b > 200, "dot \(dot)")
        #expect(png.darkFraction(x: 400 - 128 - 60, y: 300 - 128 - 15, w: 120, h: 30) > 0.05)
    }
}
