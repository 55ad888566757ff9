import Foundation
import Testing
import TestPictures
import TestSupport

/// The map as a stack of tile layers, through the app: terrain laid over a real street map of
/// a mountain valley (central Andorra, Tests/Fixtures/vector and dem) at an opacity, the same
/// in `render` and the window; a MapLibre style's raster source drawn with its vector one.
@Suite(.serialized)
struct TileLayersRenderTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let streets = fixtures.appendingPathComponent("vector/andorra.mbtiles").path
    static let heights = fixtures.appendingPathComponent("dem/andorra-dem.mbtiles").path
    static let view = ["--tiles", streets, "--center", "42.515,1.535", "--zoom", "13"]

    /// A config folder whose sources.json puts the terrain's heights on the loopback server.
    func terrainConfig(_ dir: URL, _ server: TileServer) throws -> [String: String] {
        let config = dir.appendingPathComponent("config/meridian")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let json = #"{"sources": [{"name": "terrain-dem", "url": "\#(server.url("/mbtiles" + Self.heights + "/{z}/{x}/{y}.png"))", "maxZoom": 12, "attribution": "SRTM3", "bulkDownload": true}]}"#
        try Data(json.utf8).write(to: config.appendingPathComponent("sources.json"))
        return ["XDG_CONFIG_HOME": dir.appendingPathComponent("config").path, "XDG_CACHE_HOME": dir.appendingPathComponent("cache").path,
                "DISPLAY": "", "WAYLAND_DISPLAY": ""]
    }

    func render(_ extra: [String], env: [String: String], to out: String) throws -> PNG {
        let r = try run(meridianBinary, ["render"] + Self.view + ["--size", "384x256", "--no-labels", "--out", out] + extra, env: env)
        #expect(r.status == 0, "\(r.stderr)")
        return try PNG(out)
    }

    @Test func terrainLiesOverTheStreetMapAtItsOpacity() throws {
        let dir = temporaryDirectory("terrain-overlay")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        let env = try terrainConfig(dir, server)
        let plain = try render([], env: env, to: dir.appendingPathComponent("plain.png").path)
        let full = try render(["--overlay", "terrain@1"], env: env, to: dir.appendingPathComponent("full.png").path)
        let half = try render(["--overlay", "terrain@0.5"], env: env, to: dir.appendingPathComponent("half.png").path)
        // Where the terrain shows (shaded slopes, contour lines), the half-opaque overlay lies
        // halfway between the street map alone and the street map under the whole overlay.
        var shown = 0, halfway = 0
        // (Above the scale bar and the credits, drawn over it all.)
        for y in stride(from: 2, to: 230, by: 3) { for x in stride(from: 2, to: 382, by: 3) {
            let a = plain.pixel(x, y), b = full.pixel(x, y), h = half.pixel(x, y)
            guard abs(a.r - b.r) + abs(a.g - b.g) + abs(a.b - b.b) > 60 else { continue }
            shown += 1
            if abs(h.r - (a.r + b.r) / 2) <= 4 && abs(h.g - (a.g + b.g) / 2) <= 4 && abs(h.b - (a.b + b.b) / 2) <= 4 { halfway += 1 }
        } }
        #expect(shown > 1500, "the terrain changed \(shown) sampled pixels")
        #expect(Double(halfway) >= Double(shown) * 0.97, "\(halfway) of \(shown) halfway")
        // Under the overlay, the street map is still drawn: far from uniform, and not the overlay alone.
        #expect(half.distinctColours > 1000)
        // An overlay nobody offers is refused, saying which are.
        let bad = try run(meridianBinary, ["render", "--overlay", "hiking", "--out", dir.appendingPathComponent("x.png").path], env: env)
        #expect(bad.status != 0 && bad.stderr.contains("terrain"), "\(bad.stderr)")
    }

    @Test func windowAndRenderDrawTheSameStackOfLayers() throws {
        let dir = temporaryDirectory("terrain-onescene")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        var env = try terrainConfig(dir, server)
        let rendered = dir.appendingPathComponent("render.txt").path, windowed = dir.appendingPathComponent("window.txt").path
        let view = Self.view + ["--overlay", "terrain@0.7", "--size", "640x400"]
        let r = try run(meridianBinary, ["render"] + view + ["--at", "0.4", "--out", dir.appendingPathComponent("x.png").path, "--drawlist-out", rendered], env: env)
        #expect(r.status == 0, "\(r.stderr)")
        // The street map's search index made first (as `search` makes it, into this cache): a
        // window would otherwise index it as it opens, and its "Indexing… %" note — the
        // window's alone, render makes no index — is on screen or not by when the indexing
        // thread gets a processor.
        let indexed = try run(meridianBinary, ["search", "Andorra", "--tiles", Self.streets], env: env)
        #expect(indexed.status == 0, "\(indexed.stderr)")
        let state = dir.appendingPathComponent("state/meridian")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try Data(#"{"center":{"lat":0,"lon":0},"zoom":3,"helpHintShown":true,"hintShown":true}"#.utf8).write(to: state.appendingPathComponent("view.json"))
        let x = try Xvfb(width: 640, height: 400)
        env["DISPLAY"] = x.display
        env["XDG_STATE_HOME"] = dir.appendingPathComponent("state").path
        env["MERIDIAN_FIXED_TIME"] = "0.4"
        env["MERIDIAN_DRAWLIST_OUT"] = windowed
        let app = try App(view + ["--exit-when-drawn"], env: env)
        #expect(app.waitForExit(timeout: 60), "the window never finished drawing")
        let a = try String(contentsOfFile: rendered, encoding: .utf8).split(separator: "\n")
        let b = try String(contentsOfFile: windowed, encoding: .utf8).split(separator: "\n")
        // The street map's tiles (layer 1, over the basemap's, layer 0) and the terrain's over them (layer 2) at 0.7.
        #expect(a.contains { $0.hasPrefix("tile(") && $0.contains("layer: 1,") })
        #expect(a.contains { $0.hasPrefix("tile(") && $0.contains("layer: 2,") && $0.contains("opacity: 0.7") })
        #expect(a.lastIndex { $0.contains("layer: 1,") }! < a.firstIndex { $0.contains("layer: 2,") }!)
        #expect(a == b, "first difference at \(a.indices.first { $0 >= b.count || a[$0] != b[$0] } ?? a.count): \(a.count) vs \(b.count) commands")
    }

    @Test func aStylesRasterSourceIsDrawnWithItsVectorSource() throws {
        let dir = temporaryDirectory("style-sources")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        // OpenFreeMap's Liberty: a raster source (Natural Earth, shaded) under its vector layers.
        // Its pictures come from the stand-in: one colour a tile (tile-server.py's `colour`).
        let liberty = try String(contentsOf: Self.fixtures.appendingPathComponent("styles/liberty.json"), encoding: .utf8)
        func style(_ rasters: String, _ name: String) throws -> String {
            let path = dir.appendingPathComponent(name).path
            try liberty.replacingOccurrences(of: "https://__TILEJSON_DOMAIN__/natural_earth/ne2sr", with: rasters).write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let env = ["XDG_CACHE_HOME": dir.appendingPathComponent("cache").path, "DISPLAY": "", "WAYLAND_DISPLAY": ""]
        func draw(_ stylePath: String, _ out: String) throws -> (PNG, String) {
            let r = try run(meridianBinary, ["render", "--tiles", Self.fixtures.appendingPathComponent("vector/helsinki.mbtiles").path, "--style", stylePath,
                                             "--center", "60.17,24.94", "--zoom", "4", "--size", "320x240", "--no-labels", "--out", dir.appendingPathComponent(out).path],
                            env: env)
            #expect(r.status == 0, "\(r.stderr)")
            return (try PNG(dir.appendingPathComponent(out).path), r.stderr)
        }
        let (drawn, _) = try draw(try style(server.url("/tile"), "liberty.json"), "with.png")
        // Liberty draws the raster at MapLibre zoom 3 (Meridian's 4) at an opacity of
        // 0.6 + (0.1 − 0.6)·(1.5³ − 1)/(1.5⁶ − 1) over its background #f8f4f0.
        let t: Double = (pow(1.5, 3) - 1) / (pow(1.5, 6) - 1)
        let opacity: Double = 0.6 - 0.5 * t
        let c = worldPoint(lat: 60.17, lon: 24.94)
        for (px, py) in [(60, 60), (260, 60), (60, 170), (260, 170)] {
            let tx = Int(((c.x + Double(px - 160) / 16) * 16 / 256).rounded(.down)), ty = Int(((c.y + Double(py - 120) / 16) * 16 / 256).rounded(.down))
            let tile: [Double] = [Double((tx * 40 + ty * 90) % 256), 80, 160], ground: [Double] = [248, 244, 240]
            let want = zip(ground, tile).map { $0 * (1 - opacity) + $1 * opacity }
            let p = drawn.pixel(px, py)
            let got: [Double] = [Double(p.r), Double(p.g), Double(p.b)]
            #expect(zip(got, want).allSatisfy { abs($0 - $1) <= 4 }, "at \(px),\(py) (tile 4/\(tx)/\(ty)): \(got), want \(want)")
        }
        // Pointing nowhere (no server there), the raster is left out, and what lies under the
        // street map where it has no tile of its own (the basemap) shows instead.
        let (bare, _) = try draw(try style("http://127.0.0.1:9/none", "nowhere.json"), "without.png")
        let p = bare.pixel(60, 60), q = drawn.pixel(60, 60)
        #expect(abs(p.r - q.r) + abs(p.g - q.g) + abs(p.b - q.b) > 30, "\(p) vs \(q)")
        // A source that is no address is said, and its layer left out.
        let (_, said) = try draw(try style("not an address", "broken.json"), "broken.png")
        #expect(said.contains("ne2_shaded"), "\(said)")
    }

    @Test func terrainSavedWithAnAreaIsDrawnOffline() throws {
        let dir = temporaryDirectory("terrain-saved")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        var env = try terrainConfig(dir, server)
        env["XDG_DATA_HOME"] = dir.appendingPathComponent("data").path
        let online = try render(["--overlay", "terrain@0.8"], env: env, to: dir.appendingPathComponent("online.png").path)
        // The heights of the valley saved as an area, as "Save this area" does with terrain on.
        let areas = dir.appendingPathComponent("data/meridian/areas")
        try FileManager.default.createDirectory(at: areas, withIntermediateDirectories: true)
        let x = try run(meridianBinary, ["extract", "--from", "terrain-dem", "--bbox", "1.50,42.49,1.57,42.555", "--maxzoom", "12",
                                         "--out", areas.appendingPathComponent("valley-terrain.pmtiles").path, "--title", "Valley (terrain)"], env: env)
        #expect(x.status == 0, "\(x.stderr)")
        // Offline: the heights' server is gone; the terrain is drawn from the saved area, the same.
        let config = dir.appendingPathComponent("config/meridian/sources.json")
        try Data(#"{"sources": [{"name": "terrain-dem", "url": "http://127.0.0.1:9/{z}/{x}/{y}.png", "maxZoom": 12}]}"#.utf8).write(to: config)
        env["XDG_CACHE_HOME"] = dir.appendingPathComponent("cold-cache").path
        let offline = try render(["--overlay", "terrain@0.8"], env: env, to: dir.appendingPathComponent("offline.png").path)
        var same = 0, all = 0
        for y in stride(from: 2, to: 230, by: 5) { for x in stride(from: 2, to: 382, by: 5) {
            let a = online.pixel(x, y), b = offline.pixel(x, y)
            all += 1
            if abs(a.r - b.r) <= 2 && abs(a.g - b.g) <= 2 && abs(a.b - b.b) <= 2 { same += 1 }
        } }
        #expect(same == all, "\(all - same) of \(all) sampled pixels differ")
        // And without the saved heights, offline, no terrain: the picture differs.
        try FileManager.default.removeItem(at: areas.appendingPathComponent("valley-terrain.pmtiles"))
        env["XDG_CACHE_HOME"] = dir.appendingPathComponent("colder-cache").path
        let bare = try render(["--overlay", "terrain@0.8"], env: env, to: dir.appendingPathComponent("bare.png").path)
        var differ = 0
        for y in stride(from: 2, to: 230, by: 5) { for x in stride(from: 2, to: 382, by: 5) {
            let a = online.pixel(x, y), b = bare.pixel(x, y)
            if abs(a.r - b.r) + abs(a.g - b.g) + abs(a.b - b.b) > 30 { differ += 1 }
        } }
        #expect(differ > all / 4, "\(differ) of \(all)")
    }

    @Test func aTrackLiesOverTheTerrainNotUnderItsShading() throws {
        let dir = temporaryDirectory("terrain-track")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        let env = try terrainConfig(dir, server)
        // A walk straight across the valley, along the view's middle row.
        let gpx = dir.appendingPathComponent("walk.gpx")
        try Data(#"<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg><trkpt lat="42.515" lon="1.50"/><trkpt lat="42.515" lon="1.57"/></trkseg></trk></gpx>"#.utf8).write(to: gpx)
        let plain = try render([gpx.path], env: env, to: dir.appendingPathComponent("plain.png").path)
        let shaded = try render([gpx.path, "--overlay", "terrain@1"], env: env, to: dir.appendingPathComponent("shaded.png").path)
        // Along the track's middle (the view's middle row), its colour is the same with the
        // terrain as without: drawn over it. Beside the track the terrain shows.
        var same = 0, beside = 0
        for x in stride(from: 40, to: 344, by: 8) {
            let a = plain.pixel(x, 128), b = shaded.pixel(x, 128)
            if abs(a.r - b.r) <= 3 && abs(a.g - b.g) <= 3 && abs(a.b - b.b) <= 3 { same += 1 }
            let c = plain.pixel(x, 60), d = shaded.pixel(x, 60)
            if abs(c.r - d.r) + abs(c.g - d.g) + abs(c.b - d.b) > 20 { beside += 1 }
        }
        #expect(same == 38, "\(same) of 38 track pixels unchanged")
        #expect(beside > 10, "the terrain changed \(beside) of 38 pixels beside the track")
    }
}
