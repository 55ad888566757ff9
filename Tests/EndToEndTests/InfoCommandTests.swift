import Foundation
import Testing
import TestSupport

/// `meridian info`: what files hold, with the numbers the window's statistics show; checked
/// against fitdecode's reading of a real FIT file (Tests/Fixtures/fit/expected.json),
/// gpsbabel's of a TCX (Tests/Fixtures/tcx/README.md) and the archives' own metadata.
struct InfoCommandTests {
    static let fixtures = StreetMapRenderTests.fixtures
    static let elemnt = fixtures.appendingPathComponent("fit/2019-02-17-062644-ELEMNT-297E-195-0.fit").path
    static let forerunner = fixtures.appendingPathComponent("tcx/run-forerunner410.tcx").path
    static let protomaps = fixtures.appendingPathComponent("vector/helsinki-protomaps.pmtiles").path

    func info(_ args: [String]) throws -> (json: Any, status: Int32, stderr: String) {
        let r = try run(meridianBinary, ["info", "--json"] + args, env: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
        return (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)), r.status, r.stderr)
    }

    @Test func aFITFilesNumbersAreFitdecodesAndTheWindows() throws {
        let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.fixtures.appendingPathComponent("fit/expected.json"))) as! [String: Any]
        let want = expected["2019-02-17-062644-ELEMNT-297E-195-0.fit"] as! [String: Any]
        let (json, status, _) = try info([Self.elemnt])
        #expect(status == 0)
        let file = json as! [String: Any]
        let tracks = file["tracks"] as! [[String: Any]]
        #expect(tracks.count == 1)
        let t = tracks[0]
        #expect(t["points"] as? Int == want["points"] as? Int)
        // fitdecode's distance runs on across the ride's 53 auto-pauses; the window's leaves out
        // the gaps (the rider rolled on while the timer stood), which brings it near the
        // device's own total (its session's total_distance, 78,940.55 m, read with fitdecode).
        let distance = t["distance_m"] as! Double, fitdecode = want["distance"] as! Double
        #expect(distance < fitdecode && abs(distance - 78_940.55) <= 78_940.55 * 0.01, "\(distance) vs fitdecode's \(fitdecode)")
        // The first positioned record's time, as fitdecode reads it.
        let first = want["first_time"] as! Double
        #expect(t["start"] as? String == ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: first)))
        #expect(t["duration_s"] as? Double == (want["last_time"] as! Double) - first)
        let moving = t["moving_s"] as! Double
        #expect(moving > 0 && moving <= t["duration_s"] as! Double)
        #expect((t["ascent_m"] as? Double ?? 0) > 0)
        #expect(Set(t["sensors"] as! [String]).isSuperset(of: ["elevation", "time", "heart_rate", "cadence", "power", "temperature"]))
        let b = t["bounds"] as! [Double]
        #expect(b.count == 4 && b[0] < b[2] && b[1] < b[3])
    }

    @Test func severalFilesTracksAndArchivesAndOneThatCannotBeRead() throws {
        let (json, status, stderr) = try info([Self.forerunner, Self.protomaps, "/nonexistent/ride.fit"])
        // One file could not be read: said, and the exit status says so; the others reported.
        #expect(status == 1 && stderr.contains("/nonexistent/ride.fit"), "\(stderr)")
        let files = json as! [[String: Any]]
        #expect(files.count == 3)
        let run = (files[0]["tracks"] as! [[String: Any]])[0]
        #expect(run["name"] as? String == "Running" && run["points"] as? Int == 383)
        #expect(abs((run["distance_m"] as! Double) - 4_688.007) < 4.7, "gpsbabel's 4,688.007 m: \(run)")
        #expect(run["sensors"] as? [String] == ["elevation", "time", "heart_rate"])
        let archive = files[1]["archive"] as! [String: Any]
        #expect(archive["schema"] as? String == "protomaps")
        #expect(archive["zooms"] as? [Int] == [0, 15] && archive["format"] as? String == "mvt")
        #expect((archive["layers"] as? [String] ?? []).contains("roads"))
        #expect((archive["tiles"] as? Int ?? 0) > 0)
        #expect(files[2]["error"] != nil)
    }

    @Test func theTextSaysTheSameForAReader() throws {
        let r = try run(meridianBinary, ["info", Self.forerunner, StreetMapRenderTests.mbtiles], env: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
        #expect(r.status == 0)
        #expect(r.stdout.contains("Running: 383 points") && r.stdout.contains("4.69 km") && r.stdout.contains("with: elevation, time, heart rate"), "\(r.stdout)")
        #expect(r.stdout.contains("schema: openmaptiles, tiles: pbf") && r.stdout.contains("transportation"), "\(r.stdout)")
    }
}
