import Foundation
import MapNetwork
import Testing
import MapTiles
import TestPictures
import TestSupport


/// Street-level search in the real window over a real street map (Helsinki from
/// OpenStreetMap): the map's names indexed on a worker, a street typed, chosen and flown to
/// with its whole line drawn, and what is at a right-clicked point said in the pin's callout
/// and copied with Ctrl+C. The test waits on what the app says (its frame log), not on time.
@Suite(.serialized) struct StreetSearchWindowTests {
    static let names = StreetMapRenderTests.fixtures.appendingPathComponent("vector/helsinki-names.mbtiles").path

    /// How long the test waits at most for what the window does on workers: the map's index,
    /// built at idle priority (SCHED_IDLE), which a machine kept busy by other work (a
    /// parallel `make test`) lends only its idle moments (a minute under two busy loops on two
    /// cores), and the built-in places, read when the box first opens (seconds in a debug
    /// build). A guard against waiting forever only: the test goes on once the app says so.
    static let workDeadline = 300.0

    /// The chosen street's line: its orange (255, 122, 0 at 85 %) drawn into the tiles.
    static func orangeLine(_ png: PNG, row: Int) -> Int {
        (0..<800).filter { x in let c = png.pixel(x, row); return c.r > 230 && c.g > 110 && c.g < 160 && c.b < 70 }.count
    }

    /// Whether the list's first row has the selection's tint (blue ink over white), at its
    /// right end, where neither a name nor its grey detail reaches.
    static func firstRowTinted(_ png: PNG) -> Bool {
        let t = png.pixel(784, 65)
        return t.b > t.r && t.r < 250
    }

    /// The last search box the app said a frame showed (MERIDIAN_FRAME_LOG: `search list
    /// "query": rows N selected K: first row | second row…`).
    static func lastList(_ log: String) -> Substring? {
        log.split(separator: "\n").last { $0.hasPrefix("search list ") }
    }

    /// Whether the last list said is for `query`, with its first row, `first`, selected.
    static func listShown(_ log: String, query: String, first: String) -> Bool {
        guard let line = lastList(log), line.hasPrefix("search list \"\(query)\": "), let r = line.range(of: " selected 0: ") else { return false }
        return line[r.upperBound...].components(separatedBy: " | ").first == first
    }

    /// Ctrl+F, and the wait for a frame with the box open and empty: only from then on does
    /// the box take the keyboard's text (letters typed sooner are keys for the map, lost).
    static func openBox(_ x: Xvfb, _ app: App) throws {
        _ = try x.xdotool("key", "ctrl+f")
        try app.waitForLog("the search box open") { lastList($0)?.hasPrefix("search list \"\": ") == true }
    }

    @Test func aStreetTypedIsFlownToAndDrawnWholeAndAPointSaysWhatIsThere() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("street-search")
        defer { try? FileManager.default.removeItem(at: dir) }
        // An index left by a map file that has gone since: the window deletes it.
        let gone = dir.appendingPathComponent("gone.mbtiles")
        try FileManager.default.copyItem(atPath: StreetMapRenderTests.fixtures.appendingPathComponent("vector/kotka.mbtiles").path, toPath: gone.path)
        let indexed = try run(meridianBinary, ["search", "x", "--tiles", gone.path], env: ["XDG_CACHE_HOME": dir.path])
        #expect(indexed.status == 0, "\(indexed.stderr)")
        try FileManager.default.removeItem(at: gone)
        let searchFolder = dir.appendingPathComponent("meridian/search").path
        #expect(try FileManager.default.contentsOfDirectory(atPath: searchFolder).contains { $0.hasPrefix("gone-mbtiles-") })
        let (app, id) = try startWindow(x, dir: dir, ["--size", "800x600", "--no-location", "--tiles", Self.names,
                                                       "--center", "60.1745,24.9368", "--zoom", "16"],
                                        env: ["MERIDIAN_FRAME_LOG": "1", "XDG_CACHE_HOME": dir.path, "XDG_CONFIG_HOME": dir.path])
        // The map's names are indexed on a worker, then searchable.
        #expect(app.readLog(deadline: Self.workDeadline) { $0.contains("search: indexes ready: Meridian test fixture") }, "never indexed: \(app.log.suffix(800))")
        let index = try FileManager.default.contentsOfDirectory(atPath: searchFolder)
        #expect(index.contains { $0.hasPrefix("helsinki-names-mbtiles-") && $0.hasSuffix(".sqlite") }, "\(index)")
        #expect(!index.contains { $0.hasPrefix("gone-mbtiles-") }, "the gone map's index is deleted: \(index)")
        #expect(app.settles())

        try Self.openBox(x, app)
        // Typed without the dot of ä, as on a keyboard without it.
        _ = try x.xdotool("type", "--delay", "40", "aleksanterinkatu")
        // The first row is the street, selected. Until the places are read (on a worker, from
        // the box's first opening) the first row says they are loading, untinted, while the
        // loop rests: the picture is taken once the app says a frame with the street's list
        // is on screen (and the X server has it).
        try app.waitForLog("the street listed first and selected", deadline: Self.workDeadline) { Self.listShown($0, query: "aleksanterinkatu", first: "Aleksanterinkatu") }
        let list = try screenshot(x, to: dir.appendingPathComponent("list.png").path) { Self.firstRowTinted($0) }
        #expect(Self.firstRowTinted(list), "the first row is selected: \(list.pixel(784, 65))")
        _ = try x.xdotool("key", "Return")
        #expect(app.settles(), "the flight ends")
        let shot = try screenshot(x, to: dir.appendingPathComponent("street.png").path) { png in
            (200..<500).contains { Self.orangeLine(png, row: $0) > 150 }
        }
        let widest = (150..<550).map { Self.orangeLine(shot, row: $0) }.max() ?? 0
        #expect(widest > 150, "the street's whole line across the view: \(widest) px")

