import Glibc
import MapCore
import MapPosition
import Platform
import Testing
import TestSupport

/// The gpsd client against a fake gpsd on loopback (Tests/Fixtures/fake-gpsd.py): fixes
/// arrive, a restart is survived, and garbage, floods and silence are said, never waited on.
@Suite(.serialized) struct GPSDSourceTests {
    /// The fake gpsd in `mode` (killed when the value goes), and a client of it, started.
    func connect(_ mode: String) throws -> (TileServer, GPSDSource, PositionEvents) {
        let server = try TileServer(script: "fake-gpsd.py", arguments: [mode])
        let src = GPSDSource(port: UInt16(server.port))
        return (server, src, src.collect())
    }

    @Test func fixesArriveAndARestartIsSurvived() throws {
        let (server, src, events) = try connect("tpv")
        defer { withExtendedLifetime(server) {} }
        defer { src.stop() }
        // Ten fixes, then the connection closes (gpsd restarting); the client is back within a
        // second or two, and the fixes start again from the first.
        #expect(waitUntil { events.fixes.count >= 14 }, "\(events.snapshot)")
        let fixes = events.fixes
        #expect(fixes[0].coordinate.latitude == 46 && fixes[0].accuracy == 12 && fixes[0].heading == 0)
        #expect(fixes[9].coordinate.latitude > fixes[8].coordinate.latitude)
        #expect(fixes[10].coordinate.latitude == 46, "no reconnection")
        #expect(events.reasons.contains { $0.contains("closed") }, "\(events.reasons)")
    }

    @Test(arguments: [("garbage", "not a gpsd report"), ("flood", "longer than")])
    func badReportsAreSaidAndSkipped(_ mode: String, _ said: String) throws {
        let (server, src, events) = try connect(mode)
        defer { withExtendedLifetime(server) {} }
        defer { src.stop() }
        #expect(waitUntil { events.fixes.count >= 3 }, "\(events.snapshot)")
        #expect(events.reasons.contains { $0.contains(said) }, "\(events.reasons)")
    }

    @Test func aGpsdThatNeverAnswersIsSaidAndStopIsNotKeptWaiting() throws {
        let (server, src, events) = try connect("silent")
        defer { withExtendedLifetime(server) {} }
        #expect(waitUntil { events.reasons.contains { $0.contains("no answer") } }, "\(events.snapshot)")
        // Connected again to a gpsd that stays silent for an hour: stop ends the client's
        // thread (joined) instead of waiting on the silence.
        #expect(waitUntil { src.connectionAttempts >= 2 })
        #expect(returns { src.stop() }, "stop waited on a silent gpsd")
    }

    @Test func nobodyListeningIsSaidOnce() throws {
        // A port that was free a moment ago (bound, then closed).
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: 0, sin_addr: in_addr(s_addr: UInt32(0x7F00_0001).bigEndian), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        close(fd)
        let port = UInt16(bigEndian: addr.sin_port)
        let src = GPSDSource(port: port)
        let events = src.collect()
        // The third try begins after the first two failed and were (or were not) said.
        #expect(waitUntil { src.connectionAttempts >= 3 })
        src.stop()
        #expect(events.reasons.count == 1, "\(events.reasons)")
        #expect(!GPSDSource.answers(port: port))
    }
}
