import Foundation
import Testing
import TestPictures

/// A track in the window stays on the map while the map zooms under the wheel.
struct TrackWindowTests {
    /// The palette's first colour (0xD6246E), give or take scaling.
    func isTrack(_ p: (r: Int, g: Int, b: Int)) -> Bool { abs(p.r - 0xD6) < 40 && abs(p.g - 0x24) < 40 && abs(p.b - 0x6E) < 40 }
    /// The debug grid's solid tile edges (0x93A3AF), give or take scaling.
    func isGrid(_ p: (r: Int, g: Int, b: Int)) -> Bool { abs(p.r - 0x93) < 30 && abs(p.g - 0xA3) < 30 && abs(p.b - 0xAF) < 30 }

    /// Where the track and the tile edge it runs along are, in one screenshot: the track's
    /// middle x in its middle row, and the grid line's middle x a little south of the track's
    /// end (on the same meridian, 0°). Nil when either is not in the picture.
    func positions(_ png: PNG) -> (track: Double, grid: Double)? {
        var rows: [(y: Int, xs: [Int])] = []
        for y in stride(from: 0, to: png.height, by: 2) {
            let xs = (0..<png.width).filter { isTrack(png.pixel($0, y)) }
            if !xs.isEmpty { rows.append((y, xs)) }
        }
        guard rows.count >= 4 else { return nil }
        let mid = rows[rows.count / 2]
        let tx = Double(mid.xs.reduce(0, +)) / Double(mid.xs.count)
        // South of the track's end, the first rows where the grid shows as a thin vertical run.
        let end = rows[rows.count - 1].y, x = Int(tx)
        for y in (end + 6)..<min(end + 80, png.height) {
            let near: Range<Int> = max(0, x - 20)..<min(png.width, x + 21)
            let xs = near.filter { isGrid(png.pixel($0, y)) }
            if !xs.isEmpty && xs.count <= 5 { return (tx, Double(xs.reduce(0, +)) / Double(xs.count)) }
        }
        return nil
    }

    let keep = ProcessInfo.processInfo.environment["KEEP_SHOTS"] != nil

    /// The window at zoom 8 on a route climbing north along the prime meridian from 0.3° to
    /// 1.2° (0 to 1,800 m), drawn down the middle of the window (x = 400, y 218…382).
    func startOnClimb(_ x: Xvfb, dir: URL) throws -> (App, String) {
        var text = "<gpx version=\"1.1\"><trk><name>Up</name><trkseg>"
        for k in 0...90 { text += "<trkpt lat=\"\(0.3 + Double(k) * 0.01)\" lon=\"0\"><ele>\(k * 20)</ele></trkpt>" }
        try Data((text + "</trkseg></trk></gpx>").utf8).write(to: dir.appendingPathComponent("up.gpx"))
        return try startWindow(x, dir: dir, ["--size", "800x600", "--tiles", "debug", "--no-location", "--center", "0.75,0", "--zoom", "8",
                                             "--pins", dir.appendingPathComponent("pins.geojson").path, dir.appendingPathComponent("up.gpx").path])
    }

