import Foundation
import Testing
import TestPictures
import TestSupport

/// Directions in the real window over a real street map and a real OpenStreetMap extract of
/// central Helsinki, routed by Routino's programs: the right-click menu's "Directions from
/// here" and "Directions to here", the route drawn into the map, a step clicked flown to, a
/// via added by pressing on the line and dragging it, the route following, and Ctrl+S keeping
/// it as GPX that opens as a track. The test waits on what the app says (its frame log).
@Suite(.serialized) struct DirectionsWindowTests {
    static let tiles = StreetMapRenderTests.fixtures.appendingPathComponent("vector/helsinki.mbtiles").path
    static let extract = StreetMapRenderTests.fixtures.appendingPathComponent("osm/helsinki.osm.pbf").path

    /// The route's blue (26, 115, 232) in a screenshot, counted right of the panel.
    static func routePixels(_ png: PNG) -> Int {
        var n = 0
        for y in stride(from: 0, to: 600, by: 2) {
            for x in stride(from: 360, to: 800, by: 2) {
                let c = png.pixel(x, y)
                if c.b > 200 && c.r < 70 && c.g > 90 && c.g < 150 { n += 1 }
            }
        }
        return n
    }

    /// The distances of the routes the app found, in the order it said them.
    static func routes(_ log: String) -> [(metres: Int, vias: Int)] {
        log.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("route: "), let m = Int(line.dropFirst(7).prefix { $0.isNumber }) else { return nil }
            let vias = line.split(separator: ",").first { $0.hasSuffix(" via") }.flatMap { Int($0.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber }) } ?? 0
            return (m, vias)
        }
    }

    @Test func aRouteIsAskedByRightClickDrawnFollowedAndKept() throws {
        let x = try Xvfb()
        // No online routing: only Routino, over the extract.
        let dir = try RouteCommandTests.home("directions")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (app, id) = try startWindow(x, dir: dir, ["--size", "800x600", "--no-location", "--tiles", Self.tiles,
                                                       "--center", "60.1715,24.9440", "--zoom", "15", "--osm", Self.extract],
                                        env: ["MERIDIAN_FRAME_LOG": "1", "XDG_CACHE_HOME": dir.path, "XDG_CONFIG_HOME": dir.path])
        #expect(app.readLog { $0.contains("route: engines Routino") }, "no engine: \(app.log.suffix(800))")
        // The database was built once, beside the search index, with its note.
        let routing = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("meridian/routing").path)
        #expect(routing.count == 1)

        // From Yliopistonkatu to Unioninkatu by Esplanadi, by car.
        try pickFromMenu(x, id, at: (420, 380), item: 1, dir: dir)
        try pickFromMenu(x, id, at: (560, 470), item: 2, dir: dir)
        #expect(app.readLog { Self.routes($0).count >= 1 }, "no route: \(app.log.suffix(800))")
        let first = try #require(Self.routes(app.log).first)
        #expect(first.metres > 300 && first.metres < 1500 && first.vias == 0)
        #expect(app.settles())
        let drawn = try screenshot(x, to: "/tmp/directions-route.png") { Self.routePixels($0) > 60 }
        #expect(Self.routePixels(drawn) > 60, "the route's line is drawn")

        // A press on the line, dragged: a via there, the route through it (every answer shown as it comes).
        let before = Self.routes(app.log).count
        let found = Self.linePoint(drawn)
        let line = try #require(found, "a point of the line")
        _ = try x.xdotool("mousemove", "--window", id, "\(line.0)", "\(line.1)", "mousedown", "1")
        for step in 1...6 { _ = try x.xdotool("mousemove", "--window", id, "\(line.0)", "\(line.1 + 15 * step)") }
        _ = try x.xdotool("mouseup", "1")
        #expect(app.readLog { log in Self.routes(log).dropFirst(before).contains { $0.vias == 1 } }, "\(app.log.suffix(800))")
        #expect(app.settles())
        let through = try #require(Self.routes(app.log).last)
        #expect(through.vias == 1 && through.metres > first.metres)

        // The second step clicked: the map flies there. The panel's rows: 60 its top, 10 its
        // margin, three points of 26, 10, the modes' 26, 10, the summary's 44; then the steps.
        let stepsTop: Int = 60 + 10 + 3 * 26 + 10 + 26 + 10 + 44
        _ = try x.xdotool("mousemove", "--window", id, "150", "\(stepsTop + 26 + 13)", "click", "1")
        #expect(app.settles(), "the flight ends")

        // Ctrl+S: the route kept as GPX, opened as a track.
        _ = try x.xdotool("key", "ctrl+s")
        #expect(app.readLog { $0.contains("route: saved ") && $0.contains("opened route") }, "\(app.log.suffix(800))")
        let saved = try #require(app.log.split(separator: "\n").first { $0.hasPrefix("route: saved ") }).dropFirst("route: saved ".count)
        let gpx = try String(contentsOfFile: String(saved), encoding: .utf8)
        let rtepts = gpx.components(separatedBy: "<rtept ").dropFirst().map { $0.prefix { $0 != ">" } }
        #expect(gpx.contains("<type>via</type>") && gpx.contains("<trkpt "))
        #expect(rtepts.count >= 3)
        try quit(x, id, app)
        // The view is where the second step is.
        let view = try SavedView.read(dir)
        let step = try #require(rtepts.dropFirst().first)
        let lat = try #require(Double(step.split(separator: "\"")[1])), lon = try #require(Double(step.split(separator: "\"")[3]))
        #expect(abs(view.center.lat - lat) < 1e-4 && abs(view.center.lon - lon) < 1e-4, "the view is at \(view.center), the step at \(lat), \(lon)")
        #expect(view.zoom >= 16.9)
    }

    /// With the terrain on (its heights from the loopback server: SRTM over central Andorra),
    /// a route up the Valira valley says how much it climbs and falls.
    @Test func aRouteUpTheValleySaysHowMuchItClimbs() throws {
        let x = try Xvfb()
        let dir = try RouteCommandTests.home("directions-climb")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        let heights = StreetMapRenderTests.fixtures.appendingPathComponent("dem/andorra-dem.mbtiles").path
        try Data(#"{"sources": [{"name": "terrain-dem", "url": "\#(server.url("/mbtiles" + heights + "/{z}/{x}/{y}.png"))", "maxZoom": 12, "bulkDownload": true}]}"#.utf8)
            .write(to: dir.appendingPathComponent("meridian/sources.json"))
        let andorra = StreetMapRenderTests.fixtures.appendingPathComponent("vector/andorra.mbtiles").path
        let extract = StreetMapRenderTests.fixtures.appendingPathComponent("osm/andorra.osm.pbf").path
        let (app, id) = try startWindow(x, dir: dir, ["--size", "800x600", "--no-location", "--tiles", andorra, "--overlay", "terrain",
                                                       "--center", "42.513,1.541", "--zoom", "13", "--osm", extract],
                                        env: ["MERIDIAN_FRAME_LOG": "1", "XDG_CACHE_HOME": dir.path, "XDG_CONFIG_HOME": dir.path])
        #expect(app.readLog { $0.contains("route: engines Routino") }, "no engine: \(app.log.suffix(800))")
        // Andorra la Vella (about 1,020 m) to the road below Engolasters, by car: screen points
        // of 42.5063 N 1.5218 E and 42.5195 N 1.5615 E around the window's centre at z13.
        func screen(_ lat: Double, _ lon: Double) -> (Int, Int) {
            let c = worldPoint(lat: 42.513, lon: 1.541), p = worldPoint(lat: lat, lon: lon), k = 8192.0
            return (Int((400 + (p.x - c.x) * k).rounded()), Int((300 + (p.y - c.y) * k).rounded()))
        }
        try pickFromMenu(x, id, at: screen(42.5063, 1.5218), item: 1, dir: dir)
        try pickFromMenu(x, id, at: screen(42.5195, 1.5615), item: 2, dir: dir)
        #expect(app.readLog { $0.contains("route: climbs") }, "no heights: \(app.log.suffix(800))")
        let said = app.log.split(separator: "\n").first { $0.hasPrefix("route: climbs") }.map(String.init) ?? ""
        let numbers = said.split(whereSeparator: { !$0.isNumber }).compactMap { Double($0) }
        #expect(numbers.count == 2 && numbers[0] > 150 && numbers[0] < 600 && numbers[1] < numbers[0], "\(said)")
        try quit(x, id, app)
    }

    /// Started with `--route` twice over the Andorra extract — Andorra la Vella to El Tarter
    /// up the Valira valley — the window asks Routino for that route once its database is in,
    /// shows it right of the open panel with the view fitted to it, and it is the route
    /// `meridian route` finds between the same places.
    @Test func aRouteGivenOnTheCommandLineIsShownWhole() throws {
        let x = try Xvfb()
        let dir = try RouteCommandTests.home("directions-option")
        defer { try? FileManager.default.removeItem(at: dir) }
        let extract = StreetMapRenderTests.fixtures.appendingPathComponent("osm/andorra.osm.pbf").path
        let places = ["42.5063,1.5218", "42.5794,1.6500"]
        let env = ["MERIDIAN_FRAME_LOG": "1", "XDG_CACHE_HOME": dir.path, "XDG_CONFIG_HOME": dir.path]
        let (app, id) = try startWindow(x, dir: dir, ["--size", "800x600", "--no-location", "--osm", extract, "--route", places[0], "--route", places[1]], env: env)
        try app.waitForLog("a route") { !Self.routes($0).isEmpty }
        let shown = try #require(Self.routes(app.log).first)
        #expect(shown.vias == 0 && app.log.contains("route: engines Routino"), "\(app.log.suffix(800))")
        #expect(app.settles())
        let drawn = try screenshot(x, to: "/tmp/directions-route-option.png") { Self.routePixels($0) > 150 }
        #expect(Self.routePixels(drawn) > 150, "the route's line is drawn right of the panel")
        // The view was fitted to it: both ends are on screen, right of the panel.
        try quit(x, id, app)
        let view = try SavedView.read(dir)
        #expect(view.zoom > 11 && view.zoom < 14, "zoom \(view.zoom)")
        // The first start's hints wait for another start: the panel and the route's ends fill their corners.
        let saved = try String(contentsOf: dir.appendingPathComponent("meridian/view.json"), encoding: .utf8)
        #expect(!saved.contains(#""hintShown":true"#) && !saved.contains(#""helpHintShown":true"#), "\(saved)")
        #expect(view.center.lat > 42.50 && view.center.lat < 42.58 && view.center.lon > 1.45 && view.center.lon < 1.66, "\(view.center)")

        // The same route as `meridian route` finds (over the database the window built).
        let r = try run(meridianBinary, ["route", places[0], places[1], "--osm", extract, "--json"], env: env)
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let metres = try #require(json["distance_m"] as? Double)
        #expect(metres > 14_000 && metres < 18_000)
        #expect(abs(Double(shown.metres) - metres) <= 1, "the window's \(shown.metres) m, meridian route's \(metres) m")
    }

    /// A `--route` place that cannot be had is said before any window opens, as is a route
    /// of one place.
    @Test func aBadRoutePlaceIsSaidWithoutAWindow() throws {
        let dir = temporaryDirectory("directions-option-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = ["DISPLAY": "", "WAYLAND_DISPLAY": "", "XDG_CACHE_HOME": dir.path, "XDG_CONFIG_HOME": dir.path, "XDG_DATA_HOME": dir.path, "XDG_STATE_HOME": dir.path]
        let far = try run(meridianBinary, ["--route", "91,1.5", "--route", "42.5794,1.6500"], env: env)
        #expect(far.status == 64 && far.stderr.contains("--route: 91,1.5"), "\(far.status): \(far.stderr)")
        let unknown = try run(meridianBinary, ["--route", "Nowhereville-on-Nothing", "--route", "42.5794,1.6500"], env: env)
        #expect(unknown.status == 64 && unknown.stderr.contains("Nowhereville-on-Nothing"), "\(unknown.status): \(unknown.stderr)")
        let one = try run(meridianBinary, ["--route", "42.5794,1.6500"], env: env)
        #expect(one.status == 64 && one.stderr.contains("--route"), "\(one.status): \(one.stderr)")
        #expect(![far, unknown, one].contains { $0.stderr.contains("x11") || $0.stderr.contains("video") }, "no window was tried")
    }

    /// A point on the route's line along Yliopistonkatu, clear of the waypoints' pins (and of
    /// the street's name, which is drawn over the line).
    static func linePoint(_ png: PNG) -> (Int, Int)? {
        for x in stride(from: 448, to: 560, by: 1) {
            for y in stride(from: 365, to: 395, by: 1) {
                let c = png.pixel(x, y)
                if c.b > 200 && c.r < 70 && c.g > 90 && c.g < 150 { return (x, y) }
            }
        }
        return nil
    }
}
