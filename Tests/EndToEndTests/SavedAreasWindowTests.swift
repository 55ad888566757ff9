import Foundation
import MapGeometry
import MapNetwork
import MapTiles
import Testing
import TestSupport

/// "Saved areas" (Shift+A) end to end in the real window, against OpenFreeMap's stand-in (the
/// Helsinki fixture's real tiles behind a TileJSON document on loopback): the list says each
/// area's size, zooms and days and the total; Show flies there; Update downloads only the
/// tiles the stand-in changed and replaces the archive; Rename keeps the tiles; an unfinished
/// save is resumed, another discarded; Delete asks once, then deletes the area and its
/// validators.
@Suite(.serialized) struct SavedAreasWindowTests {
    /// A piece of text the last whole frame drew, and where (MERIDIAN_DRAWLIST_OUT).
    struct Drawn { var text: String; var x, y, width, height: Double
        var centre: (x: Int, y: Int) { (Int((x + width / 2).rounded()), Int((y + height / 2).rounded())) }
    }

    /// The chrome's texts only (map labels are drawn in the style's looks).
    static func texts(_ path: String) -> [Drawn] {
        guard let dump = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        let pattern = try! NSRegularExpression(pattern: #"^sprite\(text\("((?:[^"\\]|\\.)*)", MapCore\.TextStyle\.chrome\), destination: MapCore\.ScreenRect\(x: ([-0-9.e]+), y: ([-0-9.e]+), width: ([-0-9.e]+), height: ([-0-9.e]+)\)"#)
        return dump.split(separator: "\n").compactMap { line in
            let s = String(line)
            guard let m = pattern.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) else { return nil }
            func g(_ i: Int) -> String { String(s[Range(m.range(at: i), in: s)!]) }
            guard let x = Double(g(2)), let y = Double(g(3)), let w = Double(g(4)), let h = Double(g(5)) else { return nil }
            return Drawn(text: g(1), x: x, y: y, width: w, height: h)
        }
    }

    /// Presses the button `label` in the row of the area `title` (the button on the row's
    /// first line, right of its title).
    func press(_ label: String, of title: String, _ x: Xvfb, drawn: String) throws {
        let all = Self.texts(drawn)
        guard let row = all.first(where: { $0.text == title || $0.text == title + " — unfinished" }) else {
            throw HarnessError("no row titled \(title) among \(all.map(\.text))")
        }
        guard let button = all.first(where: { $0.text == label && abs(($0.y + $0.height / 2) - (row.y + row.height / 2)) < 8 && $0.x > row.x }) else {
            throw HarnessError("no \(label) in the row of \(title)")
        }
        _ = try x.xdotool("mousemove", "\(button.centre.x)", "\(button.centre.y)", "click", "1")
    }

