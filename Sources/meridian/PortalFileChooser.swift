import CGio
import FoundationEssentials
import Glibc
import MapPosition
import Platform

/// Ctrl+O: the desktop's own file chooser, through the XDG desktop portal
/// (org.freedesktop.portal.FileChooser.OpenFile on the session bus, GDBus). It runs on a
/// thread of its own with its own GLib main context, so the frame loop never waits for the
/// person choosing. Where there is no portal (no session bus, no xdg-desktop-portal), it
/// says so and the window tells how else to open files.
enum PortalFileChooser {
    enum Outcome: Sendable {
        /// The files chosen (none when the chooser was cancelled).
        case chosen([String])
        /// No portal answered: why.
        case unavailable(String)
    }

    /// Asks for files to open; `done` is called once, on the chooser's thread.
    static func choose(title: String, done: @escaping @Sendable (Outcome) -> Void) {
        startThread(name: "file-chooser") { done(run(title: title)) }
    }

    private static let destination = "org.freedesktop.portal.Desktop"
    private static let objectPath = "/org/freedesktop/portal/desktop"

    /// The answer to a request, filled in by the Response signal's handler.
    private final class Answer {
        var code: UInt32?
        var uris: [String] = []
    }

    private static func run(title: String) -> Outcome {
        let context = g_main_context_new()
        g_main_context_push_thread_default(context)
        defer {
            g_main_context_pop_thread_default(context)
            g_main_context_unref(context)
        }
        var error: UnsafeMutablePointer<GError>?
        guard let bus = GDBus.sessionBus(&error) else { return .unavailable(GDBus.take(&error)) }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        // The request's object path is known ahead (sender and token), so the answer is
        // listened for before the question is asked: it cannot be missed.
        let token = "meridian\(getpid())_\(UInt32.random(in: 0...UInt32.max))"
        let sender = String(String(cString: g_dbus_connection_get_unique_name(bus)).dropFirst().map { $0 == "." ? "_" : $0 })
        let answer = Answer()
        let subscription = GDBus.subscribe(bus, sender: destination, interface: "org.freedesktop.portal.Request", member: "Response",
                                           path: "\(objectPath)/request/\(sender)/\(token)") { parameters in
            // (ua{sv}): the response code (0 chosen, 1 cancelled, 2 failed) and the results.
            answer.code = GDBus.child(parameters, 0).flatMap(GDBus.uint32) ?? 2
            if let results = GDBus.child(parameters, 1) {
                answer.uris = GDBus.lookup(results, "uris").map(GDBus.strings) ?? []
                g_variant_unref(results)
            }
        }
        defer { GDBus.unsubscribe(bus, subscription) }

        guard let reply = GDBus.call(bus, destination, objectPath, "org.freedesktop.portal.FileChooser", "OpenFile",
                                     arguments(title: title, token: token), timeout: -1, &error) else {
            return .unavailable(GDBus.take(&error))
        }
        g_variant_unref(reply)
        while answer.code == nil { g_main_context_iteration(context, 1) }
        guard answer.code == 0 else { return .chosen([]) }
        return .chosen(answer.uris.compactMap(path(ofURI:)))
    }

    /// (parent_window, title, options): several files, filtered to what Meridian reads.
    private static func arguments(title: String, token: String) -> OpaquePointer {
        let patterns = ["*.gpx", "*.kml", "*.geojson", "*.json", "*.csv", "*.tsv"]
        func glob(_ pattern: String) -> OpaquePointer { GDBus.tuple([g_variant_new_uint32(0), g_variant_new_string(pattern)]) }
        let tracks = GDBus.tuple([g_variant_new_string("Tracks, routes and shapes"), GDBus.array("(us)", patterns.map(glob))])
        let all = GDBus.tuple([g_variant_new_string("All files"), GDBus.array("(us)", [glob("*")])])
        let options = GDBus.array("{sv}", [
            GDBus.entry("handle_token", g_variant_new_string(token)),
            GDBus.entry("multiple", g_variant_new_boolean(1)),
            GDBus.entry("filters", GDBus.array("(sa(us))", [tracks, all])),
        ])
        return GDBus.tuple([g_variant_new_string(""), g_variant_new_string(title), options])
    }

    /// A local path for a file:// URI (percent escapes decoded), nil for anything else.
    static func path(ofURI uri: String) -> String? {
        guard uri.hasPrefix("file://"), let file = g_file_new_for_uri(uri) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        guard let p = g_file_get_path(file) else { return nil }
        defer { g_free(p) }
        return String(cString: p)
    }
}
