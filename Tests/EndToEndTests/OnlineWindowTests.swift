import Foundation
import MapTiles
import Testing
import TestPictures
import TestSupport

/// Online tiles in the real window against the loopback server: frames keep coming whatever
/// the server does, the basemap shows where its tiles do not, the layer switcher's choice is
/// kept, and no fresh tile is fetched twice.
@Suite(.serialized) struct OnlineWindowTests {
    /// Where the tests look: Paris at z6 (land, sea and borders on screen).
    static let view = ["--center", "48.85,2.35", "--zoom", "6", "--size", "800x600"]
    static let land = (r: 0xF3, g: 0xF0, b: 0xE8), water = (r: 0xAA, g: 0xD0, b: 0xE6)

    func start(_ x: Xvfb, _ dir: URL, _ args: [String], env: [String: String] = [:]) throws -> (App, String) {
        let app = try App(Self.view + args, env: ["DISPLAY": x.display, "WAYLAND_DISPLAY": "", "XDG_STATE_HOME": dir.path,
                                                  "XDG_CACHE_HOME": dir.path, "XDG_CONFIG_HOME": dir.path,
                                                  "XDG_DATA_HOME": dir.path].merging(env) { $1 })
        let id = try app.window(on: x)
        try x.moveToOrigin(id)
        return (app, id)
    }

    /// The share of a grid of the window's pixels that are one of `colours`.
    func share(of colours: [(r: Int, g: Int, b: Int)], in png: PNG) -> Double {
        var hits = 0, n = 0
        for y in stride(from: 60, to: 560, by: 23) {
            for x in stride(from: 20, to: 780, by: 23) {
                let c = png.pixel(x, y)
                n += 1
                if colours.contains(where: { abs(c.r - $0.r) <= 3 && abs(c.g - $0.g) <= 3 && abs(c.b - $0.b) <= 3 }) { hits += 1 }
            }
        }
        return Double(hits) / Double(n)
    }

    /// The share of the basemap's land and water.
    func basemapShare(_ png: PNG) -> Double { share(of: [Self.land, Self.water], in: png) }

