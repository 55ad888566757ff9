import Foundation
import Testing
import TestPictures
import TestSupport

/// gpsfake (Debian's gpsd-clients) running the real gpsd on a loopback port with an NMEA log.
/// gpsfake writes its log to a pseudo-terminal from the start, and gpsd opens that receiver
/// only once a client watches, dropping what was written before: a window that connects late
/// (a loaded machine) would miss the fixes. So the replay is held — gpsfake -i reads a line
/// of its stdin before each sentence — until gpsd has the receiver open for the window
/// (`replayWhenWatched`). gpsfake ignores SIGTERM and SIGINT, and its gpsd outlives it: both
/// are killed when the value goes.
final class GPSFake {
    let process: Process
    let port: Int
    /// gpsfake's temporary files (gpsd's control socket) and what both say: a directory of
    /// its own, so that no control socket left by a gpsd killed earlier, named after a process
    /// id used again, passes for this one's (gpsfake waits for the socket to exist).
    let directory: URL
    /// gpsfake's stdin: the ends it reads and the test writes. The test keeps the reading end
    /// open too, so that a line written after gpsfake ended meets no pipe without a reader
    /// (SIGPIPE).
    private let lines: (read: Int32, write: Int32)
    private var killed = false

    init(_ log: URL, port: Int, once: Bool) throws {
        guard let gpsfake = which("gpsfake") else { throw HarnessError("gpsfake is not installed (make test installs gpsd-clients)") }
        self.port = port
        directory = temporaryDirectory("gpsfake")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [gpsfake, "-q", "-i"] + (once ? ["-1"] : []) + ["-c", "0.1", "-P", "\(port)", log.path]
        process.environment = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "TMPDIR": directory.path]
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw HarnessError("no pipe for gpsfake's stdin") }
        // Not for other children (gpsfake's stdin is a copy the spawn makes).
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        lines = (ends[0], ends[1])
        process.standardInput = FileHandle(fileDescriptor: lines.read, closeOnDealloc: false)
        // -i prompts with each sentence on stdout.
        process.standardOutput = FileHandle.nullDevice
        _ = FileManager.default.createFile(atPath: said.path, contents: nil)
        let log = try FileHandle(forWritingTo: said)
        defer { try? log.close() }
        process.standardError = log
        try process.run()
    }

    /// What gpsfake and its gpsd wrote to stderr.
    private var said: URL { directory.appendingPathComponent("said.log") }

    /// Waits until gpsd has the receiver open, which it does for a client that watches (the
    /// window, once connected), then lets gpsfake replay its log, at its pace: every sentence
    /// reaches the window. Throws, saying what gpsfake and gpsd said, if gpsfake ends or no
    /// client watches within `deadline` seconds (a guard against waiting forever).
    func replayWhenWatched(deadline: Double = 60) throws {
        try waitUntil("a client (the window) to watch gpsd on port \(port)", deadline: deadline, interval: 0.1, detail: { self.state }) {
            guard process.isRunning else { throw HarnessError("gpsfake ended before a client watched: \(state)") }
            // ?DEVICES lists the receiver with the time it was "activated" while it is open.
            return Self.ask(port: port, "?DEVICES;")?.contains(#""activated":""#) == true
        }
        // A line for each sentence, more than a test replays (gpsfake -1 stops at the log's end);
        // fewer bytes than the pipe holds, so the write does not wait for gpsfake.
        let go = [UInt8](repeating: UInt8(ascii: "\n"), count: 8192)
        guard write(lines.write, go, go.count) == go.count else { throw HarnessError("gpsfake's stdin took no lines: \(state)") }
    }

    /// Whether gpsfake runs, what it and gpsd said, and what gpsd says of its receivers.
    var state: String {
        let running = process.isRunning ? "gpsfake runs" : "gpsfake exited with \(process.terminationStatus)"
        let text = (try? String(contentsOf: said, encoding: .utf8)) ?? ""
        return "\(running); it and gpsd said: \(text.isEmpty ? "nothing" : String(text.suffix(800))); gpsd answers ?DEVICES with: \(Self.ask(port: port, "?DEVICES;") ?? "nothing")"
    }

    /// gpsd's answer on `port` to `request` (its greeting, then the answer's line), nil if
    /// none comes.
    static func ask(port: Int, _ request: String) -> String? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = in_port_t(UInt16(port).bigEndian)
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &a) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let line = Array((request + "\n").utf8)
        guard connected == 0, send(fd, line, line.count, Int32(MSG_NOSIGNAL)) == line.count else { return nil }
        var bytes: [UInt8] = []
        // The greeting (VERSION) comes first; the answer is the line after it. (Lines end in
        // CR LF, one Character to a String: counted in bytes.)
        let answered = readAsWritten(fd, deadline: 5, said: { String(decoding: bytes, as: UTF8.self) }, take: { bytes += $0 }) {
            $0.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) } >= 2
        }
        return answered ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// A loopback port that nothing uses now, for a gpsd of the test's own.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("no socket for a free port") }
        defer { close(fd) }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &a) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) == 0 && getsockname(fd, $0, &size) == 0 }
        }
        guard bound else { throw HarnessError("no free loopback port") }
        return Int(UInt16(bigEndian: a.sin_port))
    }

    /// Kills gpsd (gpsfake's child) and gpsfake, once: gpsfake stopped first, so that it
    /// cannot start a gpsd after its children were looked for.
    func kill() {
        guard !killed else { return }
        killed = true
        // A process id of 0 (never started) would name the test's own process group.
        let pid = process.processIdentifier
        if pid > 0 {
            Foundation.kill(pid, SIGSTOP)
            _ = try? run("/usr/bin/pkill", ["-KILL", "-P", "\(pid)"], timeout: 5)
            Foundation.kill(pid, SIGKILL)
            process.waitUntilExit()
        }
        close(lines.read)
        close(lines.write)
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { kill() }
}

