import Foundation
import Testing

/// What the desktop does on a double-click: `meridian FILE…` (Exec=meridian %F).
struct OpenFileTests {
    @Test func filesOnTheCommandLineMoveTheViewAndBadOnesAreReportedInTheWindow() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("open-file")
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = dir.appendingPathComponent("walk.gpx"), bad = dir.appendingPathComponent("broken.gpx")
        try Data("""
        <?xml version="1.0"?>
        <gpx version="1.1" creator="test"><trk><trkseg>
        <trkpt lat="-33.90" lon="18.40"/><trkpt lat="-33.80" lon="18.50"/>
        </trkseg></trk></gpx>
        """.utf8).write(to: good)
        try Data("<gpx>\n<wpt lat=\"abc\" lon=\"1\"/>\n</gpx>\n".utf8).write(to: bad)
        // Partly valid: its good point counts, its bad one is reported with its line.
        let partial = dir.appendingPathComponent("partial.csv")
        try Data("lat,lon\n-33.85,18.45\n-95,18\n".utf8).write(to: partial)
        let app = try App(["--size", "800x600", "--tiles", "debug", "--no-location", "--pins", dir.appendingPathComponent("pins.geojson").path,
                           good.path, bad.path, partial.path],
                          env: ["DISPLAY": x.display, "WAYLAND_DISPLAY": "", "XDG_STATE_HOME": dir.path, "XDG_DATA_HOME": dir.path])
        let id = try app.window(on: x)
        try x.moveToOrigin(id)
        // The notices: a dark plate at the top of the window.
        let png = try screenshot(x, to: dir.appendingPathComponent("shot.png").path) { $0.darkFraction(x: 300, y: 8, w: 200, h: 24, level: 80) > 0.5 }
        _ = try x.xdotool("windowfocus", "--sync", id)
        _ = try x.xdotool("key", "ctrl+q")
        let exited = app.waitForExit(timeout: 10)
        let errors = String(decoding: app.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(exited && app.process.terminationStatus == 0, "status \(app.process.terminationStatus) \(app.process.terminationReason == .uncaughtSignal ? "(signal)" : ""): \(errors)")
        #expect(errors.contains("\(bad.path):2: <wpt> with a lat or lon that is not a number"), "\(errors)")
        #expect(errors.contains("opened walk.gpx: 1 track (2 points)"), "\(errors)")
        #expect(errors.contains("opened partial.csv: 1 route (1 point)"), "\(errors)")
        #expect(errors.contains("\(partial.path):3: row coordinates out of range (lat -95.0, lon 18.0) skipped"), "\(errors)")
        // The view went to the track (Cape Town), zoomed in to fit it.
        let v = try SavedView.read(dir)
        #expect(abs(v.center.lat - (-33.85)) < 0.01 && abs(v.center.lon - 18.45) < 0.01, "\(v.center)")
        #expect(v.zoom > 10 && v.zoom < 13)
        #expect(png.darkFraction(x: 300, y: 8, w: 200, h: 24, level: 80) > 0.5)
    }
}
