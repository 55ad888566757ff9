import ArgumentParser
import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapGraphics
import MapNetwork
import MapRender
import MapTiles
import MeridianKit
import MapWindow
import Platform

/// Online tiles from a tile server (`--online`, the loopback one of Tests/Fixtures in `make
/// bench`): how fast tiles are fetched and decoded, frame cost while they stream in, memory
/// once hundreds came in, and start-up from a cold cache.
extension Bench {
    func onlineRows(_ template: String) throws -> [Row] {
        let source = OnlineSource(name: "bench", template: try TileURLTemplate(template), attribution: "", zoomRange: 0...19)
        return try throughputRows(source) + coldStartRows(template) + (try streamingRows(source))
    }

    /// A fresh cache folder, removed with `body`'s end.
    private func withColdCache<T>(_ body: (String) throws -> T) rethrows -> T {
        let dir = "/tmp/meridian-bench-\(getpid())-cache-\(UInt32.random(in: 0...UInt32.max))"
        defer { _ = FileIO.removeTree(dir) }
        return try body(dir)
    }

    /// `online` with an empty cache of its own under `dir`.
    private func coldSource(_ online: OnlineSource, cache dir: String) -> OnlineTileSource {
        var options = HTTPClient.Options(userAgent: Meridian.userAgent)
        options.offline = Meridian.catalog.isOffline
        return OnlineTileSource(source: online, client: HTTPClient(options: options), cache: TileDiskCache(root: dir, source: online))
    }

    /// 500 tiles at z14 over Paris, cold, on the window's workers: fetched, decoded and flattened.
    private func throughputRows(_ online: OnlineSource) throws -> [Row] {
        try withColdCache { dir in
            let src = coldSource(online, cache: dir)
            let decode = TileRasterizer.decoder(pixelRatio: 1, painter: VectorTilePainter(), order: .argb, background: .noMap)
            let loader = TileLoader(source: src, decode: decode)
            defer { loader.stop() }
            let centre = TileID(z: 14, x: 8298, y: 5636)
            let tiles = (0..<500).map { TileID(z: 14, x: centre.x - 12 + $0 % 25, y: centre.y - 10 + $0 / 25) }
            let start = MonotonicClock.now
            loader.want(tiles)
            var done = 0, failed = 0
            while done < tiles.count, MonotonicClock.now < start + 60 {
                _ = loader.waitUntilIdle(deadline: MonotonicClock.now + 0.05)
                for r in loader.drain() {
                    done += 1
                    if case .failed = r.outcome { failed += 1 }
                }
            }
            let seconds = MonotonicClock.now - start
            // TRANSLATORS: %1$d tiles of %2$d failed; %3$@ is the tile server's URL template.
            guard failed == 0 else { throw ValidationError(tr("%1$d of %2$d bench tiles failed from %3$@", failed, done, online.template.text)) }
            return [Row(name: "online: tiles fetched + decoded per second (cold, 500)", value: Double(done) / seconds, unit: "/s", target: "report")]
        }
    }

    /// This binary started afresh with an empty cache, to its first fully drawn 1280×800 view
    /// at z12 (median of three, each with a cache of its own).
    private func coldStartRows(_ template: String) throws -> [Row] {
        var times: [Double] = []
        for _ in 0..<3 {
            times.append(try withColdCache { dir in
                var env = ProcessInfo.processInfo.environment
                env["XDG_CACHE_HOME"] = dir
                env["XDG_STATE_HOME"] = dir
                let start = MonotonicClock.now
                let status = try spawnAndWait(Resources.executablePath, ["--tiles", template, "--renderer", renderer.rawValue, "--center", "48.85,2.35",
                                                                        "--zoom", "12", "--size", "1280x800", "--no-location", "--exit-when-drawn"], env: env)
                guard status == 0 else { throw ValidationError(tr("online start-up run failed (status %d)", status)) }
                return MonotonicClock.now - start
            })
        }
        return [Row(name: "online: start to fully drawn 1280×800, cold cache (median of 3)", value: times.sorted()[1] * 1000, unit: "ms", target: "≤ 300 ms")]
    }

    /// The zoom script in a 1920×1080 window while tiles stream in from a cold cache, then a
    /// pan across z14 until 500 tiles came in: frame cost meanwhile, and memory after.
    private func streamingRows(_ online: OnlineSource) throws -> [Row] {
        try withColdCache { dir in
            let window = try SDLWindow(title: "Meridian bench", width: 1920, height: 1080, renderer: renderer)
            let src = coldSource(online, cache: dir)
            let tiles = try Meridian.catalog.tiles(over: src)
            let paris = Coordinate(latitude: 48.85, longitude: 2.35)
            let start = Camera(center: paris, zoom: 3, viewportSize: window.size)
            let host = try appHost(window: window, session: makeSession(camera: start, tiles: tiles, tilesName: nil, overlays: try OverlayOptions.parse(["--no-location"]), pins: []),
                                   stack: tiles.stack.replacingMapSource(src))
            quit(after: 1)
            host.run()
            let before = src.requestCount
            let script = zoomScript(host, from: start)
            let streamed = src.requestCount - before
            // Then across Paris at z14, a screen at a time, until 500 tiles in all came in.
            var cam = start
            cam.setZoom(14)
            var step = 0
            while src.requestCount < 500, step < 40 {
                cam.setCenter(WebMercator.project(Coordinate(latitude: 48.85 + 0.03 * Double(step / 8), longitude: 2.2 + 0.06 * Double(step % 8))))
                host.change { $0.controller.camera = cam }
                quit(after: 0.4)
                host.run()
                step += 1
            }
            // Settled: the loop goes idle (and gives back what the burst freed).
            quit(after: 1)
            host.run()
            return frameRows("online: zoom script, \(streamed) tiles streaming in:", script, period: host.clock.period, withIntervals: false)
                + [Row(name: "online: RSS after \(src.requestCount) tiles came in", value: Double(FileIO.residentBytes()) / 1_048_576, unit: "MiB", target: "≤ 150 MiB")]
        }
    }
}
