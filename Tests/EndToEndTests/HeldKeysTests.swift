import Foundation
import Testing
import TestPictures

/// Keys already down when the window starts do nothing in it. SDL on X11 marks the held Ctrl
/// as down at focus, and the X server's autorepeat of the held Q then reaches the window as a
/// fresh key-down: without care, a Ctrl+Q still held from the last quit quits the new window.
struct HeldKeysTests {
    @Test func aCtrlQHeldFromBeforeTheStartDoesNotQuit() throws {
        let x = try Xvfb()
        let state = temporaryDirectory("held")
        defer { try? FileManager.default.removeItem(at: state) }
        // The X server lets go of an XTEST client's keys when it disconnects: this xdotool
        // holds them, and stays, until the test releases them. It says when they are down.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: try #require(which("xdotool")))
        holder.arguments = ["keydown", "ctrl", "q", "exec", "/bin/echo", "down", "sleep", "60"]
        holder.environment = ["DISPLAY": x.display]
        let said = Pipe()
        holder.standardOutput = said
        try holder.run()
        defer { stop(holder) }
        _ = try readOutput(of: said, until: { $0.contains("down") }, or: "xdotool did not hold Ctrl+Q")

        let (app, id) = try startWindow(x, dir: state, ["--center", "0,0", "--zoom", "3", "--size", "800x600", "--tiles", "debug", "--no-location"],
                                        env: ["MERIDIAN_FRAME_LOG": "1"])
        // The map is drawn (as in WindowTests.theWindowShowsTheMap), then Q has repeated for a
        // second with Ctrl down (25 repeats a second once a key is held).
        let labelled = { (png: PNG) in png.distinctColours > 20 && png.darkFraction(x: 400 - 128 - 60, y: 300 - 128 - 15, w: 120, h: 30) > 0.05 }
        _ = try screenshot(x, to: state.appendingPathComponent("shot.png").path, until: labelled)
        Thread.sleep(forTimeInterval: 1) // gesture: Q held a second more, which the X server's autorepeat makes key-downs
        #expect(app.process.isRunning, "the held Ctrl+Q quit the window")
        guard app.process.isRunning else { return }

        // Once let go, keys work: minus zooms out, and Ctrl+Q quits and saves that view.
        _ = try x.xdotool("keyup", "ctrl", "q")
        try app.settle(after: "minus") { _ = try x.xdotool("key", "minus") }
        try quit(x, id, app)
        #expect(try SavedView.read(state).zoom < 3)
    }
}
