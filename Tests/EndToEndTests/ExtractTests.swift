import Foundation
import MapGeometry
import MapTiles
import Testing
import TestSupport

/// `meridian extract` end to end against the loopback server: an area of a remote PMTiles
/// archive of real OpenStreetMap data (Helsinki, through tilemaker) draws the same picture as
/// the archive inside the box and holds nothing outside it; killed midway, interrupted or
/// stopped by a full disk it goes on where it stopped; the tile policy of OpenStreetMap is
/// kept; a box across the antimeridian works; wrong input exits 64.
@Suite(.serialized) struct ExtractTests {
    static let pmtiles = StreetMapRenderTests.pmtiles
    /// Inside the fixture's data (24.935–24.953 E, 60.164–60.179 N): its south-west part.
    static let box = "24.935,60.164,24.944,60.172"

    func extract(_ args: [String], env: [String: String] = [:], timeout: Double = 120) throws -> RunResult {
        try run(meridianBinary, ["extract"] + args, env: env, timeout: timeout)
    }

    func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    func render(_ tiles: String, dir: URL, env: [String: String] = [:]) throws -> PNG {
        let out = dir.appendingPathComponent("r-\(UUID().uuidString).png").path
        let r = try run(meridianBinary, ["render", "--tiles", tiles, "--center", "60.1675,24.9395", "--zoom", "16.5", "--size", "400x400",
                                         "--no-labels", "--out", out], env: env.merging(["DISPLAY": "", "WAYLAND_DISPLAY": "", "XDG_CACHE_HOME": dir.path]) { a, _ in a })
        guard r.status == 0 else { throw HarnessError("render failed: \(r.stderr)") }
        return try PNG(out)
    }

    /// Every tile of `archive` at the zooms asked for: those inside the box are in the
    /// extract, byte for byte; none outside it is.
    func checkTiles(_ extract: String, against original: String, area: TileArea) throws {
        let a = try PMTilesArchive(reader: try FileRangeReader(path: original), name: original)
        let b = try PMTilesArchive(reader: try FileRangeReader(path: extract), name: extract)
        var inside = 0
        // The fixture's tiles all lie in one z8 tile: below z8 every tile is looked at, from
        // z8 on those under it (elsewhere the archive holds nothing).
        let home = TileID(containing: Coordinate(latitude: 60.17, longitude: 24.94), zoom: 8)
        for z in area.zooms {
            let k = max(0, z - 8), across = z < 8 ? 1 << z : 1 << k
            let (x0, y0) = z < 8 ? (0, 0) : (home.x << k, home.y << k)
            for x in x0..<x0 + across { for y in y0..<y0 + across {
                let t = TileID(z: z, x: x, y: y)
                let mine = try b.tileData(t), theirs = try a.tileData(t)
                if area.contains(t) {
                    #expect(mine == theirs, "\(t)")
                    if theirs != nil { inside += 1 }
                } else {
                    #expect(mine == nil, "\(t) lies outside the box yet is in the extract")
                }
            } }
        }
        #expect(inside >= 5)
    }

    @Test func anAreaOfARemoteArchiveDrawsTheSamePicture() throws {
        let dir = temporaryDirectory("extract-remote")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        let url = server.url("/file" + Self.pmtiles)
        let out = dir.appendingPathComponent("kluuvi.pmtiles").path
        let r = try extract(["--from", url, "--bbox", Self.box, "--minzoom", "10", "--maxzoom", "14", "--out", out, "--title", "Kluuvi"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Extracting") && r.stdout.contains("Wrote \(out)"), "\(r.stdout)")
        // Nothing is left beside it: no journal, no temporary file.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["kluuvi.pmtiles"])
        try checkTiles(out, against: Self.pmtiles, area: try TileArea(bbox: Self.box, zooms: 10...14))
        // The same picture as the archive it was cut from, inside the box (at z16.5, drawn
        // from z14 tiles), but for the switcher's name and the credit.
        let (mine, theirs) = (try render(out, dir: dir), try render(Self.pmtiles, dir: dir))
        var differing = 0
        for y in 0..<400 { for x in 0..<400 where !(x < 200 && y < 50) && !(y > 370) && mine.pixel(x, y) != theirs.pixel(x, y) { differing += 1 } }
        #expect(differing == 0)
        // It is a saved area: its source, box and title are in its metadata.
        let area = try SavedArea(path: out)
        #expect(area.source == url && area.title == "Kluuvi" && area.zooms == 10...14)
        #expect(abs(area.west - 24.935) < 1e-9 && abs(area.north - 60.172) < 1e-9)
        // Neighbouring tiles were asked for together: fewer requests than tiles.
        let asked = try run("/usr/bin/python3", ["-c", "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())", server.url("/count")]).stdout
        let requests = asked.split(separator: "\n").filter { $0.hasPrefix("/file") }.compactMap { Int($0.split(separator: " ").last ?? "") }.reduce(0, +)
        let tiles = try #require(Int(r.stdout.split(separator: "\n").first { $0.hasPrefix("Wrote") }?
            .split(separator: ",").dropFirst().first?.split(separator: " ").first ?? ""))
        #expect(requests > 0 && requests < tiles, "\(requests) requests for \(tiles) tiles: \(asked)")
    }

