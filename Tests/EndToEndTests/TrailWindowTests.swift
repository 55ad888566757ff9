import Foundation
import Testing
import TestPictures

/// The live position's trail in the real window, fed by an NMEA log replayed at ten times
/// its pace: Ctrl+S saves it as GPX that opens again as a track; a clean quit saves the rest;
/// SIGKILL while recording loses at most the last second, and the next start saves what the
/// journal kept.
@Suite(.serialized) struct TrailWindowTests {
    /// `count` fixes a second apart, driving east along 46° N at about 45 m a fix.
    static func drive(_ count: Int) -> String {
        var lines: [String] = []
        for i in 0..<count {
            let t = String(format: "10%02d%02d", i / 60, i % 60), lon = String(format: "0070%06.3f", Double(i) * 0.036)
            lines.append(LivePositionTests.nmea("GPGGA,\(t),4600.000,N,\(lon),E,1,08,1.0,400.0,M,0.0,M,,"))
            lines.append(LivePositionTests.nmea("GPRMC,\(t),A,4600.000,N,\(lon),E,087.0,090.0,211126,,"))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    func trackPoints(_ url: URL) throws -> Int {
        try String(contentsOf: url, encoding: .utf8).components(separatedBy: "<trkpt ").count - 1
    }

    func savedTrails(_ dir: URL) -> [URL] {
        let folder = dir.appendingPathComponent("meridian/tracks")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".gpx") }.sorted()
            .map { folder.appendingPathComponent($0) }
    }

    func window(_ x: Xvfb, _ dir: URL, _ source: String) throws -> (App, String) {
        try LivePositionTests.window(x, dir, ["--center", "46,7.1", "--zoom", "12", "--location-source", source])
    }

    @Test func ctrlSSavesTheTrailAsGPXThatOpensAsATrack() throws {
        let dir = temporaryDirectory("trail-save")
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("drive.nmea")
        try Self.drive(300).write(to: log, atomically: true, encoding: .utf8)
        let x = try Xvfb()
        let (app, id) = try window(x, dir, "nmea:\(log.path)@10")
        // Saved once twenty fixes are in (each moved 45 m: each is a point of the trail).
        try app.waitForLog("20 fixes") { LivePositionTests.fixes(in: $0).count >= 20 }
        _ = try x.xdotool("windowfocus", "--sync", id)
        _ = try x.xdotool("key", "ctrl+s")
        try app.waitForLog("Trail saved to ")
        let fixesSaved = LivePositionTests.fixes(in: app.log).count
        let saved = savedTrails(dir)
        #expect(saved.count == 1, "\(saved)")
        let first = try saved.first.map(trackPoints) ?? 0
        #expect(first >= 10, "\(first) points saved")
        // Ten more fixes, for the quit to save.
        try app.waitForLog("10 more fixes") { LivePositionTests.fixes(in: $0).count >= fixesSaved + 10 }
        try quit(x, id, app)
        // The quit saved the rest into the same file, and the journal is gone.
        #expect(savedTrails(dir) == saved)
        let all = try saved.first.map(trackPoints) ?? 0
        #expect(all > first + 5, "\(first) then \(all)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("meridian/trail.journal").path))
        // The file opens again as a track: render draws it along 46° N in the track colour.
        let png = dir.appendingPathComponent("reopened.png").path
        let r = try run(meridianBinary, ["render", saved[0].path, "--size", "600x300", "--out", png])
        #expect(r.status == 0, "\(r.stderr)")
        let shot = try PNG(png)
        let trackPixels = (0..<300).filter { y in (0..<600).contains { x in
            let c = shot.pixel(x, y)
            return abs(c.r - 0xD6) < 30 && abs(c.g - 0x24) < 30 && abs(c.b - 0x6E) < 30
        } }
        #expect(!trackPixels.isEmpty && trackPixels.count < 30, "a thin east–west line: rows \(trackPixels)")
    }

    @Test func sigkillWhileRecordingLosesAtMostTheLastSecond() throws {
        let dir = temporaryDirectory("trail-kill")
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("drive.nmea")
        try Self.drive(300).write(to: log, atomically: true, encoding: .utf8)
        let x = try Xvfb()
        var (app, id) = try window(x, dir, "nmea:\(log.path)@10")
        try app.waitForLog("30 fixes") { LivePositionTests.fixes(in: $0).count >= 30 }
        kill(app.process.processIdentifier, SIGKILL)
        #expect(app.waitForExit(timeout: 5))
        let logged = LivePositionTests.fixes(in: app.wholeLog)
        let journal = dir.appendingPathComponent("meridian/trail.journal")
        let lines = try String(contentsOf: journal, encoding: .utf8).split(separator: "\n")
        let points = lines.filter { $0.hasPrefix("p ") }.count
        // Every fix moved 45 m, so each is a point; ten fixes come a second.
        #expect(logged.count >= 20, "\(logged.count) fixes")
        #expect(points <= logged.count && points >= logged.count - 10, "\(points) points kept of \(logged.count) fixes")
        // The next start (with no live position) saves what the journal kept, and says so.
        (app, id) = try window(x, dir, "none")
        try app.waitForLog("was recovered and saved")
        try quit(x, id, app)
        let said = app.wholeLog
        #expect(said.contains("was recovered and saved"), "\(said.suffix(500))")
        let saved = savedTrails(dir)
        let kept = try saved.first.map(trackPoints)
        #expect(saved.count == 1 && kept == points, "\(saved): \(kept ?? 0) of \(points)")
        #expect(!FileManager.default.fileExists(atPath: journal.path))
    }
}
