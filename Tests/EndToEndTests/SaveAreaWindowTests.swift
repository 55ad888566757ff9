import Foundation
import MapGeometry
import MapTiles
import Testing
import TestPictures
import TestSupport

/// "Save this area offline…" end to end in the real window against the loopback server: key A
/// outlines the view, Enter saves it with its progress on the map, the area is listed in the
/// switcher with its size, and with the server gone (and nothing in the tile cache) the next
/// start draws the area's tiles at street level, the switcher saying so.
@Suite(.serialized) struct SaveAreaWindowTests {
    static let centre = (lat: 60.17, lon: 24.94)

    /// The server's colour of tile x, y (Tests/Fixtures/tile-server.py's /tile/).
    static func colour(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) { ((x * 40 + y * 90) % 256, 80, 160) }

    /// Whether the window's centre shows the server's tile for the centre at zoom `z`.
    static func showsTile(_ png: PNG, zoom z: Int) -> Bool {
        let p = worldPoint(lat: centre.lat, lon: centre.lon), n = Double(1 << z)
        let e = colour(Int(p.x / 256 * n), Int(p.y / 256 * n)), c = png.pixel(400, 300)
        return abs(c.r - e.r) <= 2 && abs(c.g - e.g) <= 2 && abs(c.b - e.b) <= 2
    }

    func writeSources(_ dir: URL, _ server: TileServer) throws {
        let config = dir.appendingPathComponent("meridian")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let json = #"{"sources": [{"name": "bulk", "title": "Test tiles", "url": "\#(server.url("/tile/{z}/{x}/{y}.png"))", "maxZoom": 17, "bulkDownload": true}]}"#
        try Data(json.utf8).write(to: config.appendingPathComponent("sources.json"))
    }

    @Test func anAreaSavedInTheWindowIsDrawnWithTheServerGone() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("save-area")
        defer { try? FileManager.default.removeItem(at: dir) }
        var server: TileServer? = try TileServer()
        try writeSources(dir, server!)
        let view = ["--tiles", "bulk", "--center", "\(Self.centre.lat),\(Self.centre.lon)", "--size", "800x600"]
        let listed = dir.appendingPathComponent("drawlist-online.txt").path
        let env = ["XDG_CONFIG_HOME": dir.path, "XDG_CACHE_HOME": dir.appendingPathComponent("cache-online").path,
                   "MERIDIAN_DRAWLIST_OUT": listed]
        let (app, id) = try startWindow(x, dir: dir, view + ["--zoom", "13"], env: env)
        _ = try screenshot(x, to: dir.appendingPathComponent("online.png").path) { Self.showsTile($0, zoom: 13) }

