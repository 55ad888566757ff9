import Foundation
import Testing
import TestPictures

/// The software path on X11 has the X server draw the frames (RENDER): the same pictures as
/// the app's own compositor, presented only where they changed.
@Suite(.serialized)
struct ServerDrawnTests {
    /// A still frame of the app's window, once two screenshots a moment apart agree and the
    /// map is drawn; and what the app said. Each renderer starts afresh (the first start
    /// shows a hint, which labels keep clear of).
    func stillFrame(renderer: String, _ args: [String], in parent: URL) throws -> (PNG, String) {
        let dir = parent.appendingPathComponent(renderer)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let x = try Xvfb()
        let app = try App(args + ["--renderer", renderer],
                          env: ["DISPLAY": x.display, "WAYLAND_DISPLAY": "", "XDG_STATE_HOME": dir.path,
                                "MERIDIAN_FIXED_TIME": "0.4", "MERIDIAN_REPORT_DRIVER": "1"])
        let id = try app.window(on: x)
        try x.moveToOrigin(id)
        let png = try stillScreenshot(x, to: dir.appendingPathComponent("\(renderer).png").path)
        try quit(x, id, app)
        return (png, app.errorOutput)
    }

    /// Scaled tiles (a fractional zoom, filtered at rest), place labels, a circle in meters
    /// and the chrome: the server's frame is the app's within rounding.
    @Test func theServerDrawsWhatTheAppDraws() throws {
        let dir = temporaryDirectory("server-drawn")
        defer { try? FileManager.default.removeItem(at: dir) }
        let args = ["--center", "47,8", "--zoom", "5.6", "--size", "800x600", "--tiles", "basemap",
                    "--circle", "47,8,150000,red", "--no-location"]
        let (server, serverLog) = try stillFrame(renderer: "software", args, in: dir)
        let (app, appLog) = try stillFrame(renderer: "pixels", args, in: dir)
        #expect(serverLog.contains("renderer: software (X server)"), "\(serverLog)")
        #expect(appLog.contains("renderer: software") && !appLog.contains("(X server)"), "\(appLog)")
        // Drawn by the server, not by the app after the server refused (which would look the same).
        #expect(!serverLog.contains("refused") && !serverLog.contains("could not draw"), "\(serverLog)")
        // Bilinear weights round a little differently in pixman: a few levels, rarely more.
        let far = server.differingFraction(from: app, by: 24)
        #expect(far < 0.002, "\(far * 100) % of the pixels differ by more than 24 levels")
        #expect(server.differingFraction(from: app, by: 6) < 0.03)
        // And it is a map: sea, land, labels, the red circle.
        #expect(server.distinctColours > 200)
        let centre = server.pixel(400, 300)
        #expect(centre.r > centre.b + 20, "the red circle's centre is \(centre)")
    }

    /// A turned map: the server draws each turned tile (antialiased triangles, a half pixel
    /// over its neighbours) where the app's compositor draws it (the pixels whose centres it
    /// holds): the same picture but along the tiles' edges, and no seam between them.
    @Test func theServerDrawsATurnedMapAsTheAppDoes() throws {
        let dir = temporaryDirectory("server-drawn-turned")
        defer { try? FileManager.default.removeItem(at: dir) }
        let args = ["--center", "47,8", "--zoom", "5.6", "--bearing", "30", "--size", "800x600", "--tiles", "basemap",
                    "--circle", "47,8,150000,red", "--no-location"]
        let (server, serverLog) = try stillFrame(renderer: "software", args, in: dir)
        let (app, _) = try stillFrame(renderer: "pixels", args, in: dir)
        #expect(serverLog.contains("renderer: software (X server)"), "\(serverLog)")
        #expect(!serverLog.contains("refused") && !serverLog.contains("could not draw"), "\(serverLog)")
        // A seam between turned tiles would be lines of the clear's colour across the map,
        // thousands of pixels (0.8 % of these): the two pictures are the same but for a few.
        let far = server.differingFraction(from: app, by: 24)
        #expect(far < 0.003, "\(far * 100) % of the pixels differ by more than 24 levels")
        #expect(server.distinctColours > 200)
        let centre = server.pixel(400, 300)
        #expect(centre.r > centre.b + 20, "the red circle's centre is \(centre)")
    }

