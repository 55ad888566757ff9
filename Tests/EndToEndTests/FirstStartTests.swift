import Foundation
import Testing
import TestSupport

/// The first start (no view saved): over the reader's country, with OpenFreeMap's streets
/// where it answers (here a loopback stand-in, named openfreemap in sources.json: a mirror),
/// the basemap quietly where it does not, and nothing asked at all with --offline.
@Suite(.serialized) struct FirstStartTests {
    static let helsinki = StreetMapRenderTests.mbtiles

    /// A fresh home whose sources.json names `tileJSON` as OpenFreeMap's.
    func home(_ name: String, tileJSON: String) throws -> URL {
        let dir = temporaryDirectory(name)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("meridian"), withIntermediateDirectories: true)
        let sources = #"{"sources": [{"name": "openfreemap", "type": "vector", "url": "\#(tileJSON)"}]}"#
        try Data(sources.utf8).write(to: dir.appendingPathComponent("meridian/sources.json"))
        return dir
    }

    func start(_ x: Xvfb, _ dir: URL, _ args: [String] = []) throws -> (App, String) {
        try startWindow(x, dir: dir, ["--size", "800x600", "--no-location"] + args,
                        env: ["XDG_CONFIG_HOME": dir.path, "XDG_CACHE_HOME": dir.path, "MERIDIAN_FRAME_LOG": "1",
                              "MERIDIAN_HTTP_LOG": "1", "LANG": "fi_FI.UTF-8", "LANGUAGE": "en"])
    }

    /// The stand-in's "path count" lines: what it was asked.
    func asked(_ server: TileServer) throws -> String {
        try run("/usr/bin/python3", ["-c", "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())", server.url("/count")]).stdout
    }

    /// What the view file kept at the quit.
    func savedView(_ dir: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: dir.appendingPathComponent("meridian/view.json"))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    @Test func theFirstStartShowsStreetsOverTheReadersCountry() throws {
        let server = try TileServer()
        let x = try Xvfb()
        let dir = try home("first-streets", tileJSON: server.url("/tilejson" + Self.helsinki))
        defer { try? FileManager.default.removeItem(at: dir) }
        let (app, id) = try start(x, dir)
        try app.waitForRest(afterSaying: "Showing OpenFreeMap's street map")
        try quit(x, id, app)
        // The street map's tiles were asked of the stand-in (the view's, mostly not there).
        let answered = try asked(server)
        #expect(answered.contains("/mbtiles" + Self.helsinki + "/"), "\(answered)")
        let view = try savedView(dir)
        #expect(view["tiles"] as? String == "openfreemap", "\(view)")
        // Over Finland (the locale's country): its towns' box, not the world.
        let center = view["center"] as? [String: Double] ?? [:]
        #expect((59...70).contains(center["lat"] ?? 0) && (20...32).contains(center["lon"] ?? 0), "\(view)")
        #expect((3...8).contains(view["zoom"] as? Double ?? 0), "\(view)")

        // Started again, the view is the saved one: nothing is said of streets any more.
        let (again, id2) = try start(x, dir)
        try again.waitUntilReady()
        try quit(x, id2, again)
        #expect(!again.wholeLog.contains("Showing OpenFreeMap's street map"))
    }

    @Test func unreachableStreetsLeaveTheBasemapAndSayNothing() throws {
        let x = try Xvfb()
        // A port nothing listens on (the discard port, closed on loopback).
        let address = "http://127.0.0.1:9/tilejson" + Self.helsinki
        let dir = try home("first-offline", tileJSON: address)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (app, id) = try start(x, dir)
        try app.waitForLog("first-start: no streets")
        try app.waitUntilReady()
        try quit(x, id, app)
        let said = app.wholeLog.split(separator: "\n").filter { $0.hasPrefix("meridian:") && !$0.contains("first-start") }
        #expect(said.isEmpty, "said: \(said)")
        #expect(try savedView(dir)["tiles"] == nil, "the basemap stays the map")
    }

    @Test func offlineAsksNothing() throws {
        let server = try TileServer()
        let x = try Xvfb()
        let dir = try home("first-none", tileJSON: server.url("/tilejson" + Self.helsinki))
        defer { try? FileManager.default.removeItem(at: dir) }
        let (app, id) = try start(x, dir, ["--offline"])
        try app.waitUntilReady()
        // A search asked online too (Enter on a query): refused at once, nothing sent.
        _ = try x.xdotool("key", "ctrl+f")
        _ = try x.xdotool("type", "Helsinki")
        _ = try x.xdotool("key", "Return")
        try app.waitUntilReady()
        try quit(x, id, app)
        let counted = try asked(server).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(counted.isEmpty, "the stand-in was asked: \(counted)")
        #expect(!app.wholeLog.contains("first-start"), "no first start's question offline")
    }
}
