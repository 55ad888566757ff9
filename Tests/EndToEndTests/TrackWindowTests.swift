import Foundation
import Testing

/// A track in the window stays on the map while the map zooms under the wheel.
struct TrackWindowTests {
    /// The palette's first colour (0xD6246E), give or take scaling.
    func isTrack(_ p: (r: Int, g: Int, b: Int)) -> Bool { abs(p.r - 0xD6) < 40 && abs(p.g - 0x24) < 40 && abs(p.b - 0x6E) < 40 }
    /// The debug grid's solid tile edges (0x93A3AF), give or take scaling.
    func isGrid(_ p: (r: Int, g: Int, b: Int)) -> Bool { abs(p.r - 0x93) < 30 && abs(p.g - 0xA3) < 30 && abs(p.b - 0xAF) < 30 }

    /// Where the track and the tile edge it runs along are, in one screenshot: the track's
    /// middle x in its middle row, and the grid line's middle x a little south of the track's
    /// end (on the same meridian, 0°). Nil when either is not in the picture.
    func positions(_ png: PNG) -> (track: Double, grid: Double)? {
        var rows: [(y: Int, xs: [Int])] = []
        for y in stride(from: 0, to: png.height, by: 2) {
            let xs = (0..<png.width).filter { isTrack(png.pixel($0, y)) }
            if !xs.isEmpty { rows.append((y, xs)) }
        }
        guard rows.count >= 4 else { return nil }
        let mid = rows[rows.count / 2]
        let tx = Double(mid.xs.reduce(0, +)) / Double(mid.xs.count)
        // South of the track's end, the first rows where the grid shows as a thin vertical run.
        for y in (rows.last!.y + 6)..<min(rows.last!.y + 80, png.height) {
            let xs = (max(0, Int(tx) - 20)..<min(png.width, Int(tx) + 21)).filter { isGrid(png.pixel($0, y)) }
            if !xs.isEmpty && xs.count <= 5 { return (tx, Double(xs.reduce(0, +)) / Double(xs.count)) }
        }
        return nil
    }

    let keep = ProcessInfo.processInfo.environment["KEEP_SHOTS"] != nil

    @Test func theTrackStaysOnItsMeridianInEveryFrameOfAWheelZoom() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("track-window")
        defer { if !keep { try? FileManager.default.removeItem(at: dir) } }
        // Along the prime meridian, which is a tile edge of the debug grid at every zoom.
        let gpx = dir.appendingPathComponent("meridian.gpx")
        try Data("""
        <gpx version="1.1" creator="t"><rte><rtept lat="0.3" lon="0"/><rtept lat="1.2" lon="0"/></rte></gpx>
        """.utf8).write(to: gpx)
        let app = try App(["--size", "800x600", "--tiles", "debug", "--no-location", "--center", "0.6,0.5", "--zoom", "7",
                           "--pins", dir.appendingPathComponent("pins.geojson").path, gpx.path],
                          env: ["DISPLAY": x.display, "WAYLAND_DISPLAY": "", "XDG_STATE_HOME": dir.path, "XDG_DATA_HOME": dir.path])
        let id = try x.waitForWindow("Meridian")
        try x.moveToOrigin(id)
        let shot = dir.appendingPathComponent("shot.png").path
        // At rest first: the track is drawn, on its meridian.
        let rest = try screenshot(x, to: shot) { positions($0) != nil }
        let p0 = try #require(positions(rest))
        #expect(abs(p0.track - p0.grid) <= 1.5, "at rest: \(p0)")
        // Zoom in around a point east of the track, so the track slides west as it zooms;
        // screenshots are taken while the wheel turns.
        _ = try x.xdotool("mousemove", "--window", id, "450", "300")
        let wheel = Process()
        wheel.executableURL = URL(fileURLWithPath: which("xdotool")!)
        wheel.arguments = ["click", "--repeat", "4", "--delay", "300", "4"]
        wheel.environment = ["DISPLAY": x.display]
        try wheel.run()
        var seen: [(track: Double, grid: Double)] = []
        var k = 0
        while wheel.isRunning {
            let png = try screenshot(x, to: dir.appendingPathComponent("zoom\(k).png").path) { _ in true }
            if let p = positions(png) { seen.append(p) }
            k += 1
        }
        wheel.waitUntilExit()
        Thread.sleep(forTimeInterval: 0.5)
        let after = try screenshot(x, to: shot) { _ in true }
        if let p = positions(after) { seen.append(p) }
        #expect(seen.count >= 3, "\(seen)")
        // It moved (the zoom was not around it), and in every shot it lies on the meridian.
        #expect((seen.map(\.track).max() ?? 0) - (seen.map(\.track).min() ?? 0) > 20, "\(seen)")
        for p in seen { #expect(abs(p.track - p.grid) <= 2, "\(p) in \(seen)") }
        _ = try x.xdotool("key", "--window", id, "ctrl+q")
        #expect(app.waitForExit(timeout: 10))
    }
}
