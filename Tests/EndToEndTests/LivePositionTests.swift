import Foundation
import Testing
import TestSupport

/// The live position against the real gpsd: gpsfake (Debian's gpsd-clients) replays a drive
/// the test writes, with a stretch without fix at its end, to the window.
@Suite(.serialized) struct LivePositionTests {
    /// One NMEA sentence with its checksum.
    static func nmea(_ body: String) -> String {
        String(format: "$%@*%02X", body, body.utf8.reduce(UInt8(0)) { $0 ^ $1 })
    }

    /// Thirty fixes driving east along 46° N at 20 knots (course 90), then a stretch without a
    /// fix longer than the 10 s after which the position turns grey (at gpsfake's pace of a
    /// sentence every 0.1 s).
    static func drive() -> String {
        var lines = ["# Date: 2026-11-21"]
        for i in 0..<30 {
            let t = String(format: "1000%02d", i), lon = String(format: "007%07.4f", 0.3 + Double(i) * 0.5)
            lines.append(nmea("GPGGA,\(t),4600.000,N,\(lon),E,1,08,1.0,400.0,M,0.0,M,,"))
            lines.append(nmea("GPRMC,\(t),A,4600.000,N,\(lon),E,020.0,090.0,211126,,"))
        }
        for i in 30..<160 { lines.append(nmea(String(format: "GPRMC,10%02d%02d,V,,,,,,,211126,,", i / 60, i % 60))) }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    @Test func fixesFromGpsdMoveTheLocationFollowModeKeepsItCentredAndALostFixIsSaid() throws {
        guard let gpsfake = which("gpsfake") else { throw HarnessError("gpsfake is not installed (make test installs gpsd-clients)") }
        let dir = temporaryDirectory("gpsd")
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("drive.nmea")
        try Self.drive().write(to: log, atomically: true, encoding: .utf8)
        let port = Int.random(in: 41000...48000)
        let fake = Process()
        fake.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        fake.arguments = [gpsfake, "-q", "-1", "-c", "0.1", "-P", "\(port)", log.path]
        fake.environment = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"]
        fake.standardOutput = FileHandle.nullDevice
        fake.standardError = FileHandle.nullDevice
        try fake.run()
        defer { fake.terminate() }
        let x = try Xvfb()
        let app = try App(["--center", "46,7.05", "--zoom", "12", "--size", "800x600", "--location-source", "gpsd:127.0.0.1:\(port)"],
                          env: ["DISPLAY": x.display, "WAYLAND_DISPLAY": "", "XDG_STATE_HOME": dir.path, "XDG_DATA_HOME": dir.path,
                                "MERIDIAN_FRAME_LOG": "1"])
        let id = try x.waitForWindow("Meridian")
        // Once fixes come (gpsfake takes a second or two to start), follow them.
        Thread.sleep(forTimeInterval: 3)
        _ = try x.xdotool("windowfocus", "--sync", id)
        _ = try x.xdotool("key", "f")
        // The drive ends about now; ten seconds after its last fix the position turns grey.
        Thread.sleep(forTimeInterval: 16)
        try quit(x, id, app)
        let stderr = String(decoding: app.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let fixes = stderr.split(separator: "\n").filter { $0.hasPrefix("fix ") }.map { $0.split(separator: " ").compactMap { Double($0) } }
        #expect(fixes.count >= 6, "\(stderr)")
        #expect(fixes.allSatisfy { $0.count == 3 && abs($0[0] - 46) < 1e-6 }, "\(fixes)")
        let lons = fixes.map { $0[1] }
        #expect(lons == lons.sorted() && (lons.last ?? 0) > (lons.first ?? 0), "the drive went east: \(lons)")
        #expect(stderr.contains("No position fix for 10 s"), "\(stderr)")
        // Following: the view ended centred where the last fix was.
        let view = try SavedView.read(dir)
        #expect(abs(view.center.lon - (lons.last ?? 0)) < 0.002 && abs(view.center.lat - 46) < 0.002, "\(view.center) vs \(lons.last ?? 0)")
    }
}
