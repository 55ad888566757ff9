import Foundation
import Testing

/// The software path on X11 has the X server draw the frames (RENDER): the same pictures as
/// the app's own compositor, presented only where they changed.
@Suite(.serialized)
struct ServerDrawnTests {
    /// A still frame of the app's window, once two screenshots a moment apart agree and the
    /// map is drawn; and what the app said. Each renderer starts afresh (the first start
    /// shows a hint, which labels keep clear of).
    func stillFrame(renderer: String, _ args: [String], in parent: URL) throws -> (PNG, String) {
        let dir = parent.appendingPathComponent(renderer)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let x = try Xvfb()
        let app = try App(args + ["--renderer", renderer],
                          env: ["DISPLAY": x.display, "WAYLAND_DISPLAY": "", "XDG_STATE_HOME": dir.path,
                                "MERIDIAN_FIXED_TIME": "0.4", "MERIDIAN_REPORT_DRIVER": "1"])
        let id = try app.window(on: x)
        try x.moveToOrigin(id)
        let path = dir.appendingPathComponent("\(renderer).png").path
        var previous: PNG?
        let png = try screenshot(x, to: path) { png in
            defer { previous = png }
            return png.distinctColours > 50 && previous.map { $0.differingFraction(from: png, by: 0) == 0 } == true
        }
        try quit(x, id, app)
        return (png, app.errorOutput)
    }

    /// Scaled tiles (a fractional zoom, filtered at rest), place labels, a circle in meters
    /// and the chrome: the server's frame is the app's within rounding.
    @Test func theServerDrawsWhatTheAppDraws() throws {
        let dir = temporaryDirectory("server-drawn")
        defer { try? FileManager.default.removeItem(at: dir) }
        let args = ["--center", "47,8", "--zoom", "5.6", "--size", "800x600", "--tiles", "basemap",
                    "--circle", "47,8,150000,red", "--no-location"]
        let (server, serverLog) = try stillFrame(renderer: "software", args, in: dir)
        let (app, appLog) = try stillFrame(renderer: "pixels", args, in: dir)
        #expect(serverLog.contains("renderer: software (X server)"), "\(serverLog)")
        #expect(appLog.contains("renderer: software") && !appLog.contains("(X server)"), "\(appLog)")
        // Bilinear weights round a little differently in pixman: a few levels, rarely more.
        let far = server.differingFraction(from: app, by: 24)
        #expect(far < 0.002, "\(far * 100) % of the pixels differ by more than 24 levels")
        #expect(server.differingFraction(from: app, by: 6) < 0.03)
        // And it is a map: sea, land, labels, the red circle.
        #expect(server.distinctColours > 200)
        let centre = server.pixel(400, 300)
        #expect(centre.r > centre.b + 20, "the red circle's centre is \(centre)")
    }
}

extension PNG {
    /// The share of pixels where some channel differs from `other`'s by more than `levels`.
    func differingFraction(from other: PNG, by levels: Int) -> Double {
        guard width == other.width, height == other.height, width * height > 0 else { return 1 }
        var n = 0
        for y in 0..<height {
            for x in 0..<width {
                let a = pixel(x, y), b = other.pixel(x, y)
                if abs(a.r - b.r) > levels || abs(a.g - b.g) > levels || abs(a.b - b.b) > levels { n += 1 }
            }
        }
        return Double(n) / Double(width * height)
    }
}