    @Test func killedMidwayItGoesOnWhereItStopped() throws {
        let dir = temporaryDirectory("extract-kill")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        // Slowly served (1,501 tiles, some seconds), so that it can be killed with some tiles
        // in and some not.
        let env = try writeSources(dir, server, path: "/tile/{z}/{x}/{y}.png?slow")
        let out = dir.appendingPathComponent("h.pmtiles").path
        let box = "24.0,60.0,25.0,61.0"
        let args = ["extract", "--from", "bulk", "--bbox", box, "--maxzoom", "13", "--out", out]
        let p = Process()
        p.executableURL = URL(fileURLWithPath: meridianBinary)
        p.arguments = args
        p.environment = ProcessInfo.processInfo.environment.merging(env) { _, b in b }
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let journal = out + ".part/journal"
        #expect(waitUntil(deadline: 60) { size(journal) >= 64 })
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        #expect(!FileManager.default.fileExists(atPath: out), "a half-written extract appeared")
        let kept = size(journal)
        #expect(kept >= 64 && kept % 32 == 0)
        // A different request is refused rather than mixed into the journal.
        let other = try extract(["--from", Self.pmtiles, "--bbox", "24.94,60.165,24.95,60.17", "--maxzoom", "14", "--out", out])
        #expect(other.status == 64 && other.stderr.contains("--restart"), "\(other.stderr)")
        // The same one goes on, and the archive holds every tile once.
        let again = try run(meridianBinary, args, env: env, timeout: 180)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("Going on from an interrupted run"), "\(again.stdout)")
        let area = try TileArea(bbox: box, zooms: 0...13)
        let archive = try PMTilesArchive(reader: try FileRangeReader(path: out), name: out)
        #expect(archive.header.addressedTiles == area.tileCount)
        for z in area.zooms { for id in area.tileIDs(atZoom: z) {
            let tile = try #require(PMTilesTileID.tile(for: id))
            #expect(try archive.tileData(tile)?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true, "\(tile)")
        } }
        #expect(!FileManager.default.fileExists(atPath: out + ".part"))
    }

    func writeSources(_ dir: URL, _ server: TileServer, path: String = "/tile/{z}/{x}/{y}.png") throws -> [String: String] {
        let config = dir.appendingPathComponent("meridian")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let json = #"{"sources": [{"name": "bulk", "url": "\#(server.url(path))", "bulkDownload": true}, {"name": "nobulk", "url": "\#(server.url("/tile/{z}/{x}/{y}.png"))"}]}"#
        try Data(json.utf8).write(to: config.appendingPathComponent("sources.json"))
        return ["XDG_CONFIG_HOME": dir.path]
    }

    @Test func theTilePolicyIsKeptAndWrongInputSaysWhy() throws {
        let dir = temporaryDirectory("extract-refused")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        let env = try writeSources(dir, server)
        let out = dir.appendingPathComponent("x.pmtiles").path
        let cases: [([String], String)] = [
            (["--from", "osm", "--bbox", Self.box, "--maxzoom", "14"], "tile usage policy forbids bulk"),
            (["--from", "opentopomap", "--bbox", Self.box, "--maxzoom", "14"], "do not allow bulk"),
            (["--from", "nobulk", "--bbox", Self.box, "--maxzoom", "14"], "\"bulkDownload\": true"),
            (["--from", server.url("/tile/{z}/{x}/{y}.png"), "--bbox", Self.box, "--maxzoom", "14"], "not known to allow bulk"),
            (["--from", Self.pmtiles, "--bbox", "24.9,60.1,24.95", "--maxzoom", "14"], "four numbers"),
            (["--from", Self.pmtiles, "--bbox", "24.9,60.2,24.95,60.1", "--maxzoom", "14"], "not below north"),
            (["--from", Self.pmtiles, "--bbox", "24.9,nan,24.95,60.1", "--maxzoom", "14"], "not a number"),
            (["--from", Self.pmtiles, "--bbox=-180,-85,180,85", "--maxzoom", "20"], "more than"),
            (["--from", Self.pmtiles, "--bbox", Self.box, "--minzoom", "15", "--maxzoom", "14"], "the lower first"),
            (["--from", Self.pmtiles, "--bbox", Self.box, "--minzoom", "15", "--maxzoom", "18"], "none of 15…18"),
            (["--from", "/nonexistent.pmtiles", "--bbox", Self.box, "--maxzoom", "14"], "/nonexistent.pmtiles"),
        ]
        for (args, reason) in cases {
            let r = try extract(args + ["--out", out], env: env)
            #expect(r.status == 64, "\(args): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains(reason), "\(args): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        let wrongOut = try extract(["--from", Self.pmtiles, "--bbox", Self.box, "--maxzoom", "14", "--out", dir.appendingPathComponent("x.png").path])
        #expect(wrongOut.status == 64 && wrongOut.stderr.contains(".pmtiles or .mbtiles"), "\(wrongOut.stderr)")
    }

    /// A TileJSON address standing in for OpenFreeMap (the Helsinki fixture's real tiles behind
    /// a TileJSON document on loopback): saved when its entry allows it, refused before any
    /// request when it does not, and the saved area searchable at once.
    @Test func aTileJSONMapIsSavedAndItsNamesFound() throws {
        let dir = temporaryDirectory("extract-tilejson")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        let config = dir.appendingPathComponent("meridian")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let document = server.url("/tilejson" + StreetMapRenderTests.mbtiles)
        let json = #"{"sources": [{"name": "streets", "type": "vector", "url": "\#(document)", "bulkDownload": true},"#
            + #" {"name": "closed", "type": "vector", "url": "\#(document)?noattribution"}]}"#
        try Data(json.utf8).write(to: config.appendingPathComponent("sources.json"))
        let env = ["XDG_CONFIG_HOME": dir.path, "XDG_CACHE_HOME": dir.appendingPathComponent("cache").path]
        let refused = try extract(["--from", "closed", "--bbox", Self.box, "--maxzoom", "14", "--out", dir.appendingPathComponent("no.pmtiles").path], env: env)
        #expect(refused.status == 64 && refused.stderr.contains("\"bulkDownload\": true"), "\(refused.stderr)")
        let client = HTTPClient(options: .init(userAgent: "Meridian-tests"))
        guard case let .response(count) = client.get(server.url("/count")) else { throw HarnessError("no count") }
        #expect(!String(decoding: count.body, as: UTF8.self).contains("tilejson"), "a refused map is not asked for its document")

        let out = dir.appendingPathComponent("keskusta.pmtiles").path
        let r = try extract(["--from", "streets", "--bbox", Self.box, "--minzoom", "6", "--maxzoom", "14", "--out", out], env: env)
        #expect(r.status == 0, "\(r.stderr)")
        try checkTiles(out, against: Self.pmtiles, area: try TileArea(bbox: Self.box, zooms: 6...14))
        let found = try run(meridianBinary, ["search", "Kaivokatu", "--tiles", out, "--json", "--limit", "1"], env: env)
        #expect(found.status == 0 && found.stdout.contains("\"name\":\"Kaivokatu\""), "\(found.stdout) \(found.stderr)")
    }

    @Test func aServerThatAllowsItAcrossTheAntimeridianIntoMBTiles() throws {
        let dir = temporaryDirectory("extract-online")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        let env = try writeSources(dir, server)
        // Fiji's Vanua Levu lies across 180°.
        let box = "179.2,-17.1,-179.8,-16.1"
        let area = try TileArea(bbox: box, zooms: 0...8)
        for name in ["fiji.pmtiles", "fiji.mbtiles"] {
            let out = dir.appendingPathComponent(name).path
            let r = try extract(["--from", "bulk", "--bbox", box, "--maxzoom", "8", "--out", out], env: env)
            #expect(r.status == 0, "\(r.stderr)")
            let tiles: TileSource = name.hasSuffix(".pmtiles") ? try PMTilesSource(path: out) : try MBTilesSource(path: out)
            // Both sides of the antimeridian, and nothing between.
            var held = 0
            for z in 0...8 { for x in 0..<(1 << z) { for y in 0..<(1 << z) {
                let t = TileID(z: z, x: x, y: y)
                let data = try (tiles as? PMTilesSource)?.data(for: t) ?? (tiles as? MBTilesSource)?.data(for: t)
                #expect((data != nil) == area.contains(t), "\(name) \(t)")
                if data != nil { held += 1 }
            } } }
            #expect(UInt64(held) == area.tileCount)
            #expect(area.contains(TileID(z: 8, x: 255, y: 140)) && area.contains(TileID(z: 8, x: 0, y: 140)))
        }
    }

    @Test func aFullDiskStopsItAndItGoesOnLater() throws {
        let dir = temporaryDirectory("extract-full")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        let env = try writeSources(dir, server, path: "/street/{z}/{x}/{y}@2x.png")
        let out = dir.appendingPathComponent("streets.pmtiles").path
        let box = "24.7,60.1,25.2,60.3"
        let args = ["--from", "bulk", "--bbox", box, "--minzoom", "10", "--maxzoom", "14", "--out", out]
        // A file size limit of 1.5 MiB stands for a full disk: the first MiB of tiles is kept
        // (the journal commits each MiB), the second does not fit (the ~600 street tiles
        // at 512 pixels take a few MB).
        let full = try run("/bin/bash", ["-c", "ulimit -f 1536; exec \"$0\" extract \"$@\"", meridianBinary] + args, env: env)
        #expect(full.status == 74, "\(full.status): \(full.stderr)")
        #expect(full.stderr.contains("disk is full") && full.stderr.contains("go on where it stopped"), "\(full.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let again = try extract(args, env: env)
        #expect(again.status == 0 && again.stdout.contains("Going on"), "\(again.stdout) \(again.stderr)")
        let area = try TileArea(bbox: box, zooms: 10...14)
        let archive = try PMTilesArchive(reader: try FileRangeReader(path: out), name: out)
        #expect(archive.header.addressedTiles == area.tileCount)
        #expect(archive.header.tileType == .png)
    }

    @Test func ctrlCStopsItAndKeepsWhatItHas() throws {
        let dir = temporaryDirectory("extract-sigint")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        let env = try writeSources(dir, server, path: "/tile/{z}/{x}/{y}.png?slow")
        let out = dir.appendingPathComponent("t.pmtiles").path
        let args = ["extract", "--from", "bulk", "--bbox", "24.0,60.0,25.0,61.0", "--maxzoom", "13", "--out", out]
        let p = Process()
        p.executableURL = URL(fileURLWithPath: meridianBinary)
        p.arguments = args
        p.environment = ProcessInfo.processInfo.environment.merging(env) { _, b in b }
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        #expect(waitUntil(deadline: 60) { size(out + ".part/journal") >= 64 })
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(p.terminationStatus == 130 && said.contains("run the same command again"), "\(p.terminationStatus): \(said)")
        let kept = size(out + ".part/journal")
        #expect(kept >= 64)
        let again = try run(meridianBinary, args, env: env, timeout: 300)
        #expect(again.status == 0 && again.stdout.contains("Going on"), "\(again.stderr)")
        let area = try TileArea(bbox: "24.0,60.0,25.0,61.0", zooms: 0...13)
        #expect(try PMTilesArchive(reader: try FileRangeReader(path: out), name: out).header.addressedTiles == area.tileCount)
    }
}
