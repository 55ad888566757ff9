import ArgumentParser
import FoundationEssentials
import Glibc
import MapCore
import MapData
import Platform

extension Bench {
    /// Reading FIT files as the window reads them (`GeoDocument.read`: mapped, then the reader):
    /// a generated hour's ride, the largest real test file when run from the source tree, and
    /// a generated million records. Times are the median of three readings (wall clock, and
    /// this thread's CPU, which other processes on a busy machine do not inflate); the peak is this
    /// process's resident memory at most during them (its high-water mark reset before), and
    /// what that peak added to the memory before reading.
    func fitRows() throws -> [Row] {
        var rows: [Row] = []
        let hour = "/tmp/meridian-bench-\(getpid())-hour.fit", million = "/tmp/meridian-bench-\(getpid())-million.fit"
        defer { unlink(hour); unlink(million) }
        try Self.writeFIT(records: 3600, to: hour)
        rows += try fitReadRows(hour, label: "FIT 1 hour (3,600 records)", records: 3600, target: "")
        let real = "Tests/Fixtures/fit/2019-02-17-062644-ELEMNT-297E-195-0.fit"
        if FileIO.exists(real) { rows += try fitReadRows(real, label: "FIT real ELEMNT ride (13,471 records)", records: 13_471, target: "") }
        try Self.writeFIT(records: 1_000_000, to: million)
        rows += try fitReadRows(million, label: "FIT 1,000,000 records", records: 1_000_000, target: "≤ 500 ms")
        return rows
    }

    private func fitReadRows(_ path: String, label: String, records: Int, target: String) throws -> [Row] {
        var times: [Double] = [], cpu: [Double] = [], peak = 0, added = 0, points = 0
        for _ in 0..<3 {
            let before = Self.memoryStatus("VmRSS")
            Self.resetPeakMemory()
            let start = MonotonicClock.now, startCPU = Self.threadCPU()
            let (doc, activity) = try FITReader(file: path).readActivity(try FileIO.readOrMap(path))
            times.append(MonotonicClock.now - start)
            cpu.append(Self.threadCPU() - startCPU)
            let high = Self.memoryStatus("VmHWM")
            peak = max(peak, high)
            added = max(added, high - before)
            guard activity.records == records else { throw ValidationError(tr("the generated track did not read back")) }
            points = doc.tracks.reduce(0) { $0 + $1.points.count }
        }
        let size = String(cFormat: "%.1f MB", Double(FileIO.fileSize(path)) / 1e6)
        return [
            Row(name: "\(label), \(size): read (median of 3)", value: times.sorted()[1] * 1000, unit: "ms", target: target),
            Row(name: "\(label): CPU time reading (median of 3)", value: cpu.sorted()[1] * 1000, unit: "ms", target: "report"),
            Row(name: "\(label): points", value: Double(points), unit: "", target: ""),
            Row(name: "\(label): peak RSS while reading", value: Double(peak) / 1_048_576, unit: "MiB", target: "report"),
            Row(name: "\(label): peak RSS added by reading", value: Double(added) / 1_048_576, unit: "MiB", target: "report"),
        ]
    }

    /// This thread's CPU seconds so far (what a reading costs, whatever else the machine runs).
    static func threadCPU() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// A line of /proc/self/status in bytes ("VmRSS", "VmHWM"), 0 if unknown.
    static func memoryStatus(_ key: String) -> Int {
        guard let text = try? FileIO.read("/proc/self/status", limit: 1 << 16) else { return 0 }
        for line in String(decoding: text, as: UTF8.self).split(separator: "\n") where line.hasPrefix(key + ":") {
            if let kB = line.split(separator: " ").compactMap({ Int($0) }).first { return kB * 1024 }
        }
        return 0
    }

    /// Starts the high-water mark of resident memory afresh (Linux 4.0 and later).
    static func resetPeakMemory() { _ = FileIO.writeText("5", to: "/proc/self/clear_refs") }

    /// A ride as a bike computer records it: a record a second (time, position, enhanced
    /// altitude, heart rate, cadence, distance, enhanced speed, power, temperature), the
    /// timer stopped for a minute every hour, a session at the end.
    static func writeFIT(records n: Int, to path: String) throws {
        var b = FITBuilder()
        b.records.reserveCapacity(n * 31 + 1000)
        let start = 1_777_622_400.0 // 2026-05-01T08:00:00Z
        b.define(local: 0, global: 0, fields: [.init(0, FITBuilder.enumType), .init(1, FITBuilder.uint16), .init(4, FITBuilder.uint32)])
        b.message(local: 0, [4, 255, .int(FITBuilder.time(start))])
        b.define(local: 1, global: 20, fields: [
            .init(253, FITBuilder.uint32), .init(0, FITBuilder.sint32), .init(1, FITBuilder.sint32), .init(78, FITBuilder.uint32),
            .init(3, FITBuilder.uint8), .init(4, FITBuilder.uint8), .init(5, FITBuilder.uint32), .init(73, FITBuilder.uint32),
            .init(7, FITBuilder.uint16), .init(13, FITBuilder.sint8),
        ])
        b.define(local: 2, global: 21, fields: [.init(253, FITBuilder.uint32), .init(0, FITBuilder.enumType), .init(1, FITBuilder.enumType)])
        b.define(local: 3, global: 18, fields: [.init(253, FITBuilder.uint32), .init(2, FITBuilder.uint32), .init(5, FITBuilder.enumType),
                                                .init(7, FITBuilder.uint32), .init(9, FITBuilder.uint32)])
        var t = start, distance = 0.0
        b.message(local: 2, [.int(FITBuilder.time(t)), 0, 0])
        for i in 0..<n {
            if i > 0, i % 3600 == 0 {
                b.message(local: 2, [.int(FITBuilder.time(t)), 0, 1])
                t += 60
                b.message(local: 2, [.int(FITBuilder.time(t)), 0, 0])
            }
            let a = Double(i) / 5000
            let lat = 46 + 0.8 * sin(a * 0.7) + Double(i) * 1e-7, lon = 7 + 1.2 * cos(a * 0.5) + Double(i) * 2e-7
            distance += 8
            b.message(local: 1, [.int(FITBuilder.time(t)), .int(FITBuilder.semicircles(lat)), .int(FITBuilder.semicircles(lon)),
                                 .int(Int64(saturating: ((1000 + 500 * sin(a) + 500) * 5).rounded())), .int(Int64(120 + i % 40)), 85,
                                 .int(Int64(saturating: distance * 100)), 8000, .int(Int64(180 + i % 90)), 18])
            t += 1
        }
        b.message(local: 2, [.int(FITBuilder.time(t)), 0, 4])
        b.message(local: 3, [.int(FITBuilder.time(t)), .int(FITBuilder.time(start)), 2, .int(Int64(saturating: (t - start) * 1000)), .int(Int64(saturating: distance * 100))])
        guard b.file().withUnsafeBytes({ FileIO.writeBytes($0, to: path) }) else { throw ValidationError(tr("cannot write %@", path)) }
    }
}
