import Foundation
import Testing
import TestPictures
import TestSupport

/// Pins are never lost: the app is killed with SIGKILL at random moments while it saves a
/// stream of changes, and after every kill the file is whole and valid — the old version or
/// a newer one, never a torn mix — and the next start reads it without complaint.
struct PinCrashTests {
    @Test func sigkillMidSaveNeverLeavesABrokenFile() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("pin-crash")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("pins.geojson")
        try Data(PinWindowTests.original.utf8).write(to: file)
        var rng = SeededGenerator(seed: 2026)
        var count = 1
        var saved = 0
        for round in 0..<8 {
            let app = try App(["--center", "10,20", "--zoom", "5", "--size", "800x600", "--tiles", "debug", "--no-location",
                               "--pins", file.path],
                              env: ["DISPLAY": x.display, "WAYLAND_DISPLAY": "", "XDG_STATE_HOME": dir.path, "XDG_DATA_HOME": dir.path])
            let id = try app.window(on: x)
            try x.moveToOrigin(id)
            // The clicks once the map and its pin are drawn: the test pin's red head above the centre.
            func pinShown(_ png: PNG) -> Bool {
                (264..<286).contains { y in (392..<408).contains { x in let c = png.pixel(x, y); return c.r > 200 && c.g < 100 && c.b < 100 } }
            }
            let shown = try screenshot(x, to: dir.appendingPathComponent("start.png").path) { pinShown($0) }
            try #require(pinShown(shown), "round \(round): the pin was never drawn")
            // A stream of Shift+right-clicks, each adding a pin at once and so saving the file
            // (`click` would wait 100 ms after each; the 5 ms between clicks only paces the stream).
            var script: [String] = ["keydown", "shift"]
            for i in 0..<300 {
                script += ["mousemove", "--window", id, "\(60 + (i * 37) % 680)", "\(80 + (i * 53) % 480)", "mousedown", "3", "mouseup", "3", "sleep", "0.005"]
            }
            script += ["keyup", "shift"]
            let clicker = Process()
            clicker.executableURL = URL(fileURLWithPath: which("xdotool")!)
            clicker.arguments = script
            clicker.environment = ["DISPLAY": x.display]
            clicker.standardError = FileHandle.nullDevice
            try clicker.run()
            // Killed at a moment the file does not choose: once it holds a random 25 to 60 more
            // pins than at the start, while the clicks (and saves) go on.
            let more = Int.random(in: 25...60, using: &rng)
            try waitUntil("round \(round): \(more) more pins saved", interval: 0.01, detail: { "it holds \((try? PinWindowTests.read(file).count) ?? 0)" }) {
                ((try? PinWindowTests.read(file).count) ?? 0) >= count + more
            }
            kill(app.process.processIdentifier, SIGKILL)
            app.process.waitUntilExit()
            stop(clicker)
            _ = try? x.xdotool("keyup", "shift")
            #expect(app.process.terminationReason == .uncaughtSignal, "round \(round): the app was not killed")
            let errors = app.errorOutput
            #expect(!errors.contains("corrupt") && !errors.contains("feature"), "round \(round) started with: \(errors)")

            // Whole and valid: a FeatureCollection of Point features, none lost.
            let data = try Data(contentsOf: file)
            let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            #expect(json?["type"] as? String == "FeatureCollection", "round \(round): not a FeatureCollection")
            let pins = try PinWindowTests.read(file)
            #expect(pins.count >= count, "round \(round): \(pins.count) pins, had \(count)")
            #expect(pins.contains { $0.id == "test-pin" })
            #expect(Set(pins.map(\.id)).count == pins.count)
            saved += pins.count - count
            count = pins.count
        }
        print("pin crash test: \(saved) pins added and saved across 8 SIGKILLs")
        // Hundreds of changes went through the saver in all.
        #expect(saved >= 200, "only \(saved) changes were saved")
        let aside = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("corrupt") }
        #expect(aside.isEmpty)
    }
}
