import FoundationEssentials
import Glibc
import MapCore
import Platform

/// Fixes replayed from an NMEA log (demos and tests), paced by the fixes' own times divided by
/// `speed` (a second apart where they have none). The file is read whole up front (64 MiB at
/// most); its broken sentences are skipped, and said once.
public final class NMEAReplaySource: PositionSource, @unchecked Sendable { // immutable; its thread is a locked SourceThread
    public let path: String
    public let speed: Double
    private let thread = SourceThread()

    // TRANSLATORS: names a position source in notices; %@ is a file's path.
    public var name: String { tr("NMEA log %@", path) }

    public init(path: String, speed: Double = 1) {
        self.path = path
        self.speed = speed > 0 && speed.isFinite ? speed : 1
    }

    deinit { stop() }

    public func start(_ deliver: @escaping @Sendable (PositionEvent) -> Void) {
        thread.start(name: "nmea") { [self] _ in run(deliver) }
    }

    public func stop() { thread.stop() }

    /// Every event of the log, in order, with its time when known.
    public static func events(in data: Data) -> (events: [PositionEvent], rejected: Int) {
        var reader = NMEAReader()
        var out: [PositionEvent] = []
        let text = String(decoding: data, as: UTF8.self)
        for line in text.split(whereSeparator: \.isNewline) {
            if let e = reader.read(line) { out.append(e) }
        }
        return (out, reader.rejected)
    }

    private func run(_ deliver: @escaping @Sendable (PositionEvent) -> Void) {
        let data: Data
        do { data = try FileIO.read(path, limit: 64 << 20) } catch {
            deliver(.unavailable("\(name): \(error)"))
            return
        }
        let (events, rejected) = Self.events(in: data)
        // TRANSLATORS: %2$@ names the NMEA log; %1$d is how many of its sentences (lines) were broken.
        if rejected > 0 { deliver(.unavailable(trn("%2$@: %1$d broken sentence(s) skipped", "%2$@: %1$d broken sentence(s) skipped", rejected, name))) }
        // TRANSLATORS: %@ names the NMEA log; it holds no positions.
        guard !events.isEmpty else { deliver(.unavailable(tr("%@: no fixes in it", name))); return }
        var previous: Double?
        for event in events {
            guard !thread.isStopping else { return }
            var wait = 1.0
            if case let .fix(f) = event, let t = f.time {
                if let p = previous, t > p { wait = min(t - p, 60) }
                previous = t
            }
            thread.pause(wait / speed)
            guard !thread.isStopping else { return }
            deliver(event)
        }
    }
}
