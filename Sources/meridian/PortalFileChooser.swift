import CGio
import FoundationEssentials
import Glibc
import MapPosition
import Platform

/// Ctrl+O and Ctrl+E: the desktop's own file chooser, through the XDG desktop portal
/// (org.freedesktop.portal.FileChooser.OpenFile and SaveFile on the session bus, GDBus). It runs on a
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
        startThread(name: "file-chooser") { done(run(title: title, method: "OpenFile") { openArguments(title: title, token: $0) }) }
    }

    /// Asks where to save a file, suggesting `name`; `filters`: (what, glob) pairs, the first
    /// chosen. `done` hears the one path chosen (none when cancelled), on the chooser's thread.
    static func save(title: String, name: String, filters: [(String, String)], done: @escaping @Sendable (Outcome) -> Void) {
        startThread(name: "file-chooser") {
            done(run(title: title, method: "SaveFile") { saveArguments(title: title, name: name, filters: filters, token: $0) })
        }
    }

    private static func run(title: String, method: String, arguments: (String) -> OpaquePointer) -> Outcome {
        switch PortalRequest.ask("org.freedesktop.portal.FileChooser", method, arguments: arguments) {
        case let .failure(e): return .unavailable(e.reason)
        case let .success(answer):
            defer { if let r = answer.results { g_variant_unref(r) } }
            guard answer.code == 0, let results = answer.results else { return .chosen([]) }
            let uris = GDBus.lookup(results, "uris").map(GDBus.strings) ?? []
            return .chosen(uris.compactMap(path(ofURI:)))
        }
    }

    /// (parent_window, title, options): several files, filtered to what Meridian reads.
    private static func openArguments(title: String, token: String) -> OpaquePointer {
        let patterns = ["*.gpx", "*.kml", "*.geojson", "*.json", "*.csv", "*.tsv", "*.fit", "*.FIT", "*.tcx", "*.TCX"]
        func glob(_ pattern: String) -> OpaquePointer { GDBus.tuple([g_variant_new_uint32(0), g_variant_new_string(pattern)]) }
        // TRANSLATORS: a filter in the file chooser: the files Meridian opens (GPX, KML, GeoJSON, CSV).
        let tracks = GDBus.tuple([g_variant_new_string(tr("Tracks, routes and shapes")), GDBus.array("(us)", patterns.map(glob))])
        // TRANSLATORS: a filter in the file chooser.
        let all = GDBus.tuple([g_variant_new_string(tr("All files")), GDBus.array("(us)", [glob("*")])])
        let options = GDBus.array("{sv}", [
            GDBus.entry("handle_token", g_variant_new_string(token)),
            GDBus.entry("multiple", g_variant_new_boolean(1)),
            GDBus.entry("filters", GDBus.array("(sa(us))", [tracks, all])),
        ])
        return GDBus.tuple([g_variant_new_string(""), g_variant_new_string(title), options])
    }

    /// (parent_window, title, options): a suggested name, and the formats as filters.
    private static func saveArguments(title: String, name: String, filters: [(String, String)], token: String) -> OpaquePointer {
        func filter(_ f: (String, String)) -> OpaquePointer {
            GDBus.tuple([g_variant_new_string(f.0), GDBus.array("(us)", [GDBus.tuple([g_variant_new_uint32(0), g_variant_new_string(f.1)])])])
        }
        var entries = [
            GDBus.entry("handle_token", g_variant_new_string(token)),
            GDBus.entry("current_name", g_variant_new_string(name)),
        ]
        if !filters.isEmpty { entries.append(GDBus.entry("filters", GDBus.array("(sa(us))", filters.map(filter)))) }
        return GDBus.tuple([g_variant_new_string(""), g_variant_new_string(title), GDBus.array("{sv}", entries)])
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
