import ArgumentParser
import FoundationEssentials
import Glibc
import MapCore
import MapData
import MeridianKit
import Platform

extension Bench {
    /// Reading generated GPX tracks (one point a second, with elevation and time, as a
    /// watch records them): parse, statistics, and per-point importance for simplification;
    /// then the window started on each, from exec until the track is drawn. The million-point
    /// file is left at `keeping` for the window rows.
    func trackRows(keeping kept: String) throws -> [Row] {
        var rows: [Row] = []
        for n in [100_000, 1_000_000] {
            let path = n == 1_000_000 ? kept : "/tmp/meridian-bench-\(getpid())-\(n).gpx"
            defer { if path != kept { unlink(path) } }
            try Self.writeTrack(points: n, to: path)
            let label = n == 1_000_000 ? "1,000,000" : "100,000"
            var start = MonotonicClock.now
            // As the window reads it: mapped, in pieces on all cores.
            let doc = try GeoDocument.read(URL(fileURLWithPath: path))
            let read = MonotonicClock.now - start
            let megabytes = Int(FileIO.fileSize(path) / 1_000_000)
            guard let track = doc.tracks.first, track.points.count == n else { throw ValidationError(tr("the generated track did not read back")) }
            start = MonotonicClock.now
            let stats = TrackStatistics(track)
            let statsTime = MonotonicClock.now - start
            start = MonotonicClock.now
            let geometry = TrackGeometry(track)
            let simplifyTime = MonotonicClock.now - start
            // Half a pixel at zoom 12, in world units (256 across at zoom 0).
            let z12 = geometry.lines(in: geometry.bounds, tolerance: 0.5 / 4096).reduce(0) { $0 + $1.count }
            rows += [
                Row(name: "GPX \(label) points (\(megabytes) MB): read", value: read * 1000, unit: "ms", target: n == 1_000_000 ? "part of ≤ 1 s to drawn" : ""),
                Row(name: "GPX \(label) points: statistics", value: statsTime * 1000, unit: "ms", target: ""),
                Row(name: "GPX \(label) points: projection, importance, index", value: simplifyTime * 1000, unit: "ms", target: ""),
                Row(name: "GPX \(label) points: kept at zoom 12", value: Double(z12), unit: "", target: String(cFormat: "of %d; %.0f km", n, stats.distance / 1000)),
            ]
            let (drawn, rss, resident) = try spawnOnTrack(path)
            rows += [
                Row(name: "GPX \(label) points: exec to track drawn (median of 3)", value: drawn * 1000, unit: "ms",
                    target: n == 1_000_000 ? "≤ 1000 ms" : ""),
                Row(name: "GPX \(label) points: RSS, window with it drawn", value: Double(resident) / 1_048_576, unit: "MiB",
                    target: n == 1_000_000 ? "≤ 150 MiB" : ""),
                Row(name: "GPX \(label) points: peak RSS on the way", value: Double(rss) / 1_048_576, unit: "MiB", target: "report"),
            ]
        }
        return rows
    }

    /// The window started on `path` at 1280×800 until the track and the map under it are
    /// drawn: median wall time of three runs, and the largest peak resident memory.
    private func spawnOnTrack(_ path: String) throws -> (seconds: Double, peakRSS: Int, resident: Int) {
        let state = "/tmp/meridian-bench-\(getpid())"
        defer { _ = rmdir(state + "/meridian"); _ = rmdir(state) }
        var env = ProcessInfo.processInfo.environment
        env["XDG_STATE_HOME"] = state
        env["MERIDIAN_REPORT_RSS"] = "1"
        let report = state + "-stderr"
        defer { unlink(report) }
        var times: [Double] = [], peak = 0, resident = 0
        for _ in 0..<3 {
            let start = MonotonicClock.now
            let run = try spawnAndMeasure(Resources.executablePath, ["--tiles", tiles, "--renderer", renderer.rawValue, "--size", "1280x800",
                                                                     "--no-location", "--exit-when-drawn", path], env: env, stderrTo: report)
            guard run.status == 0 else { throw ValidationError(tr("the window on %@ failed (status %d)", path, run.status)) }
            times.append(MonotonicClock.now - start)
            peak = max(peak, run.peakRSS)
            // "meridian: resident N bytes", written when the window is drawn.
            let said = String(decoding: (try? FileIO.read(report)) ?? Data(), as: UTF8.self)
            if let line = said.split(separator: "\n").first(where: { $0.contains("resident ") }),
               let n = line.split(separator: " ").compactMap({ Int($0) }).first { resident = max(resident, n) }
        }
        return (times.sorted()[1], peak, resident)
    }

    /// A wandering ride through the Alps, one point a second.
    static func writeTrack(points n: Int, to path: String) throws {
        var out = [UInt8]()
        out.reserveCapacity(n * 110 + 400)
        out += Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"meridian bench\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n<trk><name>Bench ride</name><trkseg>\n".utf8)
        let start = 1_777_622_400 // 2026-05-01T08:00:00Z
        for i in 0..<n {
            let a = Double(i) / 5000
            let lat = 46 + 0.8 * sin(a * 0.7) + Double(i) * 1e-7, lon = 7 + 1.2 * cos(a * 0.5) + Double(i) * 2e-7
            let t = start + i
            let (d, s) = (t / 86400, t % 86400)
            let (year, month, day) = CivilCalendar.date(days: d)
            out += Array(String(cFormat: "<trkpt lat=\"%.7f\" lon=\"%.7f\"><ele>%.1f</ele><time>%04d-%02d-%02dT%02d:%02d:%02dZ</time></trkpt>\n",
                                lat, lon, 1000 + 500 * sin(a), year, month, day, s / 3600, s / 60 % 60, s % 60).utf8)
        }
        out += Array("</trkseg></trk>\n</gpx>\n".utf8)
        guard out.withUnsafeBytes({ FileIO.writeBytes($0, to: path) }) else { throw ValidationError(tr("cannot write %@", path)) }
    }
}