        // A right-click's menu drops a pin; what is there comes from the index, into its callout.
        // The right-click menu's first item: "Drop a pin here" (at the point right-clicked).
        try pickFromMenu(x, id, at: (400, 300), item: 0, dir: dir)
        #expect(app.readLog { $0.contains("search: what is here") }, "\(app.log.suffix(800))")
        let said = app.log.split(separator: "\n").last { $0.contains("search: what is here") }.map(String.init) ?? ""
        #expect(said.contains("Aleksanterinkatu"), "\(said)")
        #expect(app.settles())
        _ = try x.xdotool("key", "ctrl+c")
        #expect(app.readLog { $0.contains("Copied ") })
        let clip = try run(which("xclip")!, ["-o", "-selection", "clipboard"], env: ["DISPLAY": x.display])
        #expect(clip.stdout.hasPrefix("Aleksanterinkatu"), "copied: \(clip.stdout)")
        #expect(clip.stdout.contains("(60.1"), "with its coordinates: \(clip.stdout)")
        try quit(x, id, app)
        let view = try SavedView.read(dir)
        #expect(abs(view.center.lat - 60.1690) < 0.002 && abs(view.center.lon - 24.946) < 0.006, "\(view.center)")
    }

    /// The searches the stand-in geocoder has seen.
    static func requests(_ server: TileServer) throws -> [[String: Any]] {
        guard case let .response(r) = HTTPClient(options: .init(userAgent: "Meridian-tests")).get(server.url("/log")) else {
            throw HarnessError("the stand-in geocoder's log cannot be read")
        }
        return try JSONSerialization.jsonObject(with: r.body) as? [[String: Any]] ?? []
    }

    @Test func theGeocoderIsAskedOnEnterNotPerKeyAndItsAnswerIsChosen() throws {
        let server = try TileServer(script: "geocoder-server.py")
        let x = try Xvfb()
        let dir = temporaryDirectory("online-search")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("meridian")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data(#"{"url": "\#(server.url(""))", "kind": "nominatim", "credit": "© OpenStreetMap contributors · stand-in"}"#.utf8)
            .write(to: config.appendingPathComponent("geocoder.json"))
        let (app, id) = try startWindow(x, dir: dir, ["--size", "800x600", "--no-location", "--tiles", Self.names,
                                                       "--center", "60.1745,24.9368", "--zoom", "16"],
                                        env: ["MERIDIAN_FRAME_LOG": "1", "XDG_CACHE_HOME": dir.path, "XDG_CONFIG_HOME": dir.path])
        #expect(app.readLog(deadline: Self.workDeadline) { $0.contains("search: indexes ready") })
        #expect(app.settles())
        try Self.openBox(x, app)
        _ = try x.xdotool("type", "--delay", "40", "sibeliuksenkatu 9")
        // All typed and the list drawn (its one row, selected, offers the online search).
        try app.waitForLog("the list of what was typed", deadline: Self.workDeadline) { Self.listShown($0, query: "sibeliuksenkatu 9", first: "Nothing here by that name: search online ↵") }
        #expect(try Self.requests(server).isEmpty, "no request per keystroke")
        // Nothing offline by that name: Enter asks, once.
        _ = try x.xdotool("key", "Return")
        #expect(app.readLog { $0.contains("search: online answered") }, "\(app.log.suffix(600))")
        let asked = try Self.requests(server)
        #expect(asked.count == 1 && asked.first?["q"] as? String == "sibeliuksenkatu 9", "\(asked)")
        #expect((asked.first?["ua"] as? String)?.hasPrefix("Meridian/") == true, "the app says who asks")
        // The answer's first row, Helsinki, is selected (the list's tint) once the app says a
        // frame with the answer is on screen; Enter flies there.
        try app.waitForLog("the answer listed, its first row selected") { Self.listShown($0, query: "sibeliuksenkatu 9", first: "Helsinki") }
        let list = try screenshot(x, to: dir.appendingPathComponent("online.png").path) { Self.firstRowTinted($0) }
        #expect(Self.firstRowTinted(list), "\(list.pixel(784, 65))")
        _ = try x.xdotool("key", "Return")
        #expect(app.settles())
        // A failing geocoder is said, and the box stays.
        try Self.openBox(x, app)
        _ = try x.xdotool("type", "--delay", "20", "garbage")
        _ = try x.xdotool("key", "Return")
        #expect(app.readLog { $0.contains("search: online failed for \"garbage\"") }, "\(app.log.suffix(600))")
        _ = try x.xdotool("key", "Escape")
        // W asks the geocoder what is at the pointer (its /reverse), said in a notice.
        _ = try x.xdotool("mousemove", "--window", id, "400", "300")
        _ = try x.xdotool("key", "w")
        #expect(app.readLog { $0.contains("search: online what is here") }, "\(app.log.suffix(600))")
        #expect(app.readLog { $0.contains("meridian: Here: ") }, "\(app.log.suffix(600))")
        let here = app.log.split(separator: "\n").last { $0.contains("meridian: Here: ") }.map(String.init) ?? ""
        #expect(here.hasSuffix("Here: Stockmann, Kluuvi, Helsinki (© OpenStreetMap contributors · stand-in)"), "\(here)")
        #expect(try Self.requests(server).contains { ($0["path"] as? String)?.hasPrefix("/reverse?lat=60.") == true })
        try quit(x, id, app)
        let view = try SavedView.read(dir)
        // The stand-in's first answer is Helsinki (the city), at 60.16989, 24.93838.
        #expect(abs(view.center.lat - 60.16989) < 0.001 && abs(view.center.lon - 24.93838) < 0.002, "\(view.center)")
    }
}
