import Foundation
import Testing
import TestSupport

/// "Directions offline too" for a saved area, end to end against the loopback server standing
/// in for Geofabrik: its index of extracts (regions nested as Geofabrik's are), the smallest
/// region holding the area downloaded in pieces with the app's User-Agent, cut to the area by
/// osmium, built by Routino beside the area, the download deleted; then a route offline from
/// the saved area alone.
@Suite(.serialized) struct AreaDirectionsTests {
    static let helsinki = StreetMapRenderTests.fixtures.appendingPathComponent("osm/helsinki.osm.pbf").path
    static let andorra = StreetMapRenderTests.fixtures.appendingPathComponent("osm/andorra.osm.pbf").path

    /// A region of the index: its outline a box (west, south, east, north).
    static func region(_ id: String, _ name: String, parent: String?, _ box: [Double], pbf: String) -> String {
        let (w, s, e, n) = (box[0], box[1], box[2], box[3])
        let ring = "[[\(w),\(s)],[\(e),\(s)],[\(e),\(n)],[\(w),\(n)],[\(w),\(s)]]"
        let p = parent.map { #","parent":"\#($0)""# } ?? ""
        return #"{"type":"Feature","properties":{"id":"\#(id)"\#(p),"name":"\#(name)","urls":{"pbf":"\#(pbf)","bz2":"\#(pbf).bz2"}},"geometry":{"type":"MultiPolygon","coordinates":[[\#(ring)]]}}"#
    }

    @Test func aSavedAreaGetsItsRoutingDataFromTheSmallestRegion() throws {
        let dir = temporaryDirectory("area-directions")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        // Europe and Finland hold the area too, but are larger: their files are Andorra's,
        // on which no route in Helsinki could be found.
        let index = #"{"type":"FeatureCollection","features":["#
            + [Self.region("europe", "Europe", parent: nil, [-25, 34, 45, 72], pbf: server.url("/file" + Self.andorra)),
               Self.region("finland", "Finland", parent: "europe", [19, 59.5, 32, 70.1], pbf: server.url("/file" + Self.andorra)),
               Self.region("uusimaa", "Uusimaa", parent: "finland", [24.90, 60.15, 24.97, 60.19], pbf: server.url("/file" + Self.helsinki)),
               Self.region("andorra", "Andorra", parent: "europe", [1.4, 42.4, 1.8, 42.7], pbf: server.url("/file" + Self.andorra))].joined(separator: ",")
            + "]}"
        let indexFile = dir.appendingPathComponent("index-v1.json")
        try Data(index.utf8).write(to: indexFile)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("meridian/areas"), withIntermediateDirectories: true)
        try Data(#"{"enabled": false, "extracts": "\#(server.url("/file" + indexFile.path))"}"#.utf8)
            .write(to: dir.appendingPathComponent("meridian/routing.json"))
        let env = ["XDG_CACHE_HOME": dir.path, "XDG_CONFIG_HOME": dir.path, "XDG_DATA_HOME": dir.path]
        let out = dir.appendingPathComponent("meridian/areas/kluuvi.pmtiles").path
        let r = try run(meridianBinary, ["extract", "--from", StreetMapRenderTests.pmtiles, "--bbox", "24.935,60.164,24.951,60.176", "--maxzoom", "13",
                                         "--out", out, "--title", "Kluuvi", "--directions"], env: env, timeout: 120)
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stdout.contains("Downloading Uusimaa"), "\(r.stdout)")
        #expect(r.stdout.contains("Directions offline: \(out).routing"), "\(r.stdout)")
        #expect(FileManager.default.fileExists(atPath: out + ".routing/meridian-routing.json"))
        // The download is gone once the area's data is built; nothing half-written is left.
        let downloads = (try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("meridian/downloads").path)) ?? []
        #expect(downloads.isEmpty, "\(downloads)")

        // A route offline, from the saved area's data alone (no --osm).
        let route = try run(meridianBinary, ["route", "60.1700,24.9390", "60.1690,24.9460", "--offline", "--json"], env: env)
        #expect(route.status == 0, "\(route.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(route.stdout.utf8)) as? [String: Any])
        #expect(json["engine"] as? String == "Routino")
        #expect((json["distance_m"] as? Double ?? 0) > 300)

