import CGio
import FoundationEssentials
import Glibc
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
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else { return .unavailable(take(&error)) }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        // The request's object path is known ahead (sender and token), so the answer is
        // listened for before the question is asked: it cannot be missed.
        let token = "meridian\(getpid())_\(UInt32.random(in: 0...UInt32.max))"
        let sender = String(String(cString: g_dbus_connection_get_unique_name(bus)).dropFirst().map { $0 == "." ? "_" : $0 })
        let requestPath = "\(objectPath)/request/\(sender)/\(token)"
        let answer = Answer()
        let box = Unmanaged.passRetained(answer)
        defer { box.release() }
        let subscription = g_dbus_connection_signal_subscribe(
            bus, destination, "org.freedesktop.portal.Request", "Response", requestPath, nil, G_DBUS_SIGNAL_FLAGS_NONE,
            { _, _, _, _, _, parameters, user in
                guard let parameters, let user else { return }
                let answer = Unmanaged<Answer>.fromOpaque(user).takeUnretainedValue()
                let code = g_variant_get_child_value(parameters, 0)
                answer.code = g_variant_get_uint32(code)
                g_variant_unref(code)
                let results = g_variant_get_child_value(parameters, 1)
                let stringArray = g_variant_type_new("as")
                defer { g_variant_type_free(stringArray) }
                if let uris = g_variant_lookup_value(results, "uris", stringArray) {
                    var count = 0
                    if let list = g_variant_get_strv(uris, &count) {
                        for i in 0..<count { if let s = list[i] { answer.uris.append(String(cString: s)) } }
                        g_free(UnsafeMutableRawPointer(mutating: list))
                    }
                    g_variant_unref(uris)
                }
                g_variant_unref(results)
            }, box.toOpaque(), nil)
        defer { g_dbus_connection_signal_unsubscribe(bus, subscription) }

        // GVariantTypes are made (and freed) here: a type pointing into a Swift string's
        // temporary C copy would outlive it.
        let replyType = g_variant_type_new("(o)")
        defer { g_variant_type_free(replyType) }
        let reply = g_dbus_connection_call_sync(bus, destination, objectPath, "org.freedesktop.portal.FileChooser", "OpenFile",
                                                arguments(title: title, token: token), replyType,
                                                G_DBUS_CALL_FLAGS_NONE, -1, nil, &error)
        guard let reply else { return .unavailable(take(&error)) }
        g_variant_unref(reply)
        while answer.code == nil { g_main_context_iteration(context, 1) }
        guard answer.code == 0 else { return .chosen([]) }
        return .chosen(answer.uris.compactMap(path(ofURI:)))
    }

    /// (parent_window, title, options): several files, filtered to what Meridian reads.
    private static func arguments(title: String, token: String) -> OpaquePointer {
        func tuple(_ items: [OpaquePointer?]) -> OpaquePointer {
            var items = items
            return g_variant_new_tuple(&items, gsize(items.count))
        }
        func array(_ type: String, _ items: [OpaquePointer?]) -> OpaquePointer {
            var items = items
            let t = g_variant_type_new(type)
            defer { g_variant_type_free(t) }
            return g_variant_new_array(t, &items, gsize(items.count))
        }
        func entry(_ key: String, _ value: OpaquePointer) -> OpaquePointer? {
            g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value))
        }
        let patterns = ["*.gpx", "*.kml", "*.geojson", "*.json", "*.csv", "*.tsv"]
        let tracks = tuple([g_variant_new_string("Tracks, routes and shapes"),
                            array("(us)", patterns.map { tuple([g_variant_new_uint32(0), g_variant_new_string($0)]) })])
        let all = tuple([g_variant_new_string("All files"), array("(us)", [tuple([g_variant_new_uint32(0), g_variant_new_string("*")])])])
        let options = array("{sv}", [
            entry("handle_token", g_variant_new_string(token)),
            entry("multiple", g_variant_new_boolean(1)),
            entry("filters", array("(sa(us))", [tracks, all])),
        ])
        return tuple([g_variant_new_string(""), g_variant_new_string(title), options])
    }

    /// A local path for a file:// URI (percent escapes decoded), nil for anything else.
    static func path(ofURI uri: String) -> String? {
        guard uri.hasPrefix("file://"), let file = g_file_new_for_uri(uri) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        guard let p = g_file_get_path(file) else { return nil }
        defer { g_free(p) }
        return String(cString: p)
    }

    /// The error's message, freeing it.
    private static func take(_ error: inout UnsafeMutablePointer<GError>?) -> String {
        guard let e = error else { return "unknown error" }
        defer { g_error_free(e); error = nil }
        return e.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }
}