    @Test func theTrackStaysOnItsMeridianInEveryFrameOfAWheelZoom() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("track-window")
        defer { if !keep { try? FileManager.default.removeItem(at: dir) } }
        // Along the prime meridian, which is a tile edge of the debug grid at every zoom.
        let gpx = dir.appendingPathComponent("meridian.gpx")
        try Data("""
        <gpx version="1.1" creator="t"><rte><rtept lat="0.3" lon="0"/><rtept lat="1.2" lon="0"/></rte></gpx>
        """.utf8).write(to: gpx)
        let app = try App(["--size", "800x600", "--tiles", "debug", "--no-location", "--center", "0.6,0.5", "--zoom", "7",
                           "--pins", dir.appendingPathComponent("pins.geojson").path, gpx.path],
                          env: ["DISPLAY": x.display, "WAYLAND_DISPLAY": "", "XDG_STATE_HOME": dir.path, "XDG_DATA_HOME": dir.path])
        let id = try app.window(on: x)
        try x.moveToOrigin(id)
        let shot = dir.appendingPathComponent("shot.png").path
        // At rest first: the track is drawn, on its meridian.
        let rest = try screenshot(x, to: shot) { positions($0) != nil }
        let p0 = try #require(positions(rest))
        #expect(abs(p0.track - p0.grid) <= 1.5, "at rest: \(p0)")
        // Zoom in around a point east of the track, so the track slides west as it zooms;
        // screenshots are taken while the wheel turns.
        _ = try x.xdotool("mousemove", "--window", id, "450", "300")
        // A shot after each of four notches, as the zoom animates (as many shots however
        // slow the machine), then one once the track has clearly moved.
        var seen: [(track: Double, grid: Double)] = []
        for k in 0..<4 {
            _ = try x.xdotool("click", "4")
            let png = try screenshot(x, to: dir.appendingPathComponent("zoom\(k).png").path) { _ in true }
            if let p = positions(png) { seen.append(p) }
        }
        let after = try screenshot(x, to: shot) { positions($0).map { abs($0.track - p0.track) > 20 } ?? false }
        if let p = positions(after) { seen.append(p) }
        #expect(seen.count >= 3, "\(seen)")
        // It moved (the zoom was not around it), and in every shot it lies on the meridian.
        let tracks: [Double] = seen.map(\.track)
        let swept: Double = (tracks.max() ?? 0) - (tracks.min() ?? 0)
        #expect(swept > 20, "\(seen)")
        for p in seen { #expect(abs(p.track - p.grid) <= 2, "\(p) in \(seen)") }
        try quit(x, id, app)
    }