    /// A window too large for the X server to keep up (above `SDLWindow.serverDrawnLimit`)
    /// is drawn by the app; made smaller, by the server again, and larger, by the app: each
    /// switch shows the whole map, not what the other left.
    @Test func aLargeWindowIsDrawnByTheAppAndASmallerOneByTheServer() throws {
        let dir = temporaryDirectory("server-drawn-large")
        defer { if ProcessInfo.processInfo.environment["KEEP"] == nil { try? FileManager.default.removeItem(at: dir) } }
        let view = ["--center", "47,8", "--zoom", "5.6", "--tiles", "basemap", "--circle", "47,8,150000,red", "--no-location"]
        // What the app's own compositor shows of a 1000×700 window, for the middle step.
        let (small, _) = try stillFrame(renderer: "pixels", view + ["--size", "1000x700"], in: dir)

        let x = try Xvfb(width: 2400, height: 1500)
        let app = try App(view + ["--size", "2200x1300", "--renderer", "software"],
                          env: ["DISPLAY": x.display, "WAYLAND_DISPLAY": "", "XDG_STATE_HOME": dir.appendingPathComponent("software").path,
                                "MERIDIAN_FIXED_TIME": "0.4", "MERIDIAN_REPORT_DRIVER": "1", "MERIDIAN_FRAME_LOG": "1"])
        let id = try app.window(on: x)
        try x.moveToOrigin(id)
        func still(_ name: String, size: String = "800x600") throws -> PNG {
            try stillScreenshot(x, to: dir.appendingPathComponent(name).path, size: size)
        }
        func drawn(by name: String, times: Int) -> Bool {
            app.readLog { $0.components(separatedBy: "renderer \(name)\n").count > times }
        }
        #expect(app.readLog { $0.contains("renderer: ") })
        #expect(app.log.contains("renderer: software") && !app.log.contains("renderer: software (X server)"), "\(app.log)")
        #expect(drawn(by: "software", times: 1), "\(app.log)")
        let large = try still("large.png", size: "2200x1300")

        _ = try x.xdotool("windowsize", "--sync", id, "1000", "700")
        #expect(drawn(by: "software (X server)", times: 1), "\(app.log)")
        let smaller = try still("smaller.png")
        #expect(smaller.differingFraction(from: small, by: 24) < 0.002, "the server's frame after the app's is the app's picture")

        _ = try x.xdotool("windowsize", "--sync", id, "2200", "1300")
        #expect(drawn(by: "software", times: 2), "\(app.log)")
        let again = try still("again.png", size: "2200x1300")
        #expect(again.differingFraction(from: large, by: 6) < 0.001, "the app's frame after the server's is the same as before")
        // The whole large window is the map: land near its far corner (south-east Turkey),
        // not what a smaller frame left there.
        #expect(large.distinctColours > 200)
        let corner = large.meanColour(2100, 1100)
        #expect(corner.r > corner.b, "the far corner is \(corner)")
        try quit(x, id, app)
    }

    /// The app drawn by the server at 47,8 zoom 6 in an 800×600 window at the screen's corner,
    /// ready, with its frame log on.
    func serverDrawnApp(tiles: String, _ x: Xvfb, state dir: URL) throws -> (App, String) {
        let app = try App(["--center", "47,8", "--zoom", "6", "--tiles", tiles, "--no-location", "--size", "800x600", "--renderer", "software"],
                          env: ["DISPLAY": x.display, "WAYLAND_DISPLAY": "", "XDG_STATE_HOME": dir.path, "MERIDIAN_FRAME_LOG": "1"])
        let id = try app.window(on: x)
        try x.moveToOrigin(id)
        try app.waitUntilReady()
        return (app, id)
    }