    @Test func savedAreasAreListedShownUpdatedRenamedResumedDiscardedAndDeleted() throws {
        let dir = temporaryDirectory("saved-areas")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        let cli = try server.openFreeMapStandIn(in: dir).merging(["XDG_DATA_HOME": dir.path]) { $1 }
        let folder = dir.appendingPathComponent("meridian/areas").path
        func extract(_ name: String, _ title: String, _ box: String) throws -> RunResult {
            try run(meridianBinary, ["extract", "--from", "streets", "--bbox", box, "--minzoom", "6", "--maxzoom", "14",
                                     "--out", folder + "/" + name + ".pmtiles", "--title", title], env: cli)
        }
        let keskusta = folder + "/keskusta.pmtiles"
        #expect(try extract("keskusta", "Keskusta", "24.935,60.164,24.953,60.179").status == 0)
        // Two saves stopped by the server (a 403 after a few tiles): one to resume, one to discard.
        _ = try server.text("/throttle?skip=4&count=1000&status=403")
        #expect(try extract("kruununhaka", "Kruununhaka", "24.944,60.170,24.953,60.179").status == 64)
        _ = try server.text("/throttle?skip=2&count=1000&status=403")
        #expect(try extract("kamppi", "Kamppi", "24.935,60.164,24.944,60.172").status == 64)
        _ = try server.text("/throttle?count=0")
        try #require(UnfinishedArea.list(in: folder).count == 2)

        let x = try Xvfb()
        let drawn = dir.appendingPathComponent("drawlist.txt").path
        let env = cli.merging(["MERIDIAN_FRAME_LOG": "1", "MERIDIAN_DRAWLIST_OUT": drawn]) { $1 }
        let (app, id) = try startWindow(x, dir: dir, ["--tiles", "streets", "--center", "60.0,24.0", "--zoom", "9", "--size", "800x600",
                                                      "--no-location"], env: env)
        #expect(app.settles())
        _ = try x.xdotool("key", "shift+a")
        #expect(app.settles())
        var texts = Self.texts(drawn).map(\.text)
        #expect(texts.contains("Keskusta") && texts.contains("Kruununhaka — unfinished") && texts.contains("Kamppi — unfinished"), "\(texts)")
        #expect(texts.contains { $0.hasPrefix("1 area and 2 unfinished · ") && $0.hasSuffix(" on disk") }, "\(texts)")
        #expect(texts.contains { $0.hasPrefix("Streets · ") && $0.contains("zooms 7–15 · saved ") && $0.hasSuffix("data of 20 Nov 2026") }, "\(texts)")
        _ = try x.xdotool("key", "Escape")
        #expect(app.settles())
        #expect(!Self.texts(drawn).contains { $0.text == "Keskusta" }, "Esc closes the list")

        // Show: the view flies to the area.
        _ = try x.xdotool("key", "shift+a")
        #expect(app.settles())
        try press("Show", of: "Keskusta", x, drawn: drawn)
        #expect(app.settles())

        // Update after the stand-in changed one tile in seven: only those are downloaded.
        let before = try SavedArea(path: keskusta)
        let oldInode = (try FileManager.default.attributesOfItem(atPath: keskusta)[.systemFileNumber] as? NSNumber)?.uint64Value
        let seen = try server.text("/tile-log").split(separator: "\n").count
        _ = try server.text("/change-tiles?every=7")
        try press("Update", of: "Keskusta", x, drawn: drawn)
        #expect(app.readLog(deadline: 60) { $0.contains("Updated “Keskusta”: ") }, "\(app.log.suffix(600))")
        let answers = try server.text("/tile-log").split(separator: "\n").dropFirst(seen - 1).compactMap { $0.split(separator: " ").last }
        let downloaded = answers.filter { $0 == "200" }.count, kept = answers.filter { $0 == "304" }.count
        #expect(downloaded >= 1 && kept >= 1 && app.log.contains("Updated “Keskusta”: \(downloaded) tiles downloaded, \(kept) unchanged"), "\(app.log.suffix(400))")
        #expect((try FileManager.default.attributesOfItem(atPath: keskusta)[.systemFileNumber] as? NSNumber)?.uint64Value != oldInode)
        let updated = try SavedArea(path: keskusta)
        #expect(app.settles())

        // Rename: the name typed replaces the old; the tiles stay.
        try press("Rename", of: "Keskusta", x, drawn: drawn)
        #expect(app.settles())
        for _ in 0..<8 { _ = try x.xdotool("key", "BackSpace") }
        _ = try x.xdotool("type", "--delay", "30", "Helsinki centre")
        _ = try x.xdotool("key", "Return")
        #expect(app.readLog { $0.contains("“Keskusta” is now “Helsinki centre”") }, "\(app.log.suffix(400))")
        let renamed = try SavedArea(path: keskusta)
        #expect(renamed.title == "Helsinki centre" && renamed.validatorToken == updated.validatorToken)
        #expect(renamed.bytes > before.bytes / 2)
        #expect(app.settles())

        // Resume one unfinished save; discard the other (asked once).
        try press("Resume", of: "Kruununhaka", x, drawn: drawn)
        #expect(app.readLog(deadline: 60) { $0.contains("Saved “Kruununhaka” offline") }, "\(app.log.suffix(600))")
        #expect(app.settles())
        #expect(try SavedArea(path: folder + "/kruununhaka.pmtiles").title == "Kruununhaka")
        try press("Discard", of: "Kamppi", x, drawn: drawn)
        #expect(app.settles())
        try press("Discard?", of: "Kamppi", x, drawn: drawn)
        #expect(app.readLog { $0.contains("Discarded the unfinished save of “Kamppi”") }, "\(app.log.suffix(400))")
        #expect(UnfinishedArea.list(in: folder).isEmpty && !FileManager.default.fileExists(atPath: folder + "/kamppi.pmtiles.part"))
        #expect(app.settles())

        // Delete, asked once: the area and its validators go.
        try press("Delete", of: "Helsinki centre", x, drawn: drawn)
        #expect(app.settles())
        #expect(FileManager.default.fileExists(atPath: keskusta), "one press only asks")
        try press("Delete?", of: "Helsinki centre", x, drawn: drawn)
        #expect(app.readLog { $0.contains("Deleted “Helsinki centre”") }, "\(app.log.suffix(400))")
        #expect(!FileManager.default.fileExists(atPath: keskusta) && !FileManager.default.fileExists(atPath: TileValidators.file(for: keskusta)))
        #expect(app.settles())
        texts = Self.texts(drawn).map(\.text)
        #expect(texts.contains("Kruununhaka") && !texts.contains("Helsinki centre") && texts.contains { $0.hasPrefix("1 area · ") }, "\(texts)")
        try quit(x, id, app)
        // Shown: the view went to the area (in the fixture's box), and stayed.
        let view = try SavedView.read(dir)
        #expect(view.center.lat > 60.164 && view.center.lat < 60.179 && view.center.lon > 24.935 && view.center.lon < 24.953, "\(view.center)")
    }

