import Foundation
import Testing
import TestPictures

/// A street map in the window on a real X server: drawn with its street names, moved by a
/// drag, and dark where the desktop prefers dark (the settings portal, played by a stand-in
/// on a private session bus).
@Suite(.serialized)
struct StreetMapWindowTests {
    static let primary = (r: 0xFB, g: 0xE1, b: 0x9A)
    static let darkBackground = (r: 0x1F, g: 0x22, b: 0x27)

    func near(_ p: (r: Int, g: Int, b: Int), _ c: (r: Int, g: Int, b: Int), _ tol: Int = 6) -> Bool {
        abs(p.r - c.r) <= tol && abs(p.g - c.g) <= tol && abs(p.b - c.b) <= tol
    }

    func window(_ x: Xvfb, _ dir: URL, env: [String: String] = [:]) throws -> (App, String) {
        try startWindow(x, dir: dir, ["--size", "800x600", "--no-location", "--tiles", StreetMapRenderTests.mbtiles,
                                      "--center", StreetMapRenderTests.mannerheimintie, "--zoom", "17"], env: env)
    }

    @Test func aStreetMapIsDrawnAndFollowsADrag() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("street-window")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (app, id) = try window(x, dir)
        let shot = dir.appendingPathComponent("shot.png").path
        // The carriageway's node at the window's centre, in the primary road's colour, and the
        // street names' dark letters (they come a frame or more after the tiles).
        var png = try screenshot(x, to: shot) { near($0.pixel(400, 300), Self.primary) && $0.darkFraction(x: 0, y: 60, w: 800, h: 480, level: 120) > 0.002 }
        #expect(near(png.pixel(400, 300), Self.primary), "\(png.pixel(400, 300))")
        // Dark letters of street names somewhere on the map.
        #expect(png.darkFraction(x: 0, y: 60, w: 800, h: 480, level: 120) > 0.002)
        // Drag the map 120 points left: the node follows.
        _ = try x.xdotool("mousemove", "400", "300", "mousedown", "1")
        for step in 1...6 {
            _ = try x.xdotool("mousemove", "\(400 - 20 * step)", "300")
            Thread.sleep(forTimeInterval: 0.05) // gesture: a drag, 20 points each 50 ms (the app measures the pointer's speed)
        }
        Thread.sleep(forTimeInterval: 0.3) // gesture: held still, so the release is not a flick (speed over the last 100 ms)
        _ = try x.xdotool("mouseup", "1")
        png = try screenshot(x, to: shot) { near($0.pixel(280, 300), Self.primary) }
        #expect(near(png.pixel(280, 300), Self.primary), "\(png.pixel(280, 300))")
        try quit(x, id, app)
        let view = try SavedView.read(dir)
        #expect(view.center.lon > 24.9380395 && abs(view.zoom - 17) < 0.01)
    }

    /// Roads red at an opacity that grows from 0 to 1 between MapLibre's z15 and z16
    /// (Meridian's 16 and 17): only a tile styled at the very zoom shown has it right.
    static func fadingRoads(in dir: URL) throws -> String {
        let style = dir.appendingPathComponent("fading.json")
        try Data(##"""
            {"version": 8, "sources": {"omt": {"type": "vector"}}, "layers": [
              {"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
              {"id": "roads", "type": "line", "source": "omt", "source-layer": "transportation",
               "paint": {"line-color": "#ff0000", "line-width": 12, "line-opacity": ["interpolate", ["linear"], ["zoom"], 15, 0, 16, 1]}}]}
            """##.utf8).write(to: style)
        return style.path
    }

    /// A wheel notch out from z17 settles at z16.5: the tiles, first z17's shrunk, are then
    /// painted for 16.5 — the road at half its opacity, as `render` draws it there.
    @Test func aViewSettledBetweenZoomsIsStyledThere() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("street-window-fraction")
        defer { try? FileManager.default.removeItem(at: dir) }
        let style = try Self.fadingRoads(in: dir)
        let (app, id) = try startWindow(x, dir: dir, ["--size", "800x600", "--no-location", "--tiles", StreetMapRenderTests.mbtiles,
                                                       "--style", style, "--center", StreetMapRenderTests.mannerheimintie, "--zoom", "17"])
        let shot = dir.appendingPathComponent("shot.png").path
        let red = (r: 255, g: 0, b: 0), half = (r: 255, g: 128, b: 128)
        var png = try screenshot(x, to: shot, timeout: 15) { near($0.pixel(400, 300), red) }
        #expect(near(png.pixel(400, 300), red), "\(png.pixel(400, 300))")
        _ = try x.xdotool("mousemove", "400", "300", "click", "5")
        png = try screenshot(x, to: shot, timeout: 15) { near($0.pixel(400, 300), half, 10) }
        #expect(near(png.pixel(400, 300), half, 10), "\(png.pixel(400, 300))")
        try quit(x, id, app)
        #expect(abs(try SavedView.read(dir).zoom - 16.5) < 0.01)
        // `render` draws the same there.
        let out = dir.appendingPathComponent("render.png").path
        let r = try run(meridianBinary, ["render", "--tiles", StreetMapRenderTests.mbtiles, "--style", style, "--no-labels",
                                         "--center", StreetMapRenderTests.mannerheimintie, "--zoom", "16.5", "--size", "800x600", "--out", out],
                        env: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(near(try PNG(out).pixel(400, 300), half, 10))
    }

    /// The settings portal's stand-in says the desktop prefers dark (color-scheme 1).
    static let settingsPortal = #"""
    import dbus, dbus.service
    from dbus.mainloop.glib import DBusGMainLoop
    from gi.repository import GLib
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    name = dbus.service.BusName("org.freedesktop.portal.Desktop", bus)
    class Portal(dbus.service.Object):
        @dbus.service.method("org.freedesktop.portal.Settings", in_signature="ss", out_signature="v")
        def ReadOne(self, namespace, key):
            if (namespace, key) == ("org.freedesktop.appearance", "color-scheme"):
                return dbus.UInt32(1, variant_level=1)
            raise dbus.exceptions.DBusException("no such setting", name="org.freedesktop.portal.Error.NotFound")
    Portal(bus, "/org/freedesktop/portal/desktop")
    print("ready", flush=True)
    GLib.MainLoop().run()
    """#

    @Test func theDesktopsDarkSchemeDarkensTheStreetMap() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("street-dark-window")
        defer { try? FileManager.default.removeItem(at: dir) }
        let bus = try PortalTests.SessionBus()
        let script = dir.appendingPathComponent("settings.py")
        try Data(Self.settingsPortal.utf8).write(to: script)
        let portal = Process()
        portal.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        portal.arguments = [script.path]
        portal.environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address, "PATH": "/usr/bin:/bin"]
        let out = Pipe()
        portal.standardOutput = out
        try portal.run()
        defer { stop(portal) }
        _ = try readOutput(of: out, until: { $0.contains("ready") }, or: "the stand-in settings portal did not start")
        let (app, id) = try window(x, dir, env: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        let png = try screenshot(x, to: dir.appendingPathComponent("dark.png").path, timeout: 15) { $0.darkFraction(x: 0, y: 60, w: 800, h: 480, level: 110) > 0.5 }
        #expect(png.darkFraction(x: 0, y: 60, w: 800, h: 480, level: 110) > 0.5)
        try quit(x, id, app)
    }
}
