import Foundation
import Testing

/// Ctrl+O through the XDG desktop portal: a stand-in portal (python3-dbus) owns
/// org.freedesktop.portal.Desktop on a private session bus and answers OpenFile as the
/// desktop's chooser would, after a pause; the window opens what was chosen. Without a
/// portal, the window says how else to open files.
struct PortalTests {
    /// A private session bus (dbus-daemon), stopped with the test.
    final class SessionBus {
        let address: String
        private let process: Process
        init() throws {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: which("dbus-daemon") ?? "/usr/bin/dbus-daemon")
            p.arguments = ["--session", "--nofork", "--print-address=1"]
            let out = Pipe()
            p.standardOutput = out
            p.standardError = FileHandle.nullDevice
            try p.run()
            address = try readOutput(of: out, until: { $0.contains("\n") }, or: "dbus-daemon did not start")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            process = p
        }
        deinit { stop(process) }
    }

    /// The stand-in portal: answers OpenFile with `uris` (response `code`) after 0.3 s and
    /// writes what it was asked to `log`.
    static let portal = #"""
    import sys, dbus, dbus.service
    from dbus.mainloop.glib import DBusGMainLoop
    from gi.repository import GLib
    DBusGMainLoop(set_as_default=True)
    code, log, uris = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    bus = dbus.SessionBus()
    name = dbus.service.BusName("org.freedesktop.portal.Desktop", bus)
    class Request(dbus.service.Object):
        @dbus.service.signal("org.freedesktop.portal.Request", signature="ua{sv}")
        def Response(self, code, results): pass
    class Portal(dbus.service.Object):
        @dbus.service.method("org.freedesktop.portal.FileChooser", in_signature="ssa{sv}", out_signature="o", sender_keyword="sender")
        def OpenFile(self, parent, title, options, sender=None):
            path = "/org/freedesktop/portal/desktop/request/%s/%s" % (sender[1:].replace(".", "_"), options["handle_token"])
            with open(log, "a") as f:
                f.write("title=%s multiple=%s filters=%s\n" % (title, bool(options.get("multiple")), [str(n) for n, _ in options.get("filters", [])]))
            request = Request(bus, path)
            def answer():
                request.Response(dbus.UInt32(code), {"uris": dbus.Array(uris, signature="s")})
                return False
            GLib.timeout_add(300, answer)
            return dbus.ObjectPath(path)
    Portal(bus, "/org/freedesktop/portal/desktop")
    print("ready", flush=True)
    GLib.MainLoop().run()
    """#

    func startPortal(bus: SessionBus, dir: URL, code: Int, uris: [String]) throws -> Process {
        try Self.start(Self.portal, bus: bus, dir: dir, arguments: ["\(code)", dir.appendingPathComponent("portal.log").path] + uris)
    }

    /// Runs a stand-in portal `script` (written into `dir`) on `bus` until it says it is ready.
    static func start(_ script: String, bus: SessionBus, dir: URL, arguments: [String]) throws -> Process {
        let file = dir.appendingPathComponent("portal.py")
        try Data(script.utf8).write(to: file)
        let p = Process()
        // The system python3, whose dbus and gi modules are the Debian packages.
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = [file.path] + arguments
        p.environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address, "PATH": "/usr/bin:/bin"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        _ = try readOutput(of: out, until: { $0.contains("ready") }, or: "the stand-in portal did not start")
        return p
    }

    func window(_ x: Xvfb, dir: URL, bus: String) throws -> (App, String) {
        try startWindow(x, dir: dir, ["--size", "800x600", "--tiles", "debug", "--no-location", "--center", "0.75,0", "--zoom", "8",
                                      "--pins", dir.appendingPathComponent("pins.geojson").path],
                        env: ["DBUS_SESSION_BUS_ADDRESS": bus, "MERIDIAN_FRAME_LOG": "1"])
    }

    /// Quits the window and gives what it said on stderr.
    func quitSaying(_ x: Xvfb, _ id: String, _ app: App) throws -> String {
        try quit(x, id, app)
        return app.wholeLog
    }

    @Test func ctrlOOpensWhatThePortalsChooserReturns() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("portal")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A file whose name needs escaping in a URI.
        let gpx = dir.appendingPathComponent("up hill.gpx")
        try Data(#"<gpx version="1.1"><rte><rtept lat="0.3" lon="0"/><rtept lat="1.2" lon="0"/></rte></gpx>"#.utf8).write(to: gpx)
        let bus = try SessionBus()
        let portal = try startPortal(bus: bus, dir: dir, code: 0, uris: [gpx.absoluteString])
        defer { stop(portal) }
        let (app, id) = try window(x, dir: dir, bus: bus.address)
        _ = try x.xdotool("key", "ctrl+o")
        let shot = dir.appendingPathComponent("opened.png").path
        let png = try screenshot(x, to: shot) { p in let c = p.pixel(400, 300); return abs(c.r - 0xD6) < 40 && abs(c.g - 0x24) < 40 }
        let c = png.pixel(400, 300)
        #expect(abs(c.r - 0xD6) < 40 && abs(c.g - 0x24) < 40 && abs(c.b - 0x6E) < 40, "the chosen route is not drawn: \(c)")
        let log = try quitSaying(x, id, app)
        #expect(log.contains("opened up hill.gpx"), "\(log)")
        let asked = try String(contentsOf: dir.appendingPathComponent("portal.log"), encoding: .utf8)
        #expect(asked.contains("title=Open tracks multiple=True filters=['Tracks, routes and shapes', 'All files']"), "\(asked)")
    }

    @Test func aCancelledChooserOpensNothingAndNoPortalSaysHowElse() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("portal-none")
        defer { try? FileManager.default.removeItem(at: dir) }
        let bus = try SessionBus()
        // Cancelled (response 1): nothing opens, nothing is said.
        let portal = try startPortal(bus: bus, dir: dir, code: 1, uris: [])
        let (app, id) = try window(x, dir: dir, bus: bus.address)
        _ = try x.xdotool("key", "ctrl+o")
        // The chooser's answer in (until then a second Ctrl+O is not asked).
        try app.waitForLog("chooser: 0 chosen")
        stop(portal)
        // Then no portal on the bus at all: the notice says how to open files.
        _ = try x.xdotool("key", "ctrl+o")
        try app.waitForLog("To open tracks, drop")
        let log = try quitSaying(x, id, app)
        #expect(!log.contains("opened"), "\(log)")
        #expect(log.contains("no file chooser:") && log.contains("To open tracks, drop"), "\(log)")
        #expect(try String(contentsOf: dir.appendingPathComponent("portal.log"), encoding: .utf8).contains("title=Open tracks"))
    }
}
