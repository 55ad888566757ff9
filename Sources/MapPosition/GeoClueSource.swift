import CGio
import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import Platform

/// The desktop's location service, GeoClue2, over the system D-Bus (GDBus): the manager's
/// GetClient, the client's DesktopId and accuracy level set, Start, then a fix read from each
/// LocationUpdated's new Location object. Runs a GLib main context on a thread of its own.
/// A missing service or a refusal (no agent allowed the app) is said once, and the source ends.
public final class GeoClueSource: PositionSource, @unchecked Sendable {
    public let desktopID: String
    /// A bus address to use instead of the system bus (tests pass a private bus's).
    public let busAddress: String?
    private let thread = SourceThread()
    private let context: OpaquePointer

    public var name: String { "GeoClue" }
    /// GeoClue tells of a new location only when the device moved: silence is not staleness.
    public var staleAfter: Double? { nil }

    static let service = "org.freedesktop.GeoClue2"
    static let managerPath = "/org/freedesktop/GeoClue2/Manager"
    static let clientInterface = "org.freedesktop.GeoClue2.Client"
    static let locationInterface = "org.freedesktop.GeoClue2.Location"
    /// GClueAccuracyLevel EXACT: what a map showing "you are here" needs.
    static let exactAccuracy: UInt32 = 8

    public init(desktopID: String, busAddress: String? = nil) {
        self.desktopID = desktopID
        self.busAddress = busAddress
        context = g_main_context_new()
    }

    deinit {
        stop()
        g_main_context_unref(context)
    }

    /// Whether GeoClue is running or can be started on the system bus (for `auto`): quick,
    /// and false where there is no system bus at all.
    public static func isAvailable() -> Bool {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = GDBus.systemBus(&error) else { GDBus.take(&error); return false }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        let owned = GDBus.call(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                               GDBus.tuple([g_variant_new_string(service)]), timeout: 300, &error)
        guard let owned else { GDBus.take(&error); return false }
        let running = GDBus.child(owned, 0).flatMap(GDBus.bool) == true
        g_variant_unref(owned)
        if running { return true }
        let names = GDBus.call(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListActivatableNames",
                               nil, timeout: 300, &error)
        guard let names else { GDBus.take(&error); return false }
        defer { g_variant_unref(names) }
        return GDBus.child(names, 0).map(GDBus.strings)?.contains(service) ?? false
    }

    public func start(_ deliver: @escaping @Sendable (PositionEvent) -> Void) {
        thread.start(name: "geoclue") { [self] _ in run(deliver) }
    }

    public func stop() {
        let context = context
        thread.stop(waking: { g_main_context_wakeup(context) })
    }

    /// What the signal handlers share with the loop: the bus to read a new location from,
    /// where fixes go, and whether GeoClue left the bus. A malformed location is said once.
    private final class Listener {
        let bus: OpaquePointer
        let deliver: @Sendable (PositionEvent) -> Void
        var toldBad = false
        var vanished = false
        init(bus: OpaquePointer, deliver: @escaping @Sendable (PositionEvent) -> Void) {
            self.bus = bus
            self.deliver = deliver
        }
    }

    private enum Outcome {
        case stopped
        /// GeoClue left the bus (it crashed or was restarted): start again.
        case vanished
        /// It is not there, or refused: said once, and the source ends.
        case failed(String)
    }

    private func run(_ deliver: @escaping @Sendable (PositionEvent) -> Void) {
        g_main_context_push_thread_default(context)
        defer { g_main_context_pop_thread_default(context) }
        var error: UnsafeMutablePointer<GError>?
        guard let bus = busAddress.map({ GDBus.connect($0, &error) }) ?? GDBus.systemBus(&error) else {
            // TRANSLATORS: GeoClue is the desktop's position service; %@ is D-Bus's reason.
            deliver(.unavailable(tr("GeoClue: no system bus (%@)", GDBus.take(&error))))
            return
        }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        while !thread.isStopping {
            switch session(bus, deliver) {
            case .stopped: return
            case let .failed(reason): deliver(.unavailable(reason)); return
            case .vanished:
                deliver(.noFix)
                thread.pause(2)
            }
        }
    }