    /// A full disk in the middle of a save in the window (a file size limit put on the
    /// running app stands for it): the notice says so, the save is listed unfinished with the
    /// tiles it kept, and Resume, with room again, finishes it with every tile.
    @Test func aFullDiskMidSaveSaysSoAndResumeFinishesIt() throws {
        let dir = temporaryDirectory("saved-areas-full")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        let config = dir.appendingPathComponent("meridian")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        // 512-pixel street tiles: a save of the view takes a few MB.
        let json = #"{"sources": [{"name": "bulk", "title": "Test streets", "url": "\#(server.url("/street/{z}/{x}/{y}@2x.png"))", "maxZoom": 17, "bulkDownload": true}]}"#
        try Data(json.utf8).write(to: config.appendingPathComponent("sources.json"))
        let folder = config.appendingPathComponent("areas").path
        let x = try Xvfb()
        let drawn = dir.appendingPathComponent("drawlist.txt").path
        let env = ["XDG_CONFIG_HOME": dir.path, "XDG_CACHE_HOME": dir.appendingPathComponent("cache").path, "MERIDIAN_FRAME_LOG": "1",
                   "MERIDIAN_DRAWLIST_OUT": drawn]
        let (app, id) = try startWindow(x, dir: dir, ["--tiles", "bulk", "--center", "60.17,24.94", "--zoom", "12", "--size", "800x600", "--no-location"], env: env)
        #expect(app.settles())
        let pid = "\(app.process.processIdentifier)"
        // The journal commits each MiB: the first is kept, the second does not fit (the soft
        // limit only, so that it can be lifted again).
        #expect(try run(which("prlimit")!, ["--pid", pid, "--fsize=1572864:unlimited"]).status == 0)
        _ = try x.xdotool("key", "a")
        #expect(app.settles())
        _ = try x.xdotool("key", "Return")
        #expect(app.readLog(deadline: 120) { $0.contains("The disk is full") }, "\(app.log.suffix(600))")
        #expect(app.log.contains("what was saved is kept"))
        let unfinished = UnfinishedArea.list(in: folder)
        try #require(unfinished.count == 1)
        #expect(unfinished[0].tilesDone > 0 && unfinished[0].tilesDone < unfinished[0].tilesTotal, "\(unfinished[0].tilesDone) of \(unfinished[0].tilesTotal)")
        #expect(SavedArea.list(in: folder).isEmpty)
        #expect(app.settles())

        #expect(try run(which("prlimit")!, ["--pid", pid, "--fsize=unlimited:unlimited"]).status == 0)
        _ = try x.xdotool("key", "shift+a")
        #expect(app.settles())
        try press("Resume", of: unfinished[0].title, x, drawn: drawn)
        #expect(app.readLog(deadline: 120) { $0.contains("Saved “\(unfinished[0].title)” offline") }, "\(app.log.suffix(600))")
        let saved = SavedArea.list(in: folder)
        try #require(saved.count == 1)
        let archive = try PMTilesArchive(reader: try FileRangeReader(path: saved[0].path), name: saved[0].path)
        #expect(archive.header.addressedTiles == unfinished[0].tilesTotal)
        #expect(UnfinishedArea.list(in: folder).isEmpty)
        try quit(x, id, app)
    }
}
