import Foundation

/// The loopback tile server of Tests/Fixtures/tile-server.py (system python3): real HTTP that
/// serves small PNG tiles and misbehaves on demand (see the script for its paths). Also runs
/// the other loopback fixtures that print their port first (`script`, e.g. fake-gpsd.py).
public final class TileServer {
    public let port: Int
    private let process: Process

    public init(script name: String = "tile-server.py", arguments: [String] = []) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/" + name).path
        let p = Process()
        // The system python: pyenv's may be older or newer than what Debian ships.
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = [script] + arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        var text = ""
        while !text.contains("\n") {
            let d = out.fileHandleForReading.availableData
            if d.isEmpty { p.terminate(); throw NSError(domain: "TileServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "the tile server did not start"]) }
            text += String(decoding: d, as: UTF8.self)
        }
        guard let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            p.terminate()
            throw NSError(domain: "TileServer", code: 2, userInfo: [NSLocalizedDescriptionKey: "the tile server said \(text)"])
        }
        self.port = port
        process = p
    }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    deinit {
        // Not waited for: Process's wait needs a run loop that may be gone at exit.
        kill(process.processIdentifier, SIGKILL)
    }
}