    /// The window drawn whole: hidden and shown again.
    func drawnWhole(_ x: Xvfb, _ id: String, _ app: App, to path: String) throws -> PNG {
        let mark = app.presentMark
        _ = try x.xdotool("windowunmap", "--sync", id)
        _ = try x.xdotool("windowmap", "--sync", id)
        try app.waitForRest(after: mark, "the window shown again")
        return try stillScreenshot(x, to: path)
    }

    /// A count the app said as it quit ("quit … on-window 12 scrolled 9").
    func quitCount(_ name: String, _ app: App) -> Int {
        let words = app.wholeLog.split(separator: "\n").last { $0.hasPrefix("quit ") }?.split(separator: " ") ?? []
        return words.firstIndex { $0 == name }.flatMap { words.indices.contains($0 + 1) ? Int(words[$0 + 1]) : nil } ?? 0
    }

    /// A drag has the server scroll its frame and draw only the uncovered edges and the chrome
    /// (`ScrollDamage`); dragged away and back and held there, the window shows what the same
    /// state drawn whole shows (after the window is hidden and shown again, which draws it
    /// whole). The pixels of the scrolled frames themselves are `ScrollDamageTests`'.
    @Test func aDragScrollsTheServersFrameAndComesToWhatAWholeFrameShows() throws {
        let dir = temporaryDirectory("server-scrolled")
        defer { if ProcessInfo.processInfo.environment["KEEP"] == nil { try? FileManager.default.removeItem(at: dir) } }
        let x = try Xvfb()
        let (app, id) = try serverDrawnApp(tiles: "basemap", x, state: dir)
        let before = try stillScreenshot(x, to: dir.appendingPathComponent("before.png").path)
        _ = try x.xdotool("mousemove", "--window", id, "400", "300", "mousedown", "1")
        for step in Array(1...10) + Array((0..<10).reversed()) {
            _ = try x.xdotool("mousemove", "--window", id, "\(400 + 9 * step)", "\(300 - 5 * step)")
            Thread.sleep(forTimeInterval: 0.03) // gesture: one move a frame or two, as a hand drags
        }
        #expect(app.settles(), "\(app.log.suffix(400))")
        let held = try stillScreenshot(x, to: dir.appendingPathComponent("held.png").path)
        let whole = try drawnWhole(x, id, app, to: dir.appendingPathComponent("whole.png").path)
        _ = try x.xdotool("mouseup", "1")
        try quit(x, id, app)
        #expect(quitCount("scrolled", app) >= 5, "frames scrolled by the server: \(quitCount("scrolled", app))")
        let far = held.differingFraction(from: whole, by: 24)
        #expect(far < 0.002, "\(far * 100) % of the pixels after the drag differ from the same view drawn whole")
        // Back where it began: the map is where it was (labels may have settled otherwise).
        #expect(held.differingFraction(from: before, by: 24) < 0.03)
    }

    /// The frames of a wheel zoom are drawn by the server on the window itself (no copy from
    /// its frame). Come to rest at a whole zoom with every tile in (debug tiles are made at
    /// once), nothing changes, so the window still shows the last of them: it is what the same
    /// view drawn whole shows.
    @Test func aWheelZoomsFramesAreDrawnOnTheWindowAndEndAsAWholeFrame() throws {
        let dir = temporaryDirectory("server-zoomed")
        defer { if ProcessInfo.processInfo.environment["KEEP"] == nil { try? FileManager.default.removeItem(at: dir) } }
        let x = try Xvfb()
        let (app, id) = try serverDrawnApp(tiles: "debug", x, state: dir)
        let before = try stillScreenshot(x, to: dir.appendingPathComponent("before.png").path)
        // Two notches (half a zoom each) round the middle: to zoom 7, where tiles are not scaled.
        _ = try x.xdotool("mousemove", "--window", id, "400", "300", "click", "4", "click", "4")
        #expect(app.settles(), "\(app.log.suffix(400))")
        let held = try stillScreenshot(x, to: dir.appendingPathComponent("held.png").path)
        let whole = try drawnWhole(x, id, app, to: dir.appendingPathComponent("whole.png").path)
        try quit(x, id, app)
        #expect(quitCount("on-window", app) >= 5, "frames drawn on the window: \(quitCount("on-window", app))")
        // Nothing of the server's drawing was refused, quitting included (the window's picture
        // is freed with the window, not after it).
        #expect(!app.wholeLog.contains("refused a request"), "\(app.wholeLog.suffix(400))")
        let far = held.differingFraction(from: whole, by: 24)
        #expect(far < 0.002, "\(far * 100) % of the pixels after the zoom differ from the same view drawn whole")
        #expect(held.differingFraction(from: before, by: 24) > 0.05, "the map zoomed")
    }

