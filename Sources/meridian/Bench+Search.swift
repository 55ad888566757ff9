import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapSearch
import MapWindow
import MeridianKit
import Platform

/// Search's numbers: the index's size in the package and the time to read it, the time each
/// keystroke's search takes over every place (what the frame pays while typing), and the
/// frame cost of the flight to a result.
extension Bench {
    func searchRows() throws -> [Row] {
        guard let url = Resources.url("places.tsv") else { return [] }
        let data = try Data(contentsOf: url)
        let start = MonotonicClock.now
        let index = PlaceIndex(reading: data)
        let load = MonotonicClock.now - start
        // Every prefix of a few hundred names, typed a letter at a time.
        var times: [Double] = []
        var rng = SystemRandomNumberGenerator()
        let names = (0..<300).map { _ in index.places[Int.random(in: 0..<index.places.count, using: &rng)].name }
            + ["zurich", "sao paulo", "new york", "s", "a", "paris", "lon", "ber"]
        for name in names {
            var typed = ""
            for ch in name.prefix(12) {
                typed.append(ch)
                let t = MonotonicClock.now
                _ = index.search(typed)
                times.append(MonotonicClock.now - t)
            }
        }
        return [
            Row(name: "search: places indexed", value: Double(index.places.count), unit: "", target: ""),
            Row(name: "search: index file size", value: Double(data.count) / 1_048_576, unit: "MiB", target: "report"),
            Row(name: "search: index read and sorted (on a worker)", value: load * 1000, unit: "ms", target: "report"),
            Row(name: "search: per keystroke p50 (\(times.count) keystrokes)", value: FrameStats.percentile(times, 50) * 1000, unit: "ms", target: ""),
            Row(name: "search: per keystroke p99", value: FrameStats.percentile(times, 99) * 1000, unit: "ms", target: "≤ 2 ms"),
        ]
    }

    /// Flying from Paris at z12 to Zürich at z12 (zoom out, across, in), as Enter on a result does.
    func flyRows(_ host: MapHost, from start: Camera, period: Double) -> [Row] {
        var cam = start
        cam.setZoom(12)
        cam.setCenter(WebMercator.project(Coordinate(latitude: 48.8534, longitude: 2.3488)))
        host.change { $0.controller.camera = cam }
        quit(after: 1); host.run()
        host.resetStats()
        let before = cpuSeconds()
        host.change { $0.controller.fly(to: Coordinate(latitude: 47.3667, longitude: 8.55), zoom: 12, at: host.clock.now) }
        quit(after: 3); host.run()
        return frameRows("fly-to Paris → Zürich:", MeasuredRun(stats: host.stats, processCPU: cpuSeconds() - before), period: period, withIntervals: false)
    }
}
