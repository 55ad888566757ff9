import CGio
import FoundationEssentials
import Glibc
import MapPosition
import Platform

/// Whether the desktop prefers dark: the settings portal's org.freedesktop.appearance
/// color-scheme (1 = prefer dark), read once at start. No portal, no session bus or any other
/// answer means light. The portal is never started for this (no auto-start), so a desktop
/// without one costs a failed call, not a wait.
enum DesktopColorScheme {
    static func prefersDark() -> Bool {
        var error: UnsafeMutablePointer<GError>?
        defer { GDBus.take(&error) }
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil
              || FileIO.exists("/run/user/\(getuid())/bus"),
              let bus = GDBus.sessionBus(&error) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        // ReadOne answers (v); the older Read, (v) holding another v: `child` unwraps both.
        for method in ["ReadOne", "Read"] {
            GDBus.take(&error)
            let key = GDBus.tuple([g_variant_new_string("org.freedesktop.appearance"), g_variant_new_string("color-scheme")])
            guard let reply = GDBus.call(bus, "org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop",
                                         "org.freedesktop.portal.Settings", method, key, timeout: 500,
                                         flags: G_DBUS_CALL_FLAGS_NO_AUTO_START, &error) else { continue }
            defer { g_variant_unref(reply) }
            return GDBus.child(reply, 0).flatMap(GDBus.uint32) == 1
        }
        return false
    }
}