/// The live position against the real gpsd: gpsfake replays a drive the test writes, with a
/// stretch without fix at its end, to the window; gpsd restarting is survived; GeoClue (as
/// python3-dbusmock plays it) gives a fix too.
@Suite(.serialized) struct LivePositionTests {
    /// One NMEA sentence with its checksum.
    static func nmea(_ body: String) -> String {
        String(format: "$%@*%02X", body, body.utf8.reduce(UInt8(0)) { $0 ^ $1 })
    }

    /// Thirty fixes driving east along 46° N at 20 knots (course 90), then a stretch without a
    /// fix longer than the 10 s after which the position turns grey (at gpsfake's pace of a
    /// sentence every 0.1 s).
    static func drive(latitude: Int = 46, fixes: Int = 30) -> String {
        var lines = ["# Date: 2026-11-21"]
        for i in 0..<fixes {
            let t = String(format: "1000%02d", i), lon = String(format: "007%07.4f", 0.3 + Double(i) * 0.5)
            lines.append(nmea("GPGGA,\(t),\(latitude)00.000,N,\(lon),E,1,08,1.0,400.0,M,0.0,M,,"))
            lines.append(nmea("GPRMC,\(t),A,\(latitude)00.000,N,\(lon),E,020.0,090.0,211126,,"))
        }
        guard fixes == 30 else { return lines.joined(separator: "\r\n") + "\r\n" }
        for i in 30..<160 { lines.append(nmea(String(format: "GPRMC,10%02d%02d,V,,,,,,,211126,,", i / 60, i % 60))) }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    @Test func fixesFromGpsdMoveTheLocationFollowModeKeepsItCentredAndALostFixIsSaid() throws {
        let dir = temporaryDirectory("gpsd")
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("drive.nmea")
        try Self.drive().write(to: log, atomically: true, encoding: .utf8)
        let port = try GPSFake.freePort()
        let fake = try GPSFake(log, port: port, once: true)
        defer { withExtendedLifetime(fake) {} }
        let x = try Xvfb()
        let (app, id) = try Self.window(x, dir, ["--center", "46,7.05", "--zoom", "12", "--location-source", "gpsd:127.0.0.1:\(port)"])
        // The drive is replayed, once, when the window watches gpsd; once fixes come, follow them.
        try fake.replayWhenWatched()
        try app.waitForLog("a fix") { !Self.fixes(in: $0).isEmpty }
        _ = try x.xdotool("windowfocus", "--sync", id)
        _ = try x.xdotool("key", "f")
        // Ten seconds after the drive's last fix the position turns grey, and the window says so.
        try app.waitForLog("No position fix for 10 s", deadline: 60)
        try quit(x, id, app)
        let stderr = app.wholeLog
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

    /// The window at 800×600 in the screen's corner, its state kept in `dir`, logging frames and fixes.
    static func window(_ x: Xvfb, _ dir: URL, _ args: [String], env: [String: String] = [:]) throws -> (App, String) {
        try startWindow(x, dir: dir, ["--size", "800x600"] + args, env: ["MERIDIAN_FRAME_LOG": "1"].merging(env) { $1 })
    }

    /// The fixes the window logged (MERIDIAN_FRAME_LOG): latitude, longitude, accuracy.
    static func fixes(in log: String) -> [[Double]] {
        log.split(separator: "\n").filter { $0.hasPrefix("fix ") }.map { $0.split(separator: " ").compactMap { Double($0) } }
    }

    @Test func aGpsdRestartIsSurvived() throws {
        let dir = temporaryDirectory("gpsd-restart")
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = dir.appendingPathComponent("first.nmea"), second = dir.appendingPathComponent("second.nmea")
        try Self.drive(latitude: 46, fixes: 60).write(to: first, atomically: true, encoding: .utf8)
        try Self.drive(latitude: 47, fixes: 60).write(to: second, atomically: true, encoding: .utf8)
        let port = try GPSFake.freePort()
        var fake: GPSFake? = try GPSFake(first, port: port, once: false)
        let x = try Xvfb()
        let (app, id) = try Self.window(x, dir, ["--center", "46,7.05", "--zoom", "10", "--location-source", "gpsd:127.0.0.1:\(port)"])
        try fake?.replayWhenWatched()
        try app.waitForLog("a fix at 46° N") { Self.fixes(in: $0).contains { $0.first == 46 } }
        // gpsd goes away (as when it is restarted) and comes back on the same port with
        // another receiver's log, at 47° N: once the window has said it lost it.
        let lost = "meridian: gpsd at 127.0.0.1:\(port): "
        app.readAvailable()
        let toldBefore = app.log.components(separatedBy: lost).count
        fake?.kill()
        fake = nil
        try app.waitForLog("that gpsd went away") { $0.components(separatedBy: lost).count > toldBefore }
        let again = try GPSFake(second, port: port, once: false)
        defer { withExtendedLifetime(again) {} }
        // The window tries again after a second, then two, then four…: once it watches the new
        // gpsd, that one's log is replayed, and three fixes come from it.
        try again.replayWhenWatched()
        try app.waitForLog("three fixes at 47° N") { Self.fixes(in: $0).filter { $0.first == 47 }.count >= 3 }
        try quit(x, id, app)
        let log = app.wholeLog
        let lats = Self.fixes(in: log).map { $0[0] }
        #expect(lats.contains(46) && lats.contains(47), "fixes from before and after the restart: \(lats)")
        #expect(lats.firstIndex(of: 47).map { k in lats[k...].allSatisfy { $0 == 47 } } == true, "\(lats)")
        #expect(log.contains("gpsd at 127.0.0.1:\(port)"), "the lost connection is said: \(log.suffix(2000))")
    }

    @Test func geoClueGivesTheFixShown() throws {
        let mock = try GeoClueMock(parameters: ["lat": 45.764, "lon": 4.8357, "accuracy": 40])
        let dir = temporaryDirectory("geoclue")
        defer { try? FileManager.default.removeItem(at: dir) }
        let x = try Xvfb()
        // GDBus takes the system bus from DBUS_SYSTEM_BUS_ADDRESS: here, the mock's.
        let (app, id) = try Self.window(x, dir, ["--center", "45.764,4.8357", "--zoom", "15", "--tiles", "debug", "--location-source", "geoclue"],
                                        env: ["DBUS_SYSTEM_BUS_ADDRESS": mock.address])
        // The dot is at the centre of the window: systemBlue inside a white ring.
        func dotShown(_ png: PNG) -> Bool {
            let c = png.pixel(400, 300)
            return c.b > 200 && c.r < 60 && c.g > 90 && c.g < 160
        }
        let shot = try screenshot(x, to: dir.appendingPathComponent("geoclue.png").path) { dotShown($0) }
        #expect(dotShown(shot), "no location dot at the centre: \(shot.pixel(400, 300))")
        // It moves when GeoClue says so.
        try mock.move(latitude: 45.765, longitude: 4.836, accuracy: 20)
        try app.waitForLog("a second fix") { Self.fixes(in: $0).count >= 2 }
        try quit(x, id, app)
        let fixes = Self.fixes(in: app.wholeLog)
        #expect(fixes == [[45.764, 4.8357, 40], [45.765, 4.836, 20]], "\(fixes)")
    }
}
