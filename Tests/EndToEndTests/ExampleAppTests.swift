import Foundation
import Testing
import TestSupport

/// Examples/HelloMap: an app of its own that embeds MeridianKit's map with a button of its
/// own, run as a user would run it, in a real X server.
@Suite(.serialized)
struct ExampleAppTests {
    /// What the example writes to stdout (where the map comes to rest), read as it comes.
    final class Output {
        let pipe = Pipe()
        private var bytes: [UInt8] = []
        var text: String { String(decoding: bytes, as: UTF8.self) }

        /// Reads until `done` holds for all said so far; false at the deadline or at the end.
        func read(deadline seconds: Double = 30, until done: (String) -> Bool) -> Bool {
            readAsWritten(pipe.fileHandleForReading.fileDescriptor, deadline: seconds, said: { text }, take: { bytes += $0 }, until: done)
        }
    }

    /// The resting places said so far, as (latitude, longitude, zoom).
    static func rests(_ text: String) -> [(lat: Double, lon: Double, zoom: Double)] {
        text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("Resting at ") else { return nil }
            let f = line.dropFirst("Resting at ".count).split(whereSeparator: { ", ".contains($0) }).filter { $0 != "zoom" }
            guard f.count == 3, let lat = Double(f[0]), let lon = Double(f[1]), let z = Double(f[2]) else { return nil }
            return (lat, lon, z)
        }
    }

    /// Starts the example `name` on `x`, its stdout line-buffered so that each resting place
    /// reaches the test as it is said.
    static func start(_ name: String, on x: Xvfb, output out: Output, errors err: Pipe) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/stdbuf")
        p.arguments = ["-oL", packageRoot.appendingPathComponent(".build/debug/\(name)").path]
        p.environment = ProcessInfo.processInfo.environment.merging(["DISPLAY": x.display, "WAYLAND_DISPLAY": "",
                                                                     "DBUS_SESSION_BUS_ADDRESS": "disabled:"]) { $1 }
        p.standardOutput = out.pipe
        p.standardError = err
        try p.run()
        return p
    }

    @Test func theExampleShowsTheMapWithAButtonOfItsOwnAndKeepsItsKeys() throws {
        let x = try Xvfb()
        let out = Output(), err = Pipe()
        let p = try Self.start("hello-map", on: x, output: out, errors: err)
        defer { stop(p) }
        let id = try x.waitForWindow("Hello map")
        try x.moveToOrigin(id)
        // The app's own identity: its window class is its id, not Meridian's.
        let wmClass = try run(which("xprop")!, ["-id", id, "WM_CLASS"], env: ["DISPLAY": x.display]).stdout
        #expect(wmClass.contains("org.example.HelloMap"), "\(wmClass)")
        #expect(out.read { Self.rests($0).contains { abs($0.lat - 48.85) < 0.01 && abs($0.lon - 2.35) < 0.01 && $0.zoom == 4 } }, "\(out.text)")

        // Its button, drawn by its own layer, flies to Helsinki.
        let shot = try screenshot(x, to: temporaryDirectory("example").appendingPathComponent("hello.png").path) { png in
            png.pixel(20, 20).r > 240 && png.pixel(20, 20).g > 240
        }
        #expect(shot.pixel(20, 20).b > 240, "the button's plate is not drawn at the top left")
        _ = try x.xdotool("mousemove", "--window", id, "75", "28", "click", "1")
        #expect(out.read { Self.rests($0).contains { abs($0.lat - 60.17) < 0.01 && abs($0.lon - 24.94) < 0.01 && $0.zoom == 11 } }, "\(out.text)")

        // Its keys are its own: Ctrl+Q and F11 are not bound (the map answers only its own keys),
        // + is. The keys are taken in order, so the zoom to 12 comes after both were ignored.
        _ = try x.xdotool("windowfocus", "--sync", id)
        _ = try x.xdotool("key", "ctrl+q", "F11", "plus")
        #expect(out.read { Self.rests($0).contains { $0.zoom == 12 } }, "\(out.text)")
        // Its own key, H, bound to its own command, which its layer carries out.
        _ = try x.xdotool("key", "h")
        #expect(out.read { Self.rests($0).last?.zoom == 11 }, "\(out.text)")
        #expect(p.isRunning, "Ctrl+Q quit an app that did not bind it")
        let geometry = try x.xdotool("getwindowgeometry", id)
        #expect(geometry.contains("800x600"), "F11 made the window full screen: \(geometry)")

        // SIGTERM quits it the normal way, as it asked (SDL.Identity.quitsOnSignals).
        kill(p.processIdentifier, SIGTERM)
        #expect(out.read { $0.contains("Hello map closed at 60.1") }, "\(out.text)")
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
    }

    /// Examples/OwnLoop runs its own event loop: the map answers the events handed to it and
    /// draws in its turns; the app's own key (Q) is the app's.
    @Test func anAppWithItsOwnLoopDrivesTheMapFrameByFrame() throws {
        let x = try Xvfb()
        let out = Output(), err = Pipe()
        let p = try Self.start("own-loop", on: x, output: out, errors: err)
        defer { stop(p) }
        let id = try x.waitForWindow("Own loop")
        try x.moveToOrigin(id)
        #expect(out.read { Self.rests($0).contains { abs($0.lat - 51.5) < 0.01 && abs($0.lon + 0.12) < 0.01 && $0.zoom == 6 } }, "\(out.text)")
        _ = try x.xdotool("windowfocus", "--sync", id)
        // The map's keys, handed over by the app's loop: a zoom, then a pan east.
        _ = try x.xdotool("key", "plus")
        #expect(out.read { Self.rests($0).contains { $0.zoom == 7 } }, "\(out.text)")
        _ = try x.xdotool("key", "Right")
        #expect(out.read { Self.rests($0).contains { $0.zoom == 7 && $0.lon > 0.1 } }, "\(out.text)")
        // The picture follows: the map is drawn (not the window's black) in its turns.
        let shot = try screenshot(x, to: temporaryDirectory("own-loop").appendingPathComponent("own.png").path, size: "640x480") { png in
            png.distinctColours > 20
        }
        #expect(shot.distinctColours > 20, "the map is not drawn")
        // Q is the app's own: its loop ends, and the map rests where it was taken.
        _ = try x.xdotool("key", "q")
        #expect(out.read { $0.contains("Own loop closed at") }, "\(out.text)")
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
    }
}