        _ = try x.xdotool("key", "a")
        let panel = try screenshot(x, to: dir.appendingPathComponent("panel.png").path) { png in
            // The panel's dark plate at the bottom.
            let c = png.pixel(400, 520)
            return c.r < 50 && c.g < 50 && c.b < 50
        }
        _ = panel
        _ = try x.xdotool("key", "Return")
        #expect(app.readLog(deadline: 120) { $0.contains("Saved “") }, "no saved notice: \(app.log)")
        let areas = SavedArea.list(in: dir.appendingPathComponent("meridian/areas").path)
        try #require(areas.count == 1)
        let area = areas[0]
        #expect(area.source == "bulk" && area.zooms == 0...16)
        #expect(area.west < Self.centre.lon && area.east > Self.centre.lon && area.south < Self.centre.lat && area.north > Self.centre.lat)
        // The switcher lists it with its size ("Title  ·  850 KB"), as the frame drawn says.
        _ = try x.xdotool("key", "l")
        let row = try NSRegularExpression(pattern: NSRegularExpression.escapedPattern(for: area.title) + #"  ·  [0-9][0-9.,]* [KMG]B""#)
        #expect(app.readLog { _ in
            let dump = (try? String(contentsOfFile: listed, encoding: .utf8)) ?? ""
            return row.firstMatch(in: dump, range: NSRange(dump.startIndex..., in: dump)) != nil
        }, "the switcher does not list \(area.title) with its size")
        _ = try screenshot(x, to: dir.appendingPathComponent("list.png").path) { _ in true }
        try quit(x, id, app)
        server = nil

        // The server is gone, the tile cache empty: street level inside the area still shows.
        let drawn = dir.appendingPathComponent("drawlist.txt").path
        let offlineEnv = ["XDG_CONFIG_HOME": dir.path, "XDG_CACHE_HOME": dir.appendingPathComponent("cache-offline").path,
                          "MERIDIAN_DRAWLIST_OUT": drawn]
        let (again, id2) = try startWindow(x, dir: dir, view + ["--zoom", "15"], env: offlineEnv)
        let shot = try screenshot(x, to: dir.appendingPathComponent("offline.png").path, timeout: 30) { Self.showsTile($0, zoom: 15) }
        #expect(Self.showsTile(shot, zoom: 15), "the saved area's z15 tile is not drawn offline")
        #expect(again.readLog { _ in (try? String(contentsOfFile: drawn, encoding: .utf8))?.contains("offline · saved areas shown") == true },
                "the switcher does not say the saved areas are shown")
        try quit(x, id2, again)
    }

    /// With terrain over the map, saving the area saves the terrain's heights after it (to
    /// zoom 12), as an area of its own named after the map's.
    @Test func withTerrainOnTheHeightsAreSavedAfterTheMap() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("save-terrain")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        let config = dir.appendingPathComponent("meridian")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let heights = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/dem/andorra-dem.mbtiles").path
        let json = #"{"sources": [{"name": "bulk", "title": "Test tiles", "url": "\#(server.url("/tile/{z}/{x}/{y}.png"))", "maxZoom": 17, "bulkDownload": true},"#
            + #"{"name": "terrain-dem", "url": "\#(server.url("/mbtiles" + heights + "/{z}/{x}/{y}.png"))", "maxZoom": 12, "bulkDownload": true}]}"#
        try Data(json.utf8).write(to: config.appendingPathComponent("sources.json"))
        let env = ["XDG_CONFIG_HOME": dir.path, "XDG_CACHE_HOME": dir.appendingPathComponent("cache").path]
        let (app, id) = try startWindow(x, dir: dir, ["--tiles", "bulk", "--overlay", "terrain", "--center", "42.52,1.535", "--zoom", "14", "--size", "800x600"], env: env)
        _ = try x.xdotool("key", "a")
        _ = try screenshot(x, to: dir.appendingPathComponent("panel.png").path) { png in
            let c = png.pixel(400, 520)
            return c.r < 50 && c.g < 50 && c.b < 50
        }
        _ = try x.xdotool("key", "Return")
        #expect(app.readLog(deadline: 120) { $0.contains("Saved “") && $0.contains("(terrain)") }, "no notice of the heights saved: \(app.log)")
        let areas = SavedArea.list(in: dir.appendingPathComponent("meridian/areas").path)
        #expect(Set(areas.map(\.source)) == ["bulk", "terrain-dem"], "\(areas.map(\.source))")
        let map = try #require(areas.first { $0.source == "bulk" }), dem = try #require(areas.first { $0.source == "terrain-dem" })
        #expect(dem.title == map.title + " (terrain)")
        #expect(dem.zooms.upperBound == 12 && map.zooms.upperBound > 12)
        #expect(abs(dem.west - map.west) < 1e-6 && abs(dem.north - map.north) < 1e-6)
        try quit(x, id, app)
    }

    /// A street map behind a TileJSON address (OpenFreeMap's kind; the stand-in serves the
    /// Helsinki fixture's real tiles) is saved with key A, and the saved area is searchable
    /// at once: its names are indexed when it is saved.
    @Test func aTileJSONStreetMapIsSavedAndSearchable() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("save-streets")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        let config = dir.appendingPathComponent("meridian")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let json = #"{"sources": [{"name": "streets", "type": "vector", "url": "\#(server.url("/tilejson" + StreetMapRenderTests.mbtiles))", "bulkDownload": true}]}"#
        try Data(json.utf8).write(to: config.appendingPathComponent("sources.json"))
        let env = ["XDG_CONFIG_HOME": dir.path, "XDG_CACHE_HOME": dir.appendingPathComponent("cache").path, "MERIDIAN_FRAME_LOG": "1"]
        let (app, id) = try startWindow(x, dir: dir, ["--tiles", "streets", "--center", "60.1745,24.9368", "--zoom", "15", "--size", "800x600",
                                                      "--no-location"], env: env)
        #expect(app.settles())
        _ = try x.xdotool("key", "a")
        #expect(app.settles())
        _ = try x.xdotool("key", "Return")
        #expect(app.readLog(deadline: 120) { $0.contains("Saved “") }, "no saved notice: \(app.log.suffix(800))")
        let areas = SavedArea.list(in: dir.appendingPathComponent("meridian/areas").path)
        try #require(areas.count == 1)
        #expect(areas[0].source == "streets")
        #expect(app.readLog { $0.contains("search: indexes ready: \(areas[0].title)") }, "the area is not indexed: \(app.log.suffix(800))")
        #expect(app.settles())
        _ = try x.xdotool("key", "ctrl+f")
        _ = try x.xdotool("type", "--delay", "40", "kaivokatu")
        #expect(app.settles())
        _ = try x.xdotool("key", "Return")
        #expect(app.settles())
        try quit(x, id, app)
        let view = try SavedView.read(dir)
        // Kaivokatu, in front of the railway station: found in the saved area's names.
        #expect(abs(view.center.lat - 60.1703) < 0.002 && abs(view.center.lon - 24.9413) < 0.006, "\(view.center)")
    }
}