    func cachedTiles(_ dir: URL) -> [String] {
        let root = dir.appendingPathComponent("meridian/tiles").path
        return (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".tile") }
    }

    /// How many presents the app's frame log holds after its first `skipping` frame events.
    func presents(_ app: App, after skipping: Int = 0) -> Int {
        app.frameEvents.dropFirst(skipping).filter { $0.kind == "present" }.count
    }

    @Test(arguments: ["/status/404", "/status/500", "/429", "/stall", "/truncated", "/garbage", "/big", "/reset", "/forever"])
    func theWindowKeepsPresentingAndTheBasemapShowsWhateverTheServerDoes(_ path: String) throws {
        let server = try TileServer()
        let x = try Xvfb()
        let dir = temporaryDirectory("misbehaving")
        defer { try? FileManager.default.removeItem(at: dir) }
        // The pulsing location asks for a frame every vsync.
        let (app, id) = try start(x, dir, ["--tiles", server.url(path + "?t={z}-{x}-{y}"), "--location", "48.85,2.35,20000"],
                                  env: ["MERIDIAN_FRAME_LOG": "1"])
        #expect(app.readLog { _ in presents(app) >= 10 }, "no frames with \(path)")
        // Pan about: new tiles are asked for (and old ones given up) while frames go on.
        _ = try x.xdotool("windowfocus", "--sync", id)
        let panned = app.frameEvents.count
        for key in ["Right", "Right", "Down", "plus", "Left"] {
            // Each key, then ten frames (the pulse goes on): tiles of each view are asked for.
            let mark = app.presentMark
            _ = try x.xdotool("key", key)
            try app.waitForLog("ten frames after \(key)") { _ in app.presents >= mark + 10 }
        }
        // Frames keep coming while the server misbehaves: 60 more presents. (A frame that
        // waited on the network would stall the loop as long as the server does: 5 s, or for
        // ever.) Frame costs while tiles stream in are the bench's to measure (`meridian
        // bench`, the online zoom script's rows).
        #expect(app.readLog { _ in presents(app, after: panned) >= 60 }, "frames stopped with \(path)")
        let shot = try screenshot(x, to: dir.appendingPathComponent("shot.png").path) { basemapShare($0) > 0.5 }
        try quit(x, id, app)
        #expect(basemapShare(shot) > 0.5, "the basemap did not show with \(path)")
        // Nothing bad is cached. The stall's answer is a good picture, only late: kept if it
        // came before the quit, and then whole.
        if path == "/stall" {
            let root = dir.appendingPathComponent("meridian/tiles")
            for e in cachedTiles(dir) {
                let entry = TileDiskCache.decode(try Data(contentsOf: root.appendingPathComponent(e)))
                #expect(entry.map { OnlineTileSource.looksLikeImage($0.body) } == true, "\(e) is not the server's picture")
            }
        } else {
            #expect(cachedTiles(dir).isEmpty, "\(path) left \(cachedTiles(dir))")
        }
    }

    @Test func theSwitcherChangesTheMapAndTheChoiceIsKeptWithoutFetchingAgain() throws {
        let server = try TileServer()
        let x = try Xvfb()
        let dir = temporaryDirectory("switcher")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("meridian")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let sources = #"{"sources": [{"name": "loop", "title": "Loopback streets", "url": "\#(server.url("/street/{z}/{x}/{y}.png"))", "maxZoom": 19}]}"#
        try sources.write(to: config.appendingPathComponent("sources.json"), atomically: true, encoding: .utf8)
        let env = ["MERIDIAN_HTTP_LOG": "1", "MERIDIAN_FRAME_LOG": "1"]
        // The basemap first (nothing chosen yet); the button opens the list, and 5 picks the
        // fifth map: basemap, OpenStreetMap, OpenTopoMap, OpenFreeMap, then sources.json's.
        var (app, id) = try start(x, dir, ["--no-location"], env: env)
        try app.waitUntilReady()
        try app.settle(after: "the click on the switcher") { _ = try x.xdotool("mousemove", "--window", id, "40", "24", "click", "1") }
        _ = try x.xdotool("key", "5")
        // The server's street tiles: mostly ground, streets and their edges.
        let street = [(r: 242, g: 239, b: 233), (r: 255, g: 255, b: 255), (r: 190, g: 185, b: 180)]
        func streets(_ png: PNG) -> Bool { share(of: street, in: png) > 0.6 }
        #expect(streets(try screenshot(x, to: dir.appendingPathComponent("chosen.png").path, until: streets)))
        try quit(x, id, app)
        let first = app.wholeLog
        let fetched = first.split(separator: "\n").filter { $0.hasPrefix("http GET") && $0.hasSuffix(" 200") }
        #expect(fetched.count >= 12, "\(first)")
        #expect(Set(fetched).count == fetched.count, "a tile was fetched twice: \(first)")
        let saved = try String(contentsOf: dir.appendingPathComponent("meridian/view.json"), encoding: .utf8)
        #expect(saved.contains(#""tiles":"loop""#), "\(saved)")

        // Started again: the same map, all from the disk cache (every tile is fresh for a day).
        (app, id) = try start(x, dir, ["--no-location"], env: env)
        #expect(streets(try screenshot(x, to: dir.appendingPathComponent("again.png").path, until: streets)))
        // At rest: every tile of the view is in, whether from the disk or fetched.
        #expect(app.settles(), "the window did not come to rest")
        try quit(x, id, app)
        let second = app.wholeLog
        let again = second.split(separator: "\n").filter { $0.hasPrefix("http GET") }
        #expect(Set(again).isDisjoint(with: Set(fetched)), "fresh tiles fetched again: \(again)")
    }

    @Test func theHintIsShownOnceAndTheCreditOpensTheCopyrightPage() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("hint")
        defer { try? FileManager.default.removeItem(at: dir) }
        // The hint's dark plate sits under the switcher's button, top left.
        func darkBelowButton(_ png: PNG) -> Bool {
            (20..<200).filter { png.pixel($0, 56).r < 80 && png.pixel($0, 56).g < 80 }.count > 100
        }
        var (app, id) = try start(x, dir, ["--no-location", "--zoom", "9"])
        #expect(darkBelowButton(try screenshot(x, to: dir.appendingPathComponent("hint.png").path, until: darkBelowButton)))
        try quit(x, id, app)
        let saved = try String(contentsOf: dir.appendingPathComponent("meridian/view.json"), encoding: .utf8)
        #expect(saved.contains(#""hintShown":true"#), "\(saved)")
        // Not again; and OpenStreetMap's credit, clicked, goes to the browser (a script here).
        let opened = dir.appendingPathComponent("opened.txt").path
        let browser = dir.appendingPathComponent("browser.sh")
        try "#!/bin/sh\necho \"$1\" > \(opened)\n".write(to: browser, atomically: true, encoding: .utf8)
        chmod(browser.path, 0o755)
        // OpenStreetMap's tiles through a dead proxy: they fail at once, wherever the test
        // runs, and the basemap stands in (its credit after OpenStreetMap's). Each change of
        // the credit's text leaves it undrawn (and not clickable) until its letters are made.
        let offline = ["https_proxy": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9", "all_proxy": "http://127.0.0.1:9"]
        (app, id) = try start(x, dir, ["--no-location", "--zoom", "9", "--tiles", "osm"], env: ["MERIDIAN_BROWSER": browser.path].merging(offline) { $1 })
        // Once the chrome is drawn to the end (the credit, OpenStreetMap's and the basemap's,
        // at the bottom right corner, where the click goes next), no hint with it.
        // (And the map drawn under it: a window not yet drawn is black, "dark" everywhere.)
        func credited(_ png: PNG) -> Bool {
            png.darkFraction(x: 520, y: 586, w: 100, h: 10, level: 120) > 0.05 && png.darkFraction(x: 650, y: 586, w: 140, h: 10, level: 120) > 0.05
                && png.darkFraction(x: 200, y: 200, w: 200, h: 150, level: 60) < 0.5
        }
        let chrome = try screenshot(x, to: dir.appendingPathComponent("nohint.png").path, until: credited)
        #expect(credited(chrome), "no credit drawn")
        #expect(!darkBelowButton(chrome))
        _ = try x.xdotool("mousemove", "--window", id, "760", "592", "click", "1")
        try waitUntil("the browser to be handed a link", detail: { app.errorOutput }) { ((try? String(contentsOfFile: opened, encoding: .utf8)) ?? "").hasSuffix("\n") }
        try quit(x, id, app)
        #expect((try? String(contentsOfFile: opened, encoding: .utf8)) == "https://www.openstreetmap.org/copyright\n")
    }

    @Test func aPanAndZoomScriptFetchesNoFreshTileTwice() throws {
        let server = try TileServer()
        let x = try Xvfb()
        let dir = temporaryDirectory("script")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (app, id) = try start(x, dir, ["--no-location", "--tiles", server.url("/street/{z}/{x}/{y}.png")],
                                  env: ["MERIDIAN_HTTP_LOG": "1", "MERIDIAN_FRAME_LOG": "1"])
        try app.waitUntilReady()
        _ = try x.xdotool("windowfocus", "--sync", id)
        // In, about, out and back: the way back crosses tiles already fetched. Each step's
        // tiles are in (the window at rest) before the next key.
        for key in ["plus", "plus", "Right", "Right", "Down", "Left", "Left", "Up", "minus", "minus", "plus", "minus"] {
            try app.settle(after: key) { _ = try x.xdotool("key", key) }
        }
        // A plain-http map never loads libcurl, nor the TLS stack it brings (8 MiB).
        let maps = try String(contentsOfFile: "/proc/\(app.process.processIdentifier)/maps", encoding: .utf8)
        #expect(!maps.contains("libcurl") && !maps.contains("libssl"), "libcurl loaded for http://")
        try quit(x, id, app)
        let log = app.wholeLog
        let fetched = log.split(separator: "\n").filter { $0.hasPrefix("http GET") && $0.hasSuffix(" 200") }
        #expect(fetched.count > 40, "\(log)")
        var seen: [Substring: Int] = [:]
        for f in fetched { seen[f, default: 0] += 1 }
        #expect(seen.filter { $0.value > 1 }.isEmpty, "fetched twice: \(seen.filter { $0.value > 1 })")
        // What the server saw: each tile asked for once at most (cancelled requests aside,
        // which the app never completed).
        #expect(!log.contains("the server answered"), "\(log)")
    }

    @Test func killedWhileWritingTheCacheLeavesOnlyWholeEntries() throws {
        let server = try TileServer()
        let dir = temporaryDirectory("killed")
        defer { try? FileManager.default.removeItem(at: dir) }
        let template = server.url("/street/{z}/{x}/{y}.png")
        // Renders of a large view, killed at different moments while tiles stream into the cache:
        // once 1, 2, 4, 8, 16 more tiles are in.
        for (i, more) in [1, 2, 4, 8, 16].enumerated() {
            let before = cachedTiles(dir).count
            let p = Process()
            p.executableURL = URL(fileURLWithPath: meridianBinary)
            p.arguments = ["render", "--tiles", template, "--center", "\(40 + i),\(i * 3)", "--zoom", "9", "--size", "1600x1200",
                           "--out", dir.appendingPathComponent("never.png").path]
            p.environment = ["XDG_CACHE_HOME": dir.path, "HOME": dir.path]
            p.standardError = FileHandle.nullDevice
            try p.run()
            try waitUntil("\(more) more tiles cached in round \(i)", interval: 0.01, detail: { "\(cachedTiles(dir).count - before) are" }) {
                cachedTiles(dir).count >= before + more || !p.isRunning
            }
            #expect(p.isRunning, "round \(i): the render ended before \(more) more tiles were cached")
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
        }
        let root = dir.appendingPathComponent("meridian/tiles")
        let entries = cachedTiles(dir)
        #expect(!entries.isEmpty, "nothing was cached before the kills")
        for e in entries {
            let data = try Data(contentsOf: root.appendingPathComponent(e))
            #expect(TileDiskCache.decode(data) != nil, "\(e) is damaged")
        }
        // Leftover temporary files are not entries: a render from the cache alone draws.
        let out = dir.appendingPathComponent("after.png").path
        let r = try run(meridianBinary, ["render", "--tiles", template, "--center", "40,0", "--zoom", "9", "--size", "400x300", "--out", out],
                        env: ["XDG_CACHE_HOME": dir.path])
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test func aDeadServerLeavesTheBasemapInRender() throws {
        let dir = temporaryDirectory("dead")
        defer { try? FileManager.default.removeItem(at: dir) }
        let args = ["--center", "48.85,2.35", "--zoom", "6", "--size", "800x600", "--no-labels"]
        let online = dir.appendingPathComponent("online.png").path, base = dir.appendingPathComponent("base.png").path
        let r = try run(meridianBinary, ["render", "--tiles", "http://127.0.0.1:9/{z}/{x}/{y}.png", "--out", online] + args,
                        env: ["XDG_CACHE_HOME": dir.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try run(meridianBinary, ["render", "--out", base] + args).status == 0)
        let (a, b) = (try PNG(online), try PNG(base))
        // The same map where the tiles are (the scale bar and credit differ).
        var same = 0, n = 0
        for y in stride(from: 10, to: 540, by: 20) {
            for x in stride(from: 10, to: 790, by: 20) {
                n += 1
                let p = a.pixel(x, y), q = b.pixel(x, y)
                if abs(p.r - q.r) <= 2 && abs(p.g - q.g) <= 2 && abs(p.b - q.b) <= 2 { same += 1 }
            }
        }
        #expect(Double(same) / Double(n) > 0.97, "\(same) of \(n) pixels match the basemap")
    }
}
