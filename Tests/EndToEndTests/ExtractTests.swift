import Foundation
import MapGeometry
import MapNetwork
import MapTiles
import Testing
import TestPictures
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

    /// A remote archive replaced on the server between two runs (its ETag changed): the second
    /// run does not go on with what the first began but begins again, and says so.
    @Test func aRemoteArchiveChangedBetweenTwoRunsIsBegunAgain() throws {
        let dir = temporaryDirectory("extract-etag")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        let copy = dir.appendingPathComponent("served.pmtiles").path
        try FileManager.default.copyItem(atPath: Self.pmtiles, toPath: copy)
        let out = dir.appendingPathComponent("h.pmtiles").path
        let box = "24.935,60.164,24.953,60.179"
        let args = ["--from", server.url("/file" + copy), "--bbox", box, "--maxzoom", "14", "--out", out]
        // The first run reads the archive's header, then the server refuses: it stops with its
        // plan (and the archive's ETag) kept.
        _ = try server.text("/throttle?skip=1&count=1000&status=403")
        let stopped = try extract(args)
        #expect(stopped.status != 0 && FileManager.default.fileExists(atPath: out + ".part/plan.json"), "\(stopped.stderr)")
        _ = try server.text("/throttle?count=0")
        // The archive is published anew (its time, and so its ETag, changes).
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: copy)
        let again = try extract(args)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("changed on the server") && !again.stdout.contains("Going on"), "\(again.stdout)")
        try checkTiles(out, against: Self.pmtiles, area: try TileArea(bbox: box, zooms: 0...14))
        // Unchanged since, an update has nothing to do and asks for no tile.
        let current = try extract(["--update", out])
        #expect(current.status == 0 && current.stdout.contains("is up to date"), "\(current.stdout) \(current.stderr)")
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

    // MARK: OpenFreeMap's stand-in: updates, politeness, a new planet between two runs

    /// What the stand-in saw of its tiles: each request's arrival and answer, and the most
    /// that were in flight at once.
    func standInLog(_ server: TileServer) throws -> (requests: [(at: Double, status: Int)], mostInFlight: Int) {
        let text = try server.text("/tile-log")
        var requests = [(at: Double, status: Int)](), most = -1
        for line in text.split(separator: "\n") {
            let w = line.split(separator: " ")
            if w.first == "most-in-flight", w.count == 2 { most = Int(w[1]) ?? -1 } else if w.count == 2, let t = Double(w[0]), let s = Int(w[1]) { requests.append((t, s)) }
        }
        return (requests, most)
    }

    func inode(_ path: String) -> UInt64 { ((try? FileManager.default.attributesOfItem(atPath: path))?[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0 }

    /// After the stand-in changed one tile in seven, `--update` asks for every tile with its
    /// ETag and downloads only those that changed (the stand-in counts 200s and 304s); the
    /// archive is replaced by rename (a reader of the old file reads on); a second update
    /// downloads nothing.
    @Test func anUpdateDownloadsOnlyTheTilesThatChanged() throws {
        let dir = temporaryDirectory("extract-update")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        let env = try server.openFreeMapStandIn(in: dir)
        let out = dir.appendingPathComponent("keskusta.pmtiles").path
        let box = "24.935,60.164,24.953,60.179" // all of the fixture
        let made = try extract(["--from", "streets", "--bbox", box, "--minzoom", "6", "--maxzoom", "14", "--out", out, "--title", "Keskusta"], env: env)
        #expect(made.status == 0, "\(made.stderr)")
        let saved = try SavedArea(path: out)
        #expect(saved.title == "Keskusta" && saved.dataDate == "2026-11-20" && saved.validatorToken != nil && saved.revision != nil)
        let area = try TileArea(bbox: box, zooms: 6...14)
        let fixture = try MBTilesSource(path: StreetMapRenderTests.mbtiles)
        var present = 0, changed = [TileID]()
        for z in area.zooms { for id in area.tileIDs(atZoom: z) {
            let t = PMTilesTileID.tile(for: id)!
            guard try fixture.data(for: t) != nil else { continue }
            present += 1
            if (t.x * 31 + t.y) % 7 == 0 { changed.append(t) }
        } }
        #expect(present >= 12 && changed.count >= 2 && changed.count < present, "\(present) tiles, \(changed.count) to change")
        guard !changed.isEmpty else { return }

        let oldInode = inode(out)
        let old = try PMTilesArchive(reader: try FileRangeReader(path: out), name: out)
        let seen = try standInLog(server).requests.count
        _ = try server.text("/change-tiles?every=7")
        let update = try extract(["--update", out], env: env)
        #expect(update.status == 0 && update.stdout.contains("\(present - changed.count) unchanged"), "\(update.stdout) \(update.stderr)")
        let asked = try standInLog(server).requests.dropFirst(seen)
        #expect(asked.filter { $0.status == 200 }.count == changed.count, "only the changed tiles are downloaded")
        #expect(asked.filter { $0.status == 304 }.count == present - changed.count)
        #expect(asked.count == Int(area.tileCount), "one request per tile")
        #expect(inode(out) != oldInode, "a new archive renamed into place")
        #expect(try old.tileData(changed[0]) != nil, "the old archive still reads for whoever had it open")
        let new = try PMTilesArchive(reader: try FileRangeReader(path: out), name: out)
        for t in changed {
            var data = try new.tileData(t) ?? Data()
            if Gzip.isCompressed(data) { data = try Gzip.decompress(data) }
            #expect(data.suffix(3) == Data([0x80, 0x01, 0x01]), "\(t) is the server's new tile")
        }
        #expect(try SavedArea(path: out).title == "Keskusta")
        #expect(!FileManager.default.fileExists(atPath: out + ".part"))

        let seenAgain = try standInLog(server).requests.count
        let again = try extract(["--update", out], env: env)
        #expect(again.status == 0 && again.stdout.contains("\(present) unchanged"), "\(again.stdout) \(again.stderr)")
        #expect(try standInLog(server).requests.dropFirst(seenAgain).allSatisfy { $0.status != 200 }, "nothing changed, nothing downloaded")
    }

    /// Politeness as the server sees it: never more than two requests at once, and after a
    /// 429 with Retry-After: 2 no request comes until the two seconds have passed (a request
    /// already on its way may arrive just after the 429).
    @Test func theStandInSeesTwoRequestsAtATimeAndAPauseAfterA429() throws {
        let dir = temporaryDirectory("extract-polite")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        let env = try server.openFreeMapStandIn(in: dir)
        _ = try server.text("/throttle?skip=5&count=3&after=2")
        let out = dir.appendingPathComponent("polite.pmtiles").path
        let r = try extract(["--from", "streets", "--bbox", Self.box, "--minzoom", "6", "--maxzoom", "14", "--out", out], env: env)
        #expect(r.status == 0, "\(r.stderr)")
        let log = try standInLog(server)
        #expect((1...2).contains(log.mostInFlight), "\(log.mostInFlight) requests at once")
        let throttled = log.requests.filter { $0.status == 429 }.map(\.at)
        #expect(throttled.count == 3)
        for t in throttled {
            let early = log.requests.filter { $0.at > t + 0.5 && $0.at < t + 1.8 }
            #expect(early.isEmpty, "requests \(early.map { $0.at - t }) s after a 429 that said to wait 2 s")
        }
        try checkTiles(out, against: Self.pmtiles, area: try TileArea(bbox: Self.box, zooms: 6...14))
    }

    /// A save stopped midway (the server refused), then the server published a new planet
    /// under a new address: the next run does not mix the two but begins again, and says so.
    @Test func aMapChangedOnTheServerBetweenTwoRunsIsBegunAgain() throws {
        let dir = temporaryDirectory("extract-newplanet")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        let env = try server.openFreeMapStandIn(in: dir)
        _ = try server.text("/throttle?skip=8&count=1000&status=403")
        let out = dir.appendingPathComponent("planet.pmtiles").path
        let box = "24.935,60.164,24.953,60.179" // all of the fixture
        let args = ["--from", "streets", "--bbox", box, "--minzoom", "6", "--maxzoom", "14", "--out", out]
        let stopped = try extract(args, env: env)
        #expect(stopped.status == 64 && stopped.stderr.contains("403"), "\(stopped.status) \(stopped.stderr)")
        #expect(size(out + ".part/journal") >= 32 * 4, "what was fetched is kept")
        _ = try server.text("/throttle?count=0")
        _ = try server.text("/tilejson-version?v=2")
        let again = try extract(args, env: env)
        #expect(again.status == 0 && again.stdout.contains("changed on the server") && !again.stdout.contains("Going on"), "\(again.stdout) \(again.stderr)")
        // The revision kept is the address's hash, not the address (it may carry a key).
        let revision = try SavedArea(path: out).revision
        #expect(revision?.hasPrefix("tiles-") == true && revision?.contains("127.0.0.1") == false, "\(revision ?? "")")
        try checkTiles(out, against: Self.pmtiles, area: try TileArea(bbox: box, zooms: 6...14))
    }
}

extension TileServer {
    /// sources.json naming the Helsinki fixture behind this server's TileJSON document ("streets",
    /// "Streets"), as OpenFreeMap serves its planet; the environment to run with.
    func openFreeMapStandIn(in dir: URL) throws -> [String: String] {
        let config = dir.appendingPathComponent("meridian")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let json = #"{"sources": [{"name": "streets", "title": "Streets", "type": "vector", "url": "\#(url("/tilejson" + StreetMapRenderTests.mbtiles))", "bulkDownload": true}]}"#
        try Data(json.utf8).write(to: config.appendingPathComponent("sources.json"))
        return ["XDG_CONFIG_HOME": dir.path, "XDG_CACHE_HOME": dir.appendingPathComponent("cache").path]
    }

    /// The body of the stand-in's `path` (its counters and switches), as text.
    func text(_ path: String) throws -> String {
        guard case let .response(r) = HTTPClient(options: .init(userAgent: "Meridian-tests")).get(url(path)), r.status == 200 else {
            throw HarnessError("the stand-in did not answer \(path)")
        }
        return String(decoding: r.body, as: UTF8.self)
    }
}