    /// An X server out of memory refuses the frame of a window made larger (BadAlloc): the app
    /// says so, draws the map itself and goes on, rather than ending with Xlib's error.
    @Test func aServerOutOfMemoryLeavesTheDrawingToTheApp() throws {
        let dir = temporaryDirectory("server-out-of-memory")
        defer { if ProcessInfo.processInfo.environment["KEEP"] == nil { try? FileManager.default.removeItem(at: dir) } }
        let x = try Xvfb(width: 1800, height: 1300)
        let app = try App(["--center", "47,8", "--zoom", "5.6", "--tiles", "basemap", "--no-location", "--size", "800x600", "--renderer", "software"],
                          env: ["DISPLAY": x.display, "WAYLAND_DISPLAY": "", "XDG_STATE_HOME": dir.path, "MERIDIAN_FRAME_LOG": "1"])
        let id = try app.window(on: x)
        try x.moveToOrigin(id)
        #expect(app.readLog { $0.contains("renderer software (X server)\n") }, "\(app.log)")
        // Once the tiles are uploaded and the loop sleeps, the server may grow by 2 MiB: the
        // 1600×1200 frame (7.3 MiB) of the window made larger is refused.
        #expect(app.settles(), "\(app.log)")
        let limits = try String(contentsOfFile: "/proc/\(x.pid)/limits", encoding: .utf8)
        let soft = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max address space") }?
            .split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first, "\(limits)")
        let stat = try String(contentsOfFile: "/proc/\(x.pid)/stat", encoding: .utf8)
        let fields = stat[stat.range(of: ")")!.upperBound...].split(separator: " ")
        let size = try #require(Int(fields[20]), "the server's virtual size in \(stat)")
        let prlimit = try #require(which("prlimit"))
        #expect(try run(prlimit, ["--pid", "\(x.pid)", "--as=\(size + 2 << 20):"]).status == 0)
        _ = try x.xdotool("windowsize", "--sync", id, "1600", "1200")
        #expect(app.readLog { $0.contains("could not draw the map") && $0.contains("renderer software\n") }, "\(app.log)")
        #expect(app.log.contains("refused a request of the frame it draws (error 11"), "BadAlloc is said: \(app.log)")
        #expect(try run(prlimit, ["--pid", "\(x.pid)", "--as=\(soft):"]).status == 0)
        let png = try stillScreenshot(x, to: dir.appendingPathComponent("drawn-by-the-app.png").path, size: "1600x1200")
        // The whole window is the map, its far side too (land round Moldova, the sea east of Crete).
        #expect(png.distinctColours > 200)
        let east = png.meanColour(1500, 560), southEast = png.meanColour(1500, 1150)
        #expect(east.r > east.b, "the far east is \(east)")
        #expect(southEast.b > southEast.r, "the far south-east is \(southEast)")
        try quit(x, id, app)
    }
}

/// A screenshot of the window's corner once two a moment apart agree and the map is drawn.
func stillScreenshot(_ x: Xvfb, to path: String, size: String = "800x600") throws -> PNG {
    var previous: PNG?
    return try screenshot(x, to: path, size: size) { png in
        defer { previous = png }
        return png.distinctColours > 50 && previous.map { $0.differingFraction(from: png, by: 0) == 0 } == true
    }
}
