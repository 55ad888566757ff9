import Foundation
import Testing
import TestPictures
import TestSupport

/// The real `meridian` binary: $MERIDIAN_BIN, else the debug build in this package.
let meridianBinary: String = ProcessInfo.processInfo.environment["MERIDIAN_BIN"]
    ?? packageRoot.appendingPathComponent(".build/debug/meridian").path

struct RunResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs a program to completion (bounded by `timeout`), capturing its output.
@discardableResult
func run(_ path: String, _ args: [String], env: [String: String] = [:], timeout: Double = 60) throws -> RunResult {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = args
    p.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    // Read while it runs so a chatty child cannot block on a full pipe.
    nonisolated(unsafe) var o = Data(), e = Data()
    let g = DispatchGroup()
    g.enter(); DispatchQueue.global().async { o = out.fileHandleForReading.readDataToEndOfFile(); g.leave() }
    g.enter(); DispatchQueue.global().async { e = err.fileHandleForReading.readDataToEndOfFile(); g.leave() }
    let deadline = Date().addingTimeInterval(timeout)
    while p.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    stop(p)
    g.wait()
    p.waitUntilExit()
    return RunResult(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
}

/// Ends a process: SIGTERM, then SIGKILL if it has not gone within two seconds.
func stop(_ p: Process) {
    guard p.isRunning else { return }
    p.terminate()
    let deadline = Date().addingTimeInterval(2)
    while p.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    if p.isRunning { kill(p.processIdentifier, SIGKILL) }
    p.waitUntilExit()
}

func which(_ tool: String) -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let p = "\(dir)/\(tool)"
        if FileManager.default.isExecutableFile(atPath: p) { return p }
    }
    return nil
}

