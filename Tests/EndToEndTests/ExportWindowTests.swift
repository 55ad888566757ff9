import Foundation
import Testing
import TestPictures

/// Ctrl+E and Ctrl+P in the real window, through a stand-in desktop portal on a private
/// session bus (as PortalTests): SaveFile answers with a path, Print receives the page as a
/// file descriptor; with no print service the page is offered as a PDF instead.
@Suite(.serialized) struct ExportWindowTests {
    /// FileChooser.SaveFile answers with `save` (a URI); Print.PreparePrint and Print accept
    /// (and Print copies what its descriptor holds to `printed`) unless `noprint` is given.
    static let portal = #"""
    import os, sys, dbus, dbus.service
    from dbus.mainloop.glib import DBusGMainLoop
    from gi.repository import GLib
    DBusGMainLoop(set_as_default=True)
    log, save, printed, mode = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    bus = dbus.SessionBus()
    name = dbus.service.BusName("org.freedesktop.portal.Desktop", bus)
    class Request(dbus.service.Object):
        @dbus.service.signal("org.freedesktop.portal.Request", signature="ua{sv}")
        def Response(self, code, results): pass
    def answer(sender, token, results):
        path = "/org/freedesktop/portal/desktop/request/%s/%s" % (sender[1:].replace(".", "_"), token)
        request = Request(bus, path)
        def send():
            request.Response(dbus.UInt32(0), results)
            return False
        GLib.timeout_add(200, send)
        return dbus.ObjectPath(path)
    def note(text):
        with open(log, "a") as f: f.write(text + "\n")
    class Chooser(dbus.service.Object):
        @dbus.service.method("org.freedesktop.portal.FileChooser", in_signature="ssa{sv}", out_signature="o", sender_keyword="sender")
        def SaveFile(self, parent, title, options, sender=None):
            note("SaveFile title=%s name=%s filters=%s" % (title, options.get("current_name"), [str(n) for n, _ in options.get("filters", [])]))
            return answer(sender, options["handle_token"], {"uris": dbus.Array([save], signature="s")})
    class Printer(dbus.service.Object):
        @dbus.service.method("org.freedesktop.portal.Print", in_signature="ssa{sv}a{sv}a{sv}", out_signature="o", sender_keyword="sender")
        def PreparePrint(self, parent, title, settings, setup, options, sender=None):
            note("PreparePrint title=%s" % title)
            return answer(sender, options["handle_token"], {"token": dbus.UInt32(7), "settings": dbus.Dictionary({}, signature="sv"), "page-setup": dbus.Dictionary({}, signature="sv")})
        @dbus.service.method("org.freedesktop.portal.Print", in_signature="ssha{sv}", out_signature="o", sender_keyword="sender")
        def Print(self, parent, title, fd, options, sender=None):
            with os.fdopen(fd.take(), "rb") as f, open(printed, "wb") as out: out.write(f.read())
            note("Print token=%d" % options.get("token", 0))
            return answer(sender, options["handle_token"], {})
    if mode == "noprint":
        class Both(Chooser): pass
        Both(bus, "/org/freedesktop/portal/desktop")
    else:
        class Both(Chooser, Printer): pass
        Both(bus, "/org/freedesktop/portal/desktop")
    print("ready", flush=True)
    GLib.MainLoop().run()
    """#

    func startPortal(bus: PortalTests.SessionBus, dir: URL, save: String, mode: String) throws -> Process {
        try PortalTests.start(Self.portal, bus: bus, dir: dir,
                              arguments: [dir.appendingPathComponent("portal.log").path, save, dir.appendingPathComponent("printed.pdf").path, mode])
    }

    func pageSize(_ pdf: String) throws -> (Double, Double) {
        guard let pdfinfo = which("pdfinfo") else { throw HarnessError("pdfinfo is not installed") }
        let line = try run(pdfinfo, [pdf]).stdout.split(separator: "\n").first { $0.hasPrefix("Page size:") } ?? ""
        let n = line.split(separator: " ").compactMap { Double($0) }
        guard n.count >= 2 else { throw HarnessError("no page size in \(pdf)") }
        return (n[0], n[1])
    }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    @Test func ctrlESavesTheViewWhereTheChooserSays() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("export")
        defer { try? FileManager.default.removeItem(at: dir) }
        let bus = try PortalTests.SessionBus()
        let out = dir.appendingPathComponent("view.pdf")
        let portal = try startPortal(bus: bus, dir: dir, save: out.absoluteString, mode: "print")
        defer { stop(portal) }
        let (app, id) = try startWindow(x, dir: dir, ["--size", "800x600", "--no-location", "--center", "48.85,2.35", "--zoom", "5"],
                                        env: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        _ = try x.xdotool("key", "ctrl+e")
        #expect(app.readLog(deadline: 60) { $0.contains("Saved the map as \(out.path)") }, "\(app.log)")
        let (w, h) = try pageSize(out.path)
        #expect(abs(w - 800) < 0.5 && abs(h - 600) < 0.5, "\(w)×\(h)")
        // The page is the map, in vectors and text: Paris is named on it, no button is.
        let text = try run(which("pdftotext") ?? "/usr/bin/pdftotext", [out.path, "-"]).stdout
        #expect(text.contains("Paris") && !text.contains("Search"), "\(text.prefix(300))")
        // Ctrl+P: the A4 sheet (landscape, as the window) went to the print dialog's Print.
        _ = try x.xdotool("key", "ctrl+p")
        #expect(app.readLog(deadline: 60) { $0.contains("The map went to the printer") }, "\(app.log)")
        let printed = dir.appendingPathComponent("printed.pdf").path
        let (pw, ph) = try pageSize(printed)
        #expect(abs(pw - 841.89) < 0.5 && abs(ph - 595.28) < 0.5, "\(pw)×\(ph)")
        try quit(x, id, app)
        let asked = try String(contentsOf: dir.appendingPathComponent("portal.log"), encoding: .utf8)
        #expect(asked.contains("SaveFile title=Export the map name=map.pdf filters=['PDF document', 'SVG drawing', 'PNG picture']"), "\(asked)")
        #expect(asked.contains("PreparePrint title=Map") && asked.contains("Print token=7"), "\(asked)")
    }

    @Test func withNoPrintServiceThePageIsOfferedAsAPDF() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("export-noprint")
        defer { try? FileManager.default.removeItem(at: dir) }
        let bus = try PortalTests.SessionBus()
        let out = dir.appendingPathComponent("sheet.pdf")
        let portal = try startPortal(bus: bus, dir: dir, save: out.absoluteString, mode: "noprint")
        defer { stop(portal) }
        let (app, id) = try startWindow(x, dir: dir, ["--size", "600x800", "--no-location", "--center", "48.85,2.35", "--zoom", "5"],
                                        env: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        _ = try x.xdotool("key", "ctrl+p")
        #expect(app.readLog(deadline: 60) { $0.contains("Saved the map as \(out.path)") }, "\(app.log)")
        // A4 portrait (the window is tall), with its stated scale.
        let (w, h) = try pageSize(out.path)
        #expect(abs(w - 595.28) < 0.5 && abs(h - 841.89) < 0.5, "\(w)×\(h)")
        #expect(try run(which("pdftotext") ?? "/usr/bin/pdftotext", [out.path, "-"]).stdout.contains("Scale 1:"))
        try quit(x, id, app)
        #expect(app.log.contains("no print service"), "\(app.log)")
    }
}