        // An area no region holds is said, and the tiles are saved all the same.
        let far = dir.appendingPathComponent("meridian/areas/far.pmtiles").path
        let none = try run(meridianBinary, ["extract", "--from", StreetMapRenderTests.pmtiles, "--bbox", "140,-40,141,-39", "--maxzoom", "3",
                                            "--out", far, "--directions"], env: env, timeout: 120)
        #expect(none.status == 1 && none.stderr.contains("no extract of the index holds this area whole"), "\(none.stderr)")
        #expect(FileManager.default.fileExists(atPath: far) && !FileManager.default.fileExists(atPath: far + ".routing"))
    }

    /// Where the last frame drawn whole put the text `label` (its sprite's box), from the draw
    /// list the window writes.
    static func box(of label: String, in drawList: String) -> (x: Double, y: Double)? {
        let dump = (try? String(contentsOfFile: drawList, encoding: .utf8)) ?? ""
        let number = #"(-?[0-9.]+)"#
        let rect = try! NSRegularExpression(pattern: "ScreenRect\\(x: \(number), y: \(number), width: \(number), height: \(number)\\)")
        for line in dump.split(separator: "\n") where line.contains("\"" + label + "\"") {
            let s = String(line), ns = s as NSString
            guard let m = rect.firstMatch(in: s, range: NSRange(location: 0, length: ns.length)) else { continue }
            let v = (1...4).map { Double(ns.substring(with: m.range(at: $0))) ?? 0 }
            return (v[0] + v[2] / 2, v[1] + v[3] / 2)
        }
        return nil
    }

    /// In the window: A, "Directions too", Save; the extract is larger than routing.json's
    /// "askAboveMB" (0 here), so the panel asks, naming the region and its size; Download goes
    /// on, and the area's routing data is built beside it.
    @Test func theWindowAsksBeforeALargeDownload() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("area-directions-ask")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        let index = #"{"type":"FeatureCollection","features":["#
            + Self.region("uusimaa", "Uusimaa", parent: nil, [24.80, 60.10, 25.10, 60.25], pbf: server.url("/file" + Self.helsinki)) + "]}"
        let indexFile = dir.appendingPathComponent("index-v1.json")
        try Data(index.utf8).write(to: indexFile)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("meridian"), withIntermediateDirectories: true)
        try Data(#"{"enabled": false, "askAboveMB": 0, "extracts": "\#(server.url("/file" + indexFile.path))"}"#.utf8)
            .write(to: dir.appendingPathComponent("meridian/routing.json"))
        // A map whose server allows saving areas (a file on this computer is offline already).
        let sources = #"{"sources": [{"name": "bulk", "title": "Test tiles", "url": "\#(server.url("/tile/{z}/{x}/{y}.png"))", "maxZoom": 17, "bulkDownload": true}]}"#
        try Data(sources.utf8).write(to: dir.appendingPathComponent("meridian/sources.json"))
        let drawList = dir.appendingPathComponent("drawlist.txt").path
        let (app, id) = try startWindow(x, dir: dir, ["--tiles", "bulk", "--center", "60.1700,24.9420", "--zoom", "14",
                                                       "--size", "800x600", "--no-location"],
                                        env: ["XDG_CONFIG_HOME": dir.path, "XDG_CACHE_HOME": dir.path, "MERIDIAN_FRAME_LOG": "1",
                                              "MERIDIAN_DRAWLIST_OUT": drawList])
        try app.waitUntilReady()
        func click(_ label: String) throws {
            var at: (x: Double, y: Double)?
            try waitUntil("“\(label)” drawn", detail: { app.log.suffix(600).description }) {
                at = Self.box(of: label, in: drawList)
                return at != nil
            }
            _ = try x.xdotool("mousemove", "--sync", String(Int(at!.x)), String(Int(at!.y)), "click", "1")
        }
        _ = try x.xdotool("key", "a")
        try click("☐ Directions too")
        try click("Save")
        // The question, with the region and its download's size.
        // After the area's tiles are saved.
        var asked = false
        try? waitUntil("the question asked", deadline: 120) {
            app.readLog(deadline: 0.05) { _ in false }
            asked = ((try? String(contentsOfFile: drawList, encoding: .utf8)) ?? "").contains("Routes offline here need Uusimaa")
            return asked
        }
        try #require(asked, "the question was not asked: \(app.log.split(separator: "\n").filter { $0.hasPrefix("meridian:") })")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("meridian/routing/downloads").path)
                || ((try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("meridian/routing/downloads").path)) ?? []).isEmpty,
                "nothing is downloaded before the answer")
        try click("Download")
        #expect(app.readLog(deadline: 120) { $0.contains(": ready (") }, "no ready notice: \(app.log.suffix(800))")
        let areas = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("meridian/areas").path)
        let routing = try #require(areas.first { $0.hasSuffix(".pmtiles.routing") }, "\(areas)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("meridian/areas/\(routing)/meridian-routing.json").path))
        try quit(x, id, app)
    }
}
