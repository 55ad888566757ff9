import Foundation

/// GeoClue2 as python3-dbusmock plays it (Tests/Fixtures/geoclue-mock.py) on a private
/// message bus of its own: `address` stands for the system bus. `move` publishes a new
/// location; `vanish` kills the service as a crash would. Both processes die with the object.
public final class GeoClueMock {
    public let address: String
    private let bus: Process
    private var mock: Process?

    /// `parameters`: the template's (lat, lon, accuracy, speed, heading, refuse). With `start`
    /// false the bus has no GeoClue on it.
    public init(parameters: [String: Any] = [:], start: Bool = true) throws {
        let b = Process()
        b.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        b.arguments = ["--session", "--nofork", "--print-address=1"]
        let out = Pipe()
        b.standardOutput = out
        b.standardError = FileHandle.nullDevice
        try b.run()
        bus = b
        var text = ""
        while !text.contains("\n") {
            let d = out.fileHandleForReading.availableData
            if d.isEmpty { throw Failure("dbus-daemon did not start") }
            text += String(decoding: d, as: UTF8.self)
        }
        address = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard start else { return }
        let template = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/geoclue-mock.py").path
        let json = String(decoding: try JSONSerialization.data(withJSONObject: parameters), as: UTF8.self)
        let m = Process()
        m.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        m.arguments = ["-m", "dbusmock", "--template", template, "-p", json]
        m.environment = ["DBUS_SYSTEM_BUS_ADDRESS": address, "PATH": "/usr/bin:/bin"]
        m.standardOutput = FileHandle.nullDevice
        m.standardError = FileHandle.nullDevice
        try m.run()
        mock = m
        let deadline = Date().addingTimeInterval(10)
        while try !owned() {
            if Date() > deadline { throw Failure("the GeoClue mock did not take its name") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Publishes a new location (LocationUpdated).
    public func move(latitude: Double, longitude: Double, accuracy: Double) throws {
        _ = try send(["--dest=org.freedesktop.GeoClue2", "/org/freedesktop/GeoClue2/Client/1", "org.freedesktop.GeoClue2.Mock.Move",
                      "double:\(latitude)", "double:\(longitude)", "double:\(accuracy)"])
    }

    /// Kills the service: its name leaves the bus.
    public func vanish() {
        if let mock { kill(mock.processIdentifier, SIGKILL) }
        mock = nil
    }

    private func owned() throws -> Bool {
        try send(["--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.GeoClue2"])
            .contains("boolean true")
    }

    private func send(_ arguments: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-send")
        p.arguments = ["--bus=\(address)", "--print-reply"] + arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        // Read to the end (dbus-send exits after its reply) rather than wait on the process.
        return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    deinit {
        vanish()
        kill(bus.processIdentifier, SIGKILL)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }
}
