import FoundationEssentials
import Glibc
import MapCore
import Platform

/// The trail as it is recorded, one line per point appended to a file the moment the point
/// is made (`write`, no buffering of ours): when the app is killed, what the kernel was given
/// survives, so at most the point being written is lost. Reading it back takes what is whole
/// and skips the rest, saying how many lines were not understood.
///
///     meridian-trail 1
///     p TIME LAT LON ELE      a point (seconds since 1970, degrees, metres or nan)
///     b                       the next point starts a new segment
public final class TrailJournal {
    public let url: URL
    private var fd: Int32 = -1
    /// The first failure to write (a full disk), said once by the caller.
    public private(set) var failure: String?

    static let header = "meridian-trail 1"
    /// More points than any journal needs (a year at one a second); past it, lines are ignored.
    static let maxPoints = 40_000_000

    public init(url: URL) { self.url = url }

    deinit { if fd >= 0 { close(fd) } }

    /// Appends a point (and a segment break before it when `breaking`); false when the journal
    /// cannot be written (see `failure`).
    @discardableResult
    public func append(latitude: Double, longitude: Double, elevation: Float, time: Double, breaking: Bool) -> Bool {
        var line = breaking ? "b\n" : ""
        line += String(cFormat: "p %.3f %.7f %.7f ", time, latitude, longitude)
            + (elevation.isFinite ? String(cFormat: "%.1f", Double(elevation)) : "nan") + "\n"
        return write(line)
    }

    /// Closes and deletes the journal (the trail was saved, or there was none).
    public func remove() {
        if fd >= 0 { close(fd) }
        fd = -1
        unlink(url.path)
    }

    private func write(_ text: String) -> Bool {
        if fd < 0 {
            if let problem = FileIO.makeDirectories(url.deletingLastPathComponent().path) { return fail(tr("cannot create its folder (%@)", problem)) }
            fd = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            guard fd >= 0 else { return fail(FileIO.reason(errno)) }
            var st = stat()
            if fstat(fd, &st) == 0, st.st_size == 0, !put(Self.header + "\n") { return fail(FileIO.reason(errno)) }
        }
        return put(text) || fail(FileIO.reason(errno))
    }

    private func put(_ text: String) -> Bool {
        Array(text.utf8).withUnsafeBytes { FileIO.writeAll(fd, $0) }
    }

    private func fail(_ reason: String) -> Bool {
        if failure == nil { failure = "\(url.path): \(reason)" }
        return false
    }

    /// What a journal holds: the trail's points and segments, and how many lines were not
    /// understood (a line torn by a crash, or damage).
    public struct Contents {
        public var track: Track
        public var skipped: Int
    }

    /// Reads a journal's bytes; nil when they are not a trail journal at all.
    public static func read(_ data: Data) -> Contents? {
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard let first = lines.first, String(decoding: first, as: UTF8.self) == header else { return nil }
        lines.removeFirst()
        var points = TrackPoints()
        var segments: [Range<Int>] = []
        var skipped = 0
        var breaking = true
        for raw in lines where !raw.isEmpty {
            guard points.count < maxPoints, raw.count < 200 else { skipped += 1; continue }
            let fields = raw.split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
            if fields == ["b"] { breaking = true; continue }
            guard fields.count == 5, fields[0] == "p",
                  let t = Double(fields[1]), let lat = Double(fields[2]), let lon = Double(fields[3]),
                  t.isFinite, lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else { skipped += 1; continue }
            let ele = Float(fields[4]).flatMap { $0.isFinite && abs($0) < 100_000 ? $0 : nil } ?? .nan
            let n = points.count
            if breaking || segments.isEmpty { segments.append(n..<n) }
            segments[segments.count - 1] = segments[segments.count - 1].lowerBound..<(n + 1)
            breaking = false
            points.append(latitude: lat, longitude: lon, elevation: ele, time: t)
        }
        return Contents(track: Track(kind: .track, name: tr("Trail"), segments: segments, points: points), skipped: skipped)
    }
}