func temporaryDirectory(_ name: String) -> URL {
    let u = FileManager.default.temporaryDirectory.appendingPathComponent("meridian-\(name)-\(UUID().uuidString.prefix(8))")
    try? FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
    return u
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// A private X server for one test.
final class Xvfb {
    let display: String
    private let process: Process

    /// `depth`: bits per pixel of the screen (16: the window's pixels are not 32-bit words).
    init(width: Int = 1280, height: Int = 1024, depth: Int = 24) throws {
        guard let xvfb = which("Xvfb") else { throw HarnessError("Xvfb is not installed (make test installs it)") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: xvfb)
        let pipe = Pipe()
        // -noreset: by default the server resets when its last client leaves, and a client
        // connecting during that reset is dropped. A test's `xdotool search` leaving as the app
        // connects made the app's XOpenDisplay fail ("x11 not available") once in a few runs.
        p.arguments = ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x\(depth)", "-nolisten", "tcp", "-noreset"]
        p.standardOutput = pipe
        // What the server says (a client refused, a socket lost) is kept for `whyNoWindow`.
        log = FileManager.default.temporaryDirectory.appendingPathComponent("xvfb-\(getpid())-\(UUID().uuidString.prefix(8)).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        p.standardError = try FileHandle(forWritingTo: log)
        try p.run()
        let number = try readOutput(of: pipe, until: { $0.hasSuffix("\n") }, or: "Xvfb did not start")
        display = ":" + number.trimmingCharacters(in: .whitespacesAndNewlines)
        process = p
    }

    deinit {
        stop(process)
        try? FileManager.default.removeItem(at: log)
    }

    /// Where the server's messages go.
    let log: URL

    /// What is known of the server when a client could not reach it: whether it runs, its
    /// socket, whether a client connects now, and the end of what it said.
    var health: String {
        let n = display.dropFirst()
        var facts = [process.isRunning ? "Xvfb \(process.processIdentifier) runs" : "Xvfb exited with \(process.terminationStatus)"]
        facts.append(FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)") ? "its socket is there" : "its socket /tmp/.X11-unix/X\(n) is gone")
        let probe = try? run(which("xdotool")!, ["getdisplaygeometry"], env: ["DISPLAY": display], timeout: 10)
        facts.append(probe.map { "a client now gets: " + ($0.stdout + $0.stderr).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "xdotool did not answer")
        let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        facts.append("it said: " + (said.isEmpty ? "nothing" : String(said.suffix(800))))
        return facts.joined(separator: "; ")
    }

    /// The server's process id (to limit its memory in a test).
    var pid: Int32 { process.processIdentifier }

    func xdotool(_ args: String...) throws -> String {
        guard let x = which("xdotool") else { throw HarnessError("xdotool is not installed") }
        let r = try run(x, args, env: ["DISPLAY": display], timeout: 20)
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits for a window whose title starts with `title` and returns its id.
    func waitForWindow(_ title: String, timeout: Double = 60) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let id = (try? xdotool("search", "--onlyvisible", "--name", "^\(title)"))?.split(separator: "\n").first { return String(id) }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw HarnessError("no window titled \(title) appeared")
    }

    /// Moves the window to the screen's top-left corner, so screenshots of the screen's corner
    /// are the window, and checks that it got there (a move sent while a window is still being
    /// set up can be undone by its toolkit).
    func moveToOrigin(_ id: String, timeout: Double = 5) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            _ = try xdotool("windowmove", "--sync", id, "0", "0")
            let geometry = try xdotool("getwindowgeometry", id)
            if geometry.contains("Position: 0,0") { return }
            if Date() > deadline { throw HarnessError("the window did not move to 0,0: \(geometry)") }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }
}

/// What a process started by a test writes to `pipe`, read until `done` says it has said
/// enough (how the test knows it is ready); `failure` is thrown if it ends before that.
func readOutput(of pipe: Pipe, until done: (String) -> Bool, or failure: String) throws -> String {
    var text = ""
    while !done(text) {
        let d = pipe.fileHandleForReading.availableData
        if d.isEmpty { throw HarnessError(failure) }
        text += String(decoding: d, as: UTF8.self)
    }
    return text
}

/// Quits the app with Ctrl+Q on its window, as a person would, and expects a clean exit. The
/// keys go through XTEST (not sent to the window), so they are released after it closes; the
/// app's stderr is shown when it exits badly.
func quit(_ x: Xvfb, _ id: String, _ app: App) throws {
    _ = try x.xdotool("windowfocus", "--sync", id)
    _ = try x.xdotool("key", "ctrl+q")
    #expect(app.waitForExit(timeout: 10), "Ctrl+Q did not quit")
    #expect(app.process.terminationStatus == 0, "\(String(decoding: app.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
}

/// A running `meridian` window process.
final class App {
    let process: Process
    let stderr = Pipe()

    init(_ args: [String], env: [String: String], in directory: URL? = nil) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: meridianBinary)
        if let directory { process.currentDirectoryURL = directory }
        process.arguments = args
        // No session bus unless a test brings one: SDL would otherwise autolaunch a dbus-daemon
        // per X server (dbus-launch), which outlives the test and ties the app to it.
        let noBus = ["DBUS_SESSION_BUS_ADDRESS": "disabled:"]
        process.environment = ProcessInfo.processInfo.environment.merging(noBus) { $1 }.merging(env) { $1 }
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
    }

    /// The app's window on `x`; when none appears, what there is to know about why.
    func window(on x: Xvfb) throws -> String {
        do { return try x.waitForWindow("Meridian") } catch { throw whyNoWindow(x, error) }
    }

    /// What there is to know when the window did not appear: whether the app still runs
    /// (and what its threads wait in), what it said, and which windows the display has.
    func whyNoWindow(_ x: Xvfb, _ error: Error) -> HarnessError {
        var facts = ["\(error)"]
        if process.isRunning {
            let pid = process.processIdentifier
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            let waits = tasks.sorted().map { t -> String in
                let comm = (try? String(contentsOfFile: "/proc/\(pid)/task/\(t)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
                let wchan = (try? String(contentsOfFile: "/proc/\(pid)/task/\(t)/wchan", encoding: .utf8)) ?? "?"
                return "\(comm):\(wchan)"
            }
            facts.append("the app runs; its threads wait in: " + waits.joined(separator: ", "))
        } else {
            facts.append("the app exited with \(process.terminationStatus)")
        }
        readLog(deadline: 1) { _ in false }
        facts.append("it said: " + (log.isEmpty ? "nothing" : String(log.suffix(1500))))
        let windows = (try? x.xdotool("search", "--name", ".")) ?? ""
        let names = windows.split(separator: "\n").prefix(20).map { id in ((try? x.xdotool("getwindowname", String(id))) ?? "?") + " (\(id))" }
        facts.append("windows on \(x.display): " + (names.isEmpty ? "none" : names.joined(separator: ", ")))
        facts.append("the X server: " + x.health)
        return HarnessError(facts.joined(separator: "; "))
    }

    /// Waits for the process to end; false if it had to be killed.
    func waitForExit(timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { stop(process); return false }
        return true
    }

    var errorOutput: String { String(decoding: stderr.fileHandleForReading.availableData, as: UTF8.self) }

    /// What `readLog` has read of the app's stderr so far.
    private var logBytes: [UInt8] = []
    var log: String { String(decoding: logBytes, as: UTF8.self) }

    /// Reads the app's stderr as it writes it until `done` holds for all it has said; whether
    /// it came to that. The deadline (seconds) only guards against waiting forever.
    @discardableResult
    func readLog(deadline seconds: Double = 30, until done: (String) -> Bool) -> Bool {
        readAsWritten(stderr.fileHandleForReading.fileDescriptor, deadline: seconds, said: { log }, take: { logBytes += $0 }, until: done)
    }

    /// All the app wrote to stderr, once it has ended.
    var wholeLog: String {
        logBytes += stderr.fileHandleForReading.readDataToEndOfFile()
        return log
    }

    /// The MERIDIAN_FRAME_LOG lines read so far, as (what, app clock seconds): "present",
    /// "idle" (the loop sleeps until an event), "quit".
    var frameEvents: [(kind: Substring, time: Double)] {
        log.split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ")
            guard f.count >= 2, ["present", "idle", "quit"].contains(f[0]), let t = Double(f[1]) else { return nil }
            return (f[0], t)
        }
    }

    /// Waits until the loop sleeps and stays asleep: its last frame event is "idle" and it
    /// says nothing more for `quiet` seconds. False only if it never settles before the
    /// deadline (frames that go on and on); a slow machine can only make it settle later.
    func settles(quiet: Double = 1, deadline: Double = 30) -> Bool {
        let end = Date().addingTimeInterval(deadline)
        while Date() < end {
            let said = logBytes.count
            let spoke = readLog(deadline: quiet) { _ in logBytes.count > said }
            if !spoke, frameEvents.last?.kind == "idle" { return true }
        }
        return false
    }

    deinit { stop(process) }
}

/// The app's window on `x` with `args`, its state and data kept in `dir`: moved to the
/// screen's corner and given the keyboard.
func startWindow(_ x: Xvfb, dir: URL, _ args: [String], env: [String: String] = [:]) throws -> (App, String) {
    let app = try App(args, env: ["DISPLAY": x.display, "WAYLAND_DISPLAY": "", "XDG_STATE_HOME": dir.path,
                                  "XDG_DATA_HOME": dir.path].merging(env) { $1 })
    let id: String
    id = try app.window(on: x)
    try x.moveToOrigin(id)
    _ = try x.xdotool("windowfocus", "--sync", id)
    return (app, id)
}

/// Spherical Web Mercator, written out again here so tests check the app against an
/// independent formula rather than against its own code.
func worldPoint(lat: Double, lon: Double) -> (x: Double, y: Double) {
    let x = (lon + 180) / 360 * 256
    let s = sin(lat * .pi / 180)
    let y = (0.5 - log((1 + s) / (1 - s)) / (4 * .pi)) * 256
    return (x, y)
}

struct SavedView: Decodable {
    struct C: Decodable { var lat: Double; var lon: Double }
    var center: C
    var zoom: Double
    static func read(_ dir: URL) throws -> SavedView {
        try JSONDecoder().decode(SavedView.self, from: Data(contentsOf: dir.appendingPathComponent("meridian/view.json")))
    }
}

extension PNG {
    /// Any picture file ImageMagick reads, through the PPM it writes of it.
    init(_ path: String) throws {
        guard let convert = which("convert") else { throw HarnessError("imagemagick is not installed") }
        let dir = temporaryDirectory("png")
        defer { try? FileManager.default.removeItem(at: dir) }
        let ppm = dir.appendingPathComponent("picture.ppm").path
        let r = try run(convert, [path, "-depth", "8", "ppm:" + ppm])
        guard r.status == 0 else { throw HarnessError("not a picture: \(path) \(r.stderr)") }
        try self.init(ppmFile: ppm)
    }

    init(ppmFile path: String) throws {
        try self.init(ppm: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    }
}

/// Screenshots the window's corner of the screen until `done` holds (a loaded machine may
/// take a while to draw everything) or `timeout` passes; returns the last shot.
func screenshot(_ x: Xvfb, to path: String, size: String = "800x600", timeout: Double = 30, until done: (PNG) -> Bool) throws -> PNG {
    let deadline = Date().addingTimeInterval(timeout)
    // Each look a PPM (no compressing, and no converting to read it); the PNG for a person
    // to look at written once, of the last.
    let raw = path + ".ppm"
    defer { try? FileManager.default.removeItem(atPath: raw) }
    while true {
        let r = try run(which("import")!, ["-window", "root", "-crop", size + "+0+0", "-depth", "8", "ppm:" + raw], env: ["DISPLAY": x.display])
        #expect(r.status == 0, "\(r.stderr)")
        let png = try PNG(ppmFile: raw)
        if done(png) || Date() > deadline {
            let written = try run(which("convert")!, ["ppm:" + raw, path])
            #expect(written.status == 0, "\(written.stderr)")
            return png
        }
        Thread.sleep(forTimeInterval: 0.3)
    }
}

/// Right-clicks the map at `p` and picks the menu's item `n` (0: Drop a pin here, 1: Directions
/// from here, 2: Directions to here) once the menu is on screen — its white plate under the
/// item: the first frames after a right-click may not have its words yet, and a click before
/// the menu is drawn closes it.
func pickFromMenu(_ x: Xvfb, _ id: String, at p: (Int, Int), item n: Int, dir: URL) throws {
    _ = try x.xdotool("mousemove", "--window", id, "\(p.0)", "\(p.1)", "click", "3")
    let row = p.1 + 4 + 28 * n
    func shown(_ png: PNG) -> Bool {
        (p.0 + 2..<p.0 + 10).allSatisfy { x in (row + 2..<row + 8).allSatisfy { y in png.pixel(x, y) == (255, 255, 255) } }
    }
    let png = try screenshot(x, to: dir.appendingPathComponent("menu.png").path) { shown($0) }
    #expect(shown(png), "the right-click menu is shown")
    _ = try x.xdotool("mousemove", "--window", id, "\(p.0 + 40)", "\(row + 14)", "click", "1")
}

/// Waits, polling every `interval` seconds, until `ok` holds; throws naming `what` (and what
/// `detail` says of the state then) if it does not within `deadline` seconds. For state the
/// app keeps outside its stderr: files it saves, the cache it fills.
func waitUntil(_ what: String, deadline: Double = 30, interval: Double = 0.05, detail: () -> String = { "" },
               _ ok: () throws -> Bool) throws {
    let end = Date().addingTimeInterval(deadline)
    while try !ok() {
        if Date() > end { throw HarnessError("waited \(Int(deadline)) s for \(what) in vain. \(detail())") }
        Thread.sleep(forTimeInterval: interval) // poll
    }
}

extension App {
    /// How many frames the frame log (MERIDIAN_FRAME_LOG) read so far shows presented.
    var presents: Int { frameEvents.reduce(0) { $0 + ($1.kind == "present" ? 1 : 0) } }

    /// Reads what the app has written to stderr and not yet been read, without waiting.
    func readAvailable() {
        let fd = stderr.fileHandleForReading.fileDescriptor
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 0) > 0 else { return }
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { return }
            logBytes += chunk[0..<n]
        }
    }

    /// The frames presented so far, all the app has written read: a mark to wait past.
    var presentMark: Int {
        readAvailable()
        return presents
    }

    /// Waits until the app's stderr says what `done` looks for; throws naming `what`, with
    /// the end of what it said, if it does not within `deadline` seconds.
    func waitForLog(_ what: String, deadline: Double = 30, until done: (String) -> Bool) throws {
        guard readLog(deadline: deadline, until: done) else {
            throw HarnessError("waited \(Int(deadline)) s for the app to say \(what) in vain; it said: \(log.suffix(1500))")
        }
    }

    /// Waits until the app's stderr holds `text`.
    func waitForLog(_ text: String, deadline: Double = 30) throws {
        try waitForLog("“\(text)”", deadline: deadline) { $0.contains(text) }
    }

    /// Waits until the app has presented a frame after its first `mark` presents and its loop
    /// then settles (`settles`): what came before that frame is on screen and at rest. Needs
    /// the frame log (MERIDIAN_FRAME_LOG).
    func waitForRest(after mark: Int, _ what: String, deadline: Double = 30) throws {
        try waitForLog("a frame after \(what)", deadline: deadline) { _ in presents > mark }
        guard settles(deadline: deadline) else {
            throw HarnessError("the app did not come to rest after \(what): \(frameEvents.suffix(5))")
        }
    }

    /// Waits until the app has presented a frame after saying `text` on stderr, and its loop
    /// then settles.
    func waitForRest(afterSaying text: String, deadline: Double = 30) throws {
        try waitForLog("a frame after “\(text)”", deadline: deadline) { log in
            guard let r = log.range(of: text) else { return false }
            return log[r.upperBound...].contains("\npresent ")
        }
        guard settles(deadline: deadline) else {
            throw HarnessError("the app did not come to rest after “\(text)”: \(frameEvents.suffix(5))")
        }
    }

    /// Does `action` (keys, a click) and waits until the app has presented a frame after it
    /// and comes to rest: what the action brought about is drawn, any animation it started
    /// is over. Needs the frame log; the action must change the picture.
    func settle(after what: String, _ action: () throws -> Void) throws {
        let mark = presentMark
        try action()
        try waitForRest(after: mark, what)
    }

    /// Waits for the first frame and then for the loop to rest (tiles in, nothing moving):
    /// the window is ready for keys and for pictures of it. Needs the frame log.
    func waitUntilReady(deadline: Double = 30) throws {
        try waitForRest(after: 0, "the start", deadline: deadline)
    }
}

/// Reads what a process writes to `fd` as it writes it, handing each piece to `take`, until
/// `done` holds for all it has `said`; whether it came to that. (Closures, not an inout
/// buffer: `done` may read the same buffer.) The deadline (seconds) only guards against
/// waiting forever; a process that ends is asked once more.
func readAsWritten(_ fd: Int32, deadline seconds: Double, said: () -> String, take: ([UInt8]) -> Void,
                   until done: (String) -> Bool) -> Bool {
    let end = Date().addingTimeInterval(seconds)
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while !done(said()) {
        let left = end.timeIntervalSinceNow
        if left <= 0 { return false }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        if poll(&p, 1, Int32(min(left, 1) * 1000)) <= 0 { continue }
        let n = read(fd, &chunk, chunk.count)
        if n <= 0 { return done(said()) } // it has ended
        take(Array(chunk[0..<n]))
    }
    return true
}
