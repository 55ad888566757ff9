import CGio
import FoundationEssentials
import Platform

/// The few GDBus and GVariant calls Meridian makes (GeoClue here; the desktop portal's file
/// chooser and settings in the app), with Swift types and the reference counting in one place.
/// Variants handed out are owned by the caller (unref them); variants handed in as arguments
/// are floating and taken by the call. `package`: for this package's code, not the library's API.
package enum GDBus {
    /// The system bus (DBUS_SYSTEM_BUS_ADDRESS where set, as tests do), or nil with `error` set.
    package static func systemBus(_ error: inout UnsafeMutablePointer<GError>?) -> OpaquePointer? {
        g_bus_get_sync(G_BUS_TYPE_SYSTEM, nil, &error)
    }

    /// The session bus (DBUS_SESSION_BUS_ADDRESS where set), or nil with `error` set.
    package static func sessionBus(_ error: inout UnsafeMutablePointer<GError>?) -> OpaquePointer? {
        g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error)
    }

    /// A private connection to the message bus at `address`, or nil with `error` set.
    static func connect(_ address: String, _ error: inout UnsafeMutablePointer<GError>?) -> OpaquePointer? {
        let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        return g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error)
    }

    /// A synchronous method call; the reply tuple, or nil with `error` set.
    package static func call(_ bus: OpaquePointer, _ destination: String, _ path: String, _ interface: String, _ method: String,
                             _ arguments: OpaquePointer?, timeout milliseconds: Int32, flags: GDBusCallFlags = G_DBUS_CALL_FLAGS_NONE,
                             _ error: inout UnsafeMutablePointer<GError>?) -> OpaquePointer? {
        g_dbus_connection_call_sync(bus, destination, path, interface, method, arguments, nil,
                                    flags, milliseconds, nil, &error)
    }

    /// Calls `handler` with the parameters of each matching signal (borrowed: not to be
    /// unreffed), on the thread whose default main context is current now. The handler is
    /// freed when GDBus is done with it, after `unsubscribe`.
    package static func subscribe(_ bus: OpaquePointer, sender: String, interface: String, member: String, path: String,
                                  arg0: String? = nil, _ handler: @escaping (OpaquePointer) -> Void) -> UInt32 {
        let box = Unmanaged.passRetained(Handler(handler)).toOpaque()
        return g_dbus_connection_signal_subscribe(
            bus, sender, interface, member, path, arg0, G_DBUS_SIGNAL_FLAGS_NONE,
            { _, _, _, _, _, parameters, user in
                guard let parameters, let user else { return }
                Unmanaged<Handler>.fromOpaque(user).takeUnretainedValue().call(parameters)
            }, box, { user in if let user { Unmanaged<Handler>.fromOpaque(user).release() } })
    }

    package static func unsubscribe(_ bus: OpaquePointer, _ subscription: UInt32) {
        g_dbus_connection_signal_unsubscribe(bus, subscription)
    }

    private final class Handler {
        let call: (OpaquePointer) -> Void
        init(_ call: @escaping (OpaquePointer) -> Void) { self.call = call }
    }

    package static func tuple(_ items: [OpaquePointer?]) -> OpaquePointer {
        var items = items
        return g_variant_new_tuple(&items, gsize(items.count))
    }

    /// An array of `elementType` ("(us)", "{sv}", …) holding `items`.
    package static func array(_ elementType: String, _ items: [OpaquePointer?]) -> OpaquePointer {
        var items = items
        // The type is made and freed here: one pointing into a Swift string's temporary C
        // copy would outlive it.
        let type = g_variant_type_new(elementType)
        defer { g_variant_type_free(type) }
        return g_variant_new_array(type, &items, gsize(items.count))
    }

    /// One `{sv}` entry of an options dictionary.
    package static func entry(_ key: String, _ value: OpaquePointer) -> OpaquePointer {
        g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value))
    }

    /// Child `index` of a container, unwrapped of any variants around it (the settings
    /// portal's older Read nests two), owned by the caller.
    package static func child(_ container: OpaquePointer, _ index: Int) -> OpaquePointer? {
        guard g_variant_is_container(container) != 0, index < g_variant_n_children(container) else { return nil }
        var c = g_variant_get_child_value(container, gsize(index))
        while let v = c, g_variant_classify(v) == G_VARIANT_CLASS_VARIANT {
            c = g_variant_get_variant(v)
            g_variant_unref(v)
        }
        return c
    }

    /// A string or object path (and unrefs `v`).
    package static func string(_ v: OpaquePointer) -> String? {
        defer { g_variant_unref(v) }
        let kind = g_variant_classify(v)
        guard kind == G_VARIANT_CLASS_STRING || kind == G_VARIANT_CLASS_OBJECT_PATH else { return nil }
        return String(cString: g_variant_get_string(v, nil))
    }

    /// A boolean (and unrefs `v`).
    package static func bool(_ v: OpaquePointer) -> Bool? {
        defer { g_variant_unref(v) }
        return g_variant_classify(v) == G_VARIANT_CLASS_BOOLEAN ? g_variant_get_boolean(v) != 0 : nil
    }

    /// A uint32 (and unrefs `v`).
    package static func uint32(_ v: OpaquePointer) -> UInt32? {
        defer { g_variant_unref(v) }
        return g_variant_classify(v) == G_VARIANT_CLASS_UINT32 ? g_variant_get_uint32(v) : nil
    }

    /// The strings of an `as` (and unrefs `v`).
    package static func strings(_ v: OpaquePointer) -> [String] {
        defer { g_variant_unref(v) }
        guard g_variant_classify(v) == G_VARIANT_CLASS_ARRAY else { return [] }
        return (0..<Int(g_variant_n_children(v))).compactMap { i in
            g_variant_get_child_value(v, gsize(i)).flatMap(string)
        }
    }

    /// A double from an a{sv} dictionary, nil when absent or of another type.
    static func double(_ dictionary: OpaquePointer, _ key: String) -> Double? {
        guard let v = lookup(dictionary, key) else { return nil }
        defer { g_variant_unref(v) }
        return g_variant_classify(v) == G_VARIANT_CLASS_DOUBLE ? g_variant_get_double(v) : nil
    }

    /// A (tt) seconds-and-microseconds timestamp from an a{sv} dictionary, as seconds since 1970.
    static func timestamp(_ dictionary: OpaquePointer, _ key: String) -> Double? {
        guard let v = lookup(dictionary, key) else { return nil }
        defer { g_variant_unref(v) }
        guard g_variant_classify(v) == G_VARIANT_CLASS_TUPLE, g_variant_n_children(v) == 2 else { return nil }
        var parts: [UInt] = []
        for i in 0..<2 {
            guard let c = g_variant_get_child_value(v, gsize(i)) else { return nil }
            defer { g_variant_unref(c) }
            guard g_variant_classify(c) == G_VARIANT_CLASS_UINT64 else { return nil }
            parts.append(g_variant_get_uint64(c))
        }
        let seconds = Double(parts[0]) + Double(parts[1] % 1_000_000) / 1e6
        return seconds > 0 && seconds < 1e11 ? seconds : nil
    }

    /// The value under `key` of an a{sv} (owned by the caller).
    package static func lookup(_ dictionary: OpaquePointer, _ key: String) -> OpaquePointer? {
        guard String(cString: g_variant_get_type_string(dictionary)) == "a{sv}" else { return nil }
        return g_variant_lookup_value(dictionary, key, nil)
    }

    /// The error's message, freeing it.
    @discardableResult
    package static func take(_ error: inout UnsafeMutablePointer<GError>?) -> String {
        guard let e = error else { return tr("unknown error") }
        defer { g_error_free(e); error = nil }
        return e.pointee.message.map { String(cString: $0) } ?? tr("unknown error")
    }
}
