import CGio
import FoundationEssentials
import Glibc
import MapPosition
import Platform

/// One question to the XDG desktop portal (org.freedesktop.portal.Desktop on the session bus)
/// and its answer: the call returns a Request object at once, the answer comes later as that
/// Request's Response signal. Run on a thread of its own (it waits for a person), with its own
/// GLib main context, so nothing else waits with it.
enum PortalRequest {
    /// The response code (0 done, 1 cancelled, 2 failed) and the results (a{sv}, owned: the
    /// caller unrefs it).
    struct Answer {
        var code: UInt32
        var results: OpaquePointer?
    }

    static let destination = "org.freedesktop.portal.Desktop"
    static let objectPath = "/org/freedesktop/portal/desktop"

    /// Calls `interface.method` with what `arguments` makes of the request's token, passing
    /// `fd` when given (as handle 0), and waits for the answer. Fails with the reason when
    /// there is no bus or no portal.
    static func ask(_ interface: String, _ method: String, fd: Int32? = nil, arguments: (String) -> OpaquePointer) -> Result<Answer, PortalUnavailable> {
        let context = g_main_context_new()
        g_main_context_push_thread_default(context)
        defer {
            g_main_context_pop_thread_default(context)
            g_main_context_unref(context)
        }
        var error: UnsafeMutablePointer<GError>?
        guard let bus = GDBus.sessionBus(&error) else { return .failure(PortalUnavailable(reason: GDBus.take(&error))) }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        // The request's object path is known ahead (sender and token), so the answer is
        // listened for before the question is asked: it cannot be missed.
        let token = "meridian\(getpid())_\(UInt32.random(in: 0...UInt32.max))"
        let sender = String(String(cString: g_dbus_connection_get_unique_name(bus)).dropFirst().map { $0 == "." ? "_" : $0 })
        final class Box { var answer: Answer? }
        let box = Box()
        let subscription = GDBus.subscribe(bus, sender: destination, interface: "org.freedesktop.portal.Request", member: "Response",
                                           path: "\(objectPath)/request/\(sender)/\(token)") { parameters in
            // (ua{sv})
            box.answer = Answer(code: GDBus.child(parameters, 0).flatMap(GDBus.uint32) ?? 2, results: GDBus.child(parameters, 1))
        }
        defer { GDBus.unsubscribe(bus, subscription) }
        let reply: OpaquePointer?
        if let fd {
            let fds = g_unix_fd_list_new_from_array([fd], 1)
            defer { g_object_unref(UnsafeMutableRawPointer(fds)) }
            reply = g_dbus_connection_call_with_unix_fd_list_sync(bus, destination, objectPath, interface, method, arguments(token), nil,
                                                                  G_DBUS_CALL_FLAGS_NONE, -1, fds, nil, nil, &error)
        } else {
            reply = GDBus.call(bus, destination, objectPath, interface, method, arguments(token), timeout: -1, &error)
        }
        guard let reply else { return .failure(PortalUnavailable(reason: GDBus.take(&error))) }
        g_variant_unref(reply)
        while box.answer == nil { g_main_context_iteration(context, 1) }
        return .success(box.answer!)
    }
}

/// No portal answered: why (no session bus, no xdg-desktop-portal, no such interface).
struct PortalUnavailable: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