    /// One client's life: made, started, fixes delivered until the source stops or GeoClue goes.
    private func session(_ bus: OpaquePointer, _ deliver: @escaping @Sendable (PositionEvent) -> Void) -> Outcome {
        var error: UnsafeMutablePointer<GError>?
        guard let reply = GDBus.call(bus, Self.service, Self.managerPath, "org.freedesktop.GeoClue2.Manager", "GetClient", nil, timeout: 10_000, &error) else {
            // TRANSLATORS: GeoClue is the desktop's position service; %@ is its own message.
            return .failed(tr("GeoClue: %@", GDBus.take(&error)))
        }
        let client = GDBus.child(reply, 0).flatMap(GDBus.string)
        g_variant_unref(reply)
        guard let client, g_variant_is_object_path(client) != 0 else { return .failed(tr("GeoClue: the manager gave no client")) }
        let listener = Listener(bus: bus, deliver: deliver)
        // Subscribed before Start, so the first location (often sent at once) is not missed.
        let updates = GDBus.subscribe(bus, sender: Self.service, interface: Self.clientInterface, member: "LocationUpdated",
                                      path: client) { parameters in
            guard let path = GDBus.child(parameters, 1).flatMap(GDBus.string) else { return }
            GeoClueSource.read(location: path, listener)
        }
        defer { GDBus.unsubscribe(bus, updates) }
        let owner = GDBus.subscribe(bus, sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
                                    path: "/org/freedesktop/DBus", arg0: Self.service) { parameters in
            if GDBus.child(parameters, 2).flatMap(GDBus.string) == "" { listener.vanished = true }
        }
        defer { GDBus.unsubscribe(bus, owner) }

        let set = [("DesktopId", g_variant_new_string(desktopID)), ("RequestedAccuracyLevel", g_variant_new_uint32(Self.exactAccuracy))]
        for (property, value) in set {
            let args = GDBus.tuple([g_variant_new_string(Self.clientInterface), g_variant_new_string(property), g_variant_new_variant(value)])
            guard let r = GDBus.call(bus, Self.service, client, "org.freedesktop.DBus.Properties", "Set", args, timeout: 5000, &error) else {
                // TRANSLATORS: %1$@ is a D-Bus property's name (DesktopId), %2$@ GeoClue's message.
                return .failed(tr("GeoClue: cannot set %1$@: %2$@", property, GDBus.take(&error)))
            }
            g_variant_unref(r)
        }
        // Start waits for the agent to allow the app, which can mean a question to the user.
        guard let started = GDBus.call(bus, Self.service, client, Self.clientInterface, "Start", nil, timeout: 60_000, &error) else {
            // TRANSLATORS: %@ is GeoClue's message (it may be that the user or the system denied access).
            return .failed(tr("GeoClue refused: %@", GDBus.take(&error)))
        }
        g_variant_unref(started)
        while !thread.isStopping && !listener.vanished { g_main_context_iteration(context, 1) }
        if listener.vanished { return .vanished }
        if let r = GDBus.call(bus, Self.service, client, Self.clientInterface, "Stop", nil, timeout: 1000, &error) {
            g_variant_unref(r)
        } else {
            GDBus.take(&error)
        }
        return .stopped
    }

    /// Reads a Location object's properties into a fix.
    private static func read(location path: String, _ listener: Listener) {
        var error: UnsafeMutablePointer<GError>?
        guard let reply = GDBus.call(listener.bus, service, path, "org.freedesktop.DBus.Properties", "GetAll",
                                     GDBus.tuple([g_variant_new_string(locationInterface)]), timeout: 5000, &error) else {
            if !listener.toldBad { listener.deliver(.unavailable(tr("GeoClue: cannot read the location: %@", GDBus.take(&error)))) }
            listener.toldBad = true
            return
        }
        defer { g_variant_unref(reply) }
        guard let properties = GDBus.child(reply, 0) else { return }
        defer { g_variant_unref(properties) }
        guard let fix = fix(from: properties) else {
            if !listener.toldBad { listener.deliver(.unavailable(tr("GeoClue sent a location out of range"))) }
            listener.toldBad = true
            return
        }
        listener.deliver(.fix(fix))
    }

    /// A fix from the bytes of a serialized a{sv} (what the bus carried): for the fuzz target,
    /// which checks that no message, however made, yields an impossible fix or a trap.
    public static func fix(serialized bytes: UnsafeRawBufferPointer) -> PositionFix? {
        guard let type = g_variant_type_new("a{sv}") else { return nil }
        defer { g_variant_type_free(type) }
        // Copied by GLib (trusted: false makes it check every byte as it is read).
        guard let bytes = g_bytes_new(bytes.baseAddress, gsize(bytes.count)) else { return nil }
        defer { g_bytes_unref(bytes) }
        let v = g_variant_ref_sink(g_variant_new_from_bytes(type, bytes, 0))
        defer { g_variant_unref(v) }
        return v.flatMap(fix(from:))
    }

    /// A fix from an a{sv} of GeoClue's Location properties; nil when latitude or longitude
    /// are missing or out of range. Unknown speed, heading (-1) or altitude (-DBL_MAX) are left out.
    static func fix(from properties: OpaquePointer) -> PositionFix? {
        func value(_ key: String) -> Double? { GDBus.double(properties, key) }
        guard let lat = value("Latitude"), let lon = value("Longitude"),
              lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else { return nil }
        let accuracy = value("Accuracy").flatMap { $0.isFinite && $0 >= 0 && $0 < 1e7 ? $0 : nil } ?? 0
        let speed = value("Speed").flatMap { $0.isFinite && $0 >= 0 && $0 < 1e5 ? $0 : nil }
        let heading = value("Heading").flatMap { $0.isFinite && $0 >= 0 && $0 <= 360 ? $0 : nil }
        let altitude = value("Altitude").flatMap { $0.isFinite && abs($0) < 1e6 ? $0 : nil }
        let time = GDBus.timestamp(properties, "Timestamp")
        return PositionFix(coordinate: Coordinate(latitude: lat, longitude: lon), accuracy: accuracy, course: heading,
                           speed: speed, time: time, altitude: altitude)
    }
}
