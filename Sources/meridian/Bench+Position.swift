import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapWindow
import Platform

/// The live position's numbers: the window following a fix that drives east at 30 m/s
/// (fixes from a thread of their own, as a source delivers them), so the
/// map pans under it every frame; and how long a fix takes from its source to the screen
/// (twenty fixes a second, for enough of them to tell a 99th percentile).
extension Bench {
    /// Latencies measured across the fix thread and the frame thread.
    final class Latencies: @unchecked Sendable {
        private let lock = Lock()
        private var sent: [Double] = []
        private var applied = 0
        private var stopping = false
        private(set) var measured: [Double] = []
        /// A fix left its source (the fix thread).
        func delivered() { lock.lock(); sent.append(MonotonicClock.now); lock.unlock() }
        /// The host took a fix in (the frame thread).
        func apply() { lock.lock(); applied += 1; lock.unlock() }
        /// A frame was presented: every fix applied before it has reached the screen.
        func presented() {
            lock.lock(); defer { lock.unlock() }
            let now = MonotonicClock.now, n = min(applied, sent.count)
            measured += sent.prefix(n).map { now - $0 }
            sent.removeFirst(n)
            applied = 0
        }
        var isStopping: Bool { lock.lock(); defer { lock.unlock() }; return stopping }
        func stop() { lock.lock(); stopping = true; lock.unlock() }
    }

    /// `start`: the camera to begin from (it flies to the position, then follows).
    func followRows(_ host: MapHost, from start: Camera, period: Double) -> [Row] {
        let origin = Coordinate(latitude: 48.85, longitude: 2.35)
        host.change { $0.controller.camera = start }
        host.change { $0.scene.location = nil }
        let latencies = Latencies()
        host.onPresented = { latencies.presented() }
        // The first fix, and following it: the flight there settles before the measure.
        host.receive(.fix(PositionFix(coordinate: origin, accuracy: 10, course: 90, speed: 30)), from: "bench")
        host.change { $0.controller.startFollowing(WebMercator.project(origin), at: host.clock.now) }
        quit(after: 3); host.run()
        let metresPerDegree = 111_320 * cos(origin.latitude * .pi / 180)
        let handle = host.handle
        let feeder = Joinable(name: "bench-fixes") {
            for k in 1... {
                if latencies.isStopping { break }
                usleep(50_000)
                let c = Coordinate(latitude: origin.latitude, longitude: origin.longitude + Double(k) * 1.5 / metresPerDegree)
                latencies.delivered()
                handle.perform { host in
                    host.receive(.fix(PositionFix(coordinate: c, accuracy: 10, course: 90, speed: 30)), from: "bench")
                    latencies.apply()
                }
            }
        }
        host.resetStats()
        let before = cpuSeconds()
        quit(after: seconds); host.run()
        let cpu = cpuSeconds() - before
        latencies.stop()
        feeder.join()
        let stats = host.stats
        host.onPresented = nil
        host.change { $0.controller.following = false }
        // What follows shows a fixed location: no live source to fall silent and grey it.
        host.change { $0.position.staleAfter = nil }
        let lat = latencies.measured
        return frameRows("following a fix at 30 m/s, z15:", MeasuredRun(stats: stats, processCPU: cpu), period: period, withIntervals: false) + [
            Row(name: "fix to screen latency p50 (\(lat.count) fixes)", value: FrameStats.percentile(lat, 50) * 1000, unit: "ms", target: ""),
            Row(name: "fix to screen latency p99", value: FrameStats.percentile(lat, 99) * 1000, unit: "ms",
                target: String(cFormat: "≤ %.1f ms (1 period + 2 ms)", period * 1000 + 2)),
        ]
    }
}