    /// A click on the track opens its callout (a white plate above the point clicked, the
    /// track's colour on its left edge); key C colours the track by elevation (blue at the
    /// low end, red at the high); Esc closes the callout.
    @Test func clickingATrackShowsItsStatisticsAndKeyCColoursIt() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("track-click")
        defer { if !keep { try? FileManager.default.removeItem(at: dir) } }
        let (app, id) = try startOnClimb(x, dir: dir)
        let shot = dir.appendingPathComponent("shot.png").path
        // The track runs down the middle (x = 400); wait for it, then click on it.
        _ = try screenshot(x, to: shot) { isTrack($0.pixel(400, 300)) }
        _ = try x.xdotool("mousemove", "--window", id, "400", "300", "click", "1")
        // The plate: white rows above the point, its left edge in the track's colour.
        func hasCallout(_ png: PNG) -> Bool {
            let white = (230..<284).filter { y in (360...440).allSatisfy { png.pixel($0, y).r > 240 && png.pixel($0, y).b > 240 } }
            return white.count >= 20
        }
        let open = try screenshot(x, to: dir.appendingPathComponent("callout.png").path) { hasCallout($0) }
        #expect(hasCallout(open), "no callout above the track")
        #expect(open.pixel(400, 300).b < 200, "no dot where the track was clicked")
        _ = try x.xdotool("key", "--window", id, "Escape")
        let closed = try screenshot(x, to: shot) { !hasCallout($0) }
        #expect(!hasCallout(closed), "Esc left the callout")
        // The track spans 0.45° of latitude each side of the centre: ±82 points at zoom 8.
        _ = try x.xdotool("key", "--window", id, "c")
        func coloured(_ png: PNG) -> Bool {
            let south = png.pixel(400, 370), north = png.pixel(400, 230)
            return south.b > south.r + 60 && north.r > north.b + 60
        }
        let byElevation = try screenshot(x, to: dir.appendingPathComponent("elevation.png").path) { coloured($0) }
        #expect(coloured(byElevation), "south \(byElevation.pixel(400, 370)), north \(byElevation.pixel(400, 230))")
        try quit(x, id, app)
    }

    /// Key E opens the profile panel along the bottom; the pointer three quarters along its
    /// graph puts a dot on the track three quarters of the way along (north on this route),
    /// and none at the other end.
    @Test func thePointerOnTheProfileShowsThatPlaceOnTheMap() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("track-profile")
        defer { if !keep { try? FileManager.default.removeItem(at: dir) } }
        let (app, id) = try startOnClimb(x, dir: dir)
        _ = try screenshot(x, to: dir.appendingPathComponent("start.png").path) { isTrack($0.pixel(400, 300)) }
        _ = try x.xdotool("key", "--window", id, "e")
        // The panel: white across the bottom 150 points (the track is still in view above).
        func hasPanel(_ png: PNG) -> Bool { [20, 200, 780].allSatisfy { png.pixel($0, 462).r > 235 && png.pixel($0, 462).g > 235 } }
        let panel = try screenshot(x, to: dir.appendingPathComponent("panel.png").path) { hasPanel($0) }
        #expect(hasPanel(panel), "no profile panel")
        // The graph spans x 64…776; three quarters along is x = 598.
        _ = try x.xdotool("mousemove", "--window", id, "598", "520")
        // 0.3° + 0.75 · 0.9° = 0.975° N: 0.225° north of the centre, 41 points up at zoom 8.
        func changed(_ a: PNG, _ b: PNG, around y: Int) -> Int {
            var n = 0
            for yy in (y - 10)...(y + 10) { for xx in 390...410 where a.pixel(xx, yy) != b.pixel(xx, yy) { n += 1 } }
            return n
        }
        let hover = try screenshot(x, to: dir.appendingPathComponent("hover.png").path) { changed(panel, $0, around: 259) > 20 }
        #expect(changed(panel, hover, around: 259) > 20, "no dot on the track at 0.975° N")
        #expect(changed(panel, hover, around: 370) == 0, "something changed at the south end")
        try quit(x, id, app)
    }

    /// Key T lists the open files; "✕" on a row closes that file (the track leaves the map,
    /// the file stays on disk). The files open at the end are reopened at the next start
    /// without arguments (hidden ones hidden), from their full paths.
    @Test func theListClosesFilesAndTheOpenOnesAreReopenedAtTheNextStart() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("track-list")
        defer { if !keep { try? FileManager.default.removeItem(at: dir) } }
        let (app, id) = try startOnClimb(x, dir: dir)
        _ = try screenshot(x, to: dir.appendingPathComponent("start.png").path) { isTrack($0.pixel(400, 300)) }
        try quit(x, id, app)
        struct Saved: Decodable { struct File: Decodable { var path: String; var hidden: Bool }; var files: [File] }
        let state = dir.appendingPathComponent("meridian/view.json")
        let saved = try JSONDecoder().decode(Saved.self, from: Data(contentsOf: state))
        #expect(saved.files.map(\.path) == [dir.appendingPathComponent("up.gpx").path] && saved.files[0].hidden == false)

        // Started again without files: the climb is back, where it was.
        let second = try App(["--size", "800x600", "--tiles", "debug", "--no-location", "--pins", dir.appendingPathComponent("pins.geojson").path],
                             env: ["DISPLAY": x.display, "WAYLAND_DISPLAY": "", "XDG_STATE_HOME": dir.path, "XDG_DATA_HOME": dir.path], in: dir)
        let id2 = try second.window(on: x)
        try x.moveToOrigin(id2)
        _ = try x.xdotool("windowfocus", "--sync", id2)
        let reopened = try screenshot(x, to: dir.appendingPathComponent("reopened.png").path) { isTrack($0.pixel(400, 300)) }
        #expect(isTrack(reopened.pixel(400, 300)), "the climb was not reopened at the saved view")
        // The list, top right beside the buttons (its plate ends 54 points from the edge, 50
        // from the top); the first row's "✕" closes the climb.
        _ = try x.xdotool("key", "--window", id2, "t")
        func hasList(_ png: PNG) -> Bool { (60..<100).filter { png.pixel(700, $0).r > 240 && png.pixel(700, $0).g > 240 }.count > 30 }
        let listed = try screenshot(x, to: dir.appendingPathComponent("list.png").path) { hasList($0) }
        #expect(hasList(listed), "no list of files: \(second.errorOutput)")
        _ = try x.xdotool("mousemove", "--window", id2, "733", "88", "click", "1")
        let closed = try screenshot(x, to: dir.appendingPathComponent("closed.png").path) { !isTrack($0.pixel(400, 300)) }
        #expect(!isTrack(closed.pixel(400, 300)), "the climb is still drawn")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("up.gpx").path))
        try quit(x, id2, second)
        #expect(try JSONDecoder().decode(Saved.self, from: Data(contentsOf: state)).files.isEmpty)

        // A file that was hidden comes back hidden: open (and listed), not drawn.
        try Data(#"{"center":{"lat":0.75,"lon":0},"zoom":8,"files":[{"path":"\#(dir.path)/up.gpx","hidden":true}]}"#.utf8).write(to: state)
        let third = try App(["--size", "800x600", "--tiles", "debug", "--no-location", "--pins", dir.appendingPathComponent("pins.geojson").path],
                            env: ["DISPLAY": x.display, "WAYLAND_DISPLAY": "", "XDG_STATE_HOME": dir.path, "XDG_DATA_HOME": dir.path,
                                  "MERIDIAN_FRAME_LOG": "1"])
        let id3 = try third.window(on: x)
        try x.moveToOrigin(id3)
        // The file read, and the frames after it drawn: were it shown, it would be by now.
        try third.waitForRest(afterSaying: "opened up.gpx")
        let hiddenShot = try screenshot(x, to: dir.appendingPathComponent("hidden.png").path) { _ in true }
        #expect(!isTrack(hiddenShot.pixel(400, 300)), "a hidden file was drawn")
        try quit(x, id3, third)
        let last = try JSONDecoder().decode(Saved.self, from: Data(contentsOf: state))
        #expect(last.files.count == 1 && last.files[0].hidden, "\(last.files)")
    }

    /// A large file given at start (over 16 MiB) waits for the window to be shown: on two
    /// cores, reading a million points beside the window's start held the map's first tile
    /// back from 0.05 to 0.10 s. (A small one is read at once; whether it is done before
    /// the first frame depends on the machine's load, so it is not asserted here.)
    @Test func aLargeFileIsReadOnceTheWindowIsShown() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("track-start")
        defer { if !keep { try? FileManager.default.removeItem(at: dir) } }
        func gpx(_ name: String, points: Int) throws -> String {
            var text = "<gpx version=\"1.1\"><trk><trkseg>\n"
            text.reserveCapacity(points * 48)
            for k in 0..<points { text += "<trkpt lat=\"\(0.3 + Double(k) * 1e-6)\" lon=\"\(Double(k % 1000) * 1e-6)\"></trkpt>\n" }
            let url = dir.appendingPathComponent(name)
            try Data((text + "</trkseg></trk></gpx>\n").utf8).write(to: url)
            return url.path
        }
        /// Where in the frame log the first present is, and the line saying the file's reading began.
        func order(_ path: String) throws -> (present: String.Index, reading: String.Index) {
            let app = try App(["--size", "800x600", "--tiles", "debug", "--no-location", path],
                              env: ["DISPLAY": x.display, "WAYLAND_DISPLAY": "", "XDG_STATE_HOME": dir.path, "XDG_DATA_HOME": dir.path,
                                    "MERIDIAN_FRAME_LOG": "1"])
            let id = try app.window(on: x)
            let name = URL(fileURLWithPath: path).lastPathComponent
            #expect(app.readLog { $0.contains("opened \(name)") }, "\(app.log.suffix(300))")
            let log = app.log
            try quit(x, id, app)
            let present = try #require(log.range(of: "present ")).lowerBound
            let reading = try #require(log.range(of: "reading \(name)")).lowerBound
            return (present, reading)
        }
        let large = try gpx("large.gpx", points: 400_000)
        #expect(((try FileManager.default.attributesOfItem(atPath: large)[.size] as? Int) ?? 0) > 16 << 20)
        let big = try order(large)
        #expect(big.present < big.reading, "a large file was read before the window was shown")
    }

    /// A file that takes long to read (a pipe here, which the test fills when it likes)
    /// shows "Opening …" at the bottom after half a second while frames go on; Esc cancels
    /// it: nothing is drawn, stderr says so, and the window goes on.
    @Test func aSlowLoadShowsProgressAndEscCancelsIt() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("track-slow")
        defer { if !keep { try? FileManager.default.removeItem(at: dir) } }
        let pipe = dir.appendingPathComponent("slow.gpx").path
        #expect(mkfifo(pipe, 0o600) == 0)
        let app = try App(["--size", "800x600", "--tiles", "debug", "--no-location", "--center", "0.75,0", "--zoom", "8",
                           "--pins", dir.appendingPathComponent("pins.geojson").path, pipe],
                          env: ["DISPLAY": x.display, "WAYLAND_DISPLAY": "", "XDG_STATE_HOME": dir.path, "XDG_DATA_HOME": dir.path,
                                "MERIDIAN_FRAME_LOG": "1"])
        // The writer's end: opening it waits for the app to open the reading end.
        let fd = open(pipe, O_WRONLY)
        #expect(fd >= 0)
        let head = "<gpx version=\"1.1\"><trk><trkseg>" + (0...50).map { "<trkpt lat=\"\(0.5 + Double($0) * 0.01)\" lon=\"0\"/>" }.joined()
        _ = head.withCString { write(fd, $0, strlen($0)) }
        let id = try app.window(on: x)
        try x.moveToOrigin(id)
        // The status plate: dark, at the bottom centre (24 points up).
        func hasStatus(_ png: PNG) -> Bool { (555..<585).filter { png.pixel(400, $0).r < 70 && png.pixel(400, $0).g < 70 }.count >= 8 }
        let waiting = try screenshot(x, to: dir.appendingPathComponent("waiting.png").path) { hasStatus($0) }
        #expect(hasStatus(waiting), "no progress shown")
        // Frames go on while the file is read (the reader waits on the pipe, the loop does
        // not): ten more presents, and no sleep between them.
        let shown = app.frameEvents.count
        let framed = app.readLog { _ in app.frameEvents.dropFirst(shown).filter { $0.kind == "present" }.count >= 10 }
        #expect(framed, "the frames stopped while the file was read: \(app.frameEvents.suffix(5))")
        #expect(!app.frameEvents.dropFirst(shown).contains { $0.kind == "idle" }, "the loop slept while the file was read")
        _ = try x.xdotool("windowfocus", "--sync", id)
        _ = try x.xdotool("key", "Escape")
        #expect(app.readLog { $0.contains("cancel slow.gpx") }, "Esc did not reach the reading: \(app.log.suffix(300))")
        // The rest of the file arrives after the cancel: it is not drawn.
        _ = "</trkseg></trk></gpx>".withCString { write(fd, $0, strlen($0)) }
        close(fd)
        let after = try screenshot(x, to: dir.appendingPathComponent("after.png").path) { !hasStatus($0) }
        #expect(!hasStatus(after), "the progress stayed")
        #expect(!isTrack(after.pixel(400, 300 - 45)), "a cancelled file was drawn")
        try quit(x, id, app)
        #expect(app.wholeLog.contains("cancelled opening slow.gpx"), "\(app.log.suffix(300))")
    }
}
