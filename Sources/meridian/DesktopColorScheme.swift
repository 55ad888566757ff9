import CGio
import FoundationEssentials
import Glibc
import Platform

/// Whether the desktop prefers dark: the settings portal's org.freedesktop.appearance
/// color-scheme (1 = prefer dark), read once at start. No portal, no session bus or any other
/// answer means light. The portal is never started for this (no auto-start), so a desktop
/// without one costs a failed call, not a wait.
enum DesktopColorScheme {
    static func prefersDark() -> Bool {
        var error: UnsafeMutablePointer<GError>?
        defer { if error != nil { g_error_free(error) } }
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil
              || FileIO.exists("/run/user/\(getuid())/bus"),
              let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        // ReadOne answers (v); the older Read, (v) holding another v.
        for method in ["ReadOne", "Read"] {
            if error != nil { g_error_free(error); error = nil }
            var items: [OpaquePointer?] = [g_variant_new_string("org.freedesktop.appearance"), g_variant_new_string("color-scheme")]
            guard let reply = g_dbus_connection_call_sync(bus, "org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop",
                                                          "org.freedesktop.portal.Settings", method, g_variant_new_tuple(&items, 2),
                                                          nil, G_DBUS_CALL_FLAGS_NO_AUTO_START, 500, nil, &error) else { continue }
            defer { g_variant_unref(reply) }
            func type(_ v: OpaquePointer) -> String { String(cString: g_variant_get_type_string(v)) }
            var value = g_variant_get_child_value(reply, 0)
            while let v = value, type(v) == "v" {
                value = g_variant_get_variant(v)
                g_variant_unref(v)
            }
            guard let v = value else { return false }
            defer { g_variant_unref(v) }
            return type(v) == "u" && g_variant_get_uint32(v) == 1
        }
        return false
    }
}
