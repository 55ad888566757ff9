import ArgumentParser
import CSDL2
import FoundationEssentials
import Glibc
import Dispatch
import MapCore
import MapGeometry
import MapGraphics
import MapTiles
import MeridianKit
import MapWindow
import Platform

/// Measures what DESIGN.md promises: frame build time and present pacing during a scripted
/// zoom, CPU use while idle, and the time from process start to the first frame on screen.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: tr("Measure frame times, idle CPU and start-up time."))

    @Flag(name: .long, help: ArgumentHelp(tr("Print JSON instead of a table.")))
    var json = false

    @Option(name: .long, help: ArgumentHelp(tr("Seconds for the zoom script and for the idle measurement.")))
    var seconds = 5.0

    @Option(name: .long, help: ArgumentHelp(tr("Tile source for the runs."), valueName: "SOURCE"))
    var tiles = "basemap"

    // TRANSLATORS: auto, gpu, software and pixels are typed as they are: keep them.
    @Option(name: .long, help: ArgumentHelp(tr("Renderer for the runs: auto, gpu, software or pixels."), valueName: "KIND"))
    var renderer = RendererChoice.auto

    @Option(name: .long, help: ArgumentHelp(tr("A tile server's URL template to measure online tiles with (make bench runs a loopback one)."), valueName: "URL"))
    var online: String?

    @Option(name: .long, help: ArgumentHelp(tr("An OpenMapTiles-schema .mbtiles to measure street maps with (make bench uses the test extract)."), valueName: "FILE"))
    var vector: String?

    @Option(name: .long, help: ArgumentHelp(tr("A Protomaps-schema archive of the same area as --vector, to compare the two schemas' tiles (make bench uses the test fixture)."), valueName: "FILE"))
    var protomaps: String?

    @Option(name: .long, help: ArgumentHelp(tr("An OpenStreetMap extract to measure directions with (make bench uses the Andorra test extract)."), valueName: "FILE.osm.pbf"))
    var osm: String?

    // TRANSLATORS: the names of the parts (online, startup…) are typed as they are: keep them.
    @Option(name: .long, help: ArgumentHelp(tr("Only these parts, comma-separated: online, startup, busy, search, streets, basemap, vector, views, turn, pan, schemas, terrain, fit, tracks, window, large, route."), valueName: "PARTS"))
    var only: String?

    /// Whether the part `name` is measured in this run.
    func runs(_ name: String) -> Bool { only.map { $0.split(separator: ",").contains { $0 == name } } ?? true }

    struct Row: Codable {
        var name: String
        var value: Double
        var unit: String
        var target: String
    }

    func run() throws {
        var rows: [Row] = []
        // First, while this process holds nothing else: its memory after is the streaming's.
        if let online, runs("online") { rows += try onlineRows(online) }
        if runs("startup") { rows += try startupRows() }
        if runs("busy") { rows += try busyDesktopRows(vector: vector) + busyWindowRows() }
        if runs("search") { rows += try searchRows() }
        if runs("streets") { rows += try streetSearchRows() }
        if runs("basemap") { rows += try basemapRows() }
        if let vector, runs("vector") { rows += try vectorRows(vector) }
        if let vector, runs("views"), !runs("vector") { rows += try streetViewRows(vector) }
        if let vector, runs("turn") { rows += try turnRows(vector, at: Coordinate(latitude: 60.1690, longitude: 24.9440)) }
        if let vector, runs("pan") { rows += try panRows(vector, at: Coordinate(latitude: 60.1690, longitude: 24.9440)) }
        if let vector, let protomaps, runs("schemas") { rows += try schemaRows(openMapTiles: vector, protomaps: protomaps) }
        if runs("terrain") { rows += try terrainRows() }
        let track = "/tmp/meridian-bench-\(getpid())-track.gpx"
        defer { unlink(track) }
        if runs("fit") { rows += try fitRows() }
        if runs("tracks") || runs("window") { rows += try trackRows(keeping: track) }
        if runs("window") { rows += try windowRows(track: track) }
        if runs("large") { rows += try largeWindowRows() }
        if let osm, runs("route") { rows += try routeRows(osm: osm) }
        SDL.quit() // after the window and everything drawn with it are gone
        if json {
            let enc = JSONEncoder()
            enc.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try enc.encode(rows), as: UTF8.self))
        } else {
            func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count) }
            print(pad("metric", 58) + pad("value", 14) + "target")
            for r in rows {
                print(pad(r.name, 58) + pad(String(cFormat: "%.3f ", r.value) + r.unit, 14) + r.target)
            }
        }
    }

    /// Start-up: this binary started afresh, median of three, wall clock from spawn until the
    /// process exits right after its first present, and right after its first fully drawn
    /// frame (every visible tile and label) at 1280×800.
    private func startupRows() throws -> [Row] {
        [Row(name: "start to first present (median of 3)", value: try spawnMedian(["--tiles", tiles, "--center", "48.85,2.35", "--zoom", "5", "--exit-after-first-present"]) * 1000, unit: "ms", target: "≤ 250 ms"),
         Row(name: "start to fully drawn 1280×800 (median of 3)", value: try spawnMedian(["--tiles", tiles, "--center", "48.85,2.35", "--zoom", "5", "--exit-when-drawn"]) * 1000, unit: "ms", target: "≤ 400 ms")]
    }

    /// This binary started afresh three times with `args` (in a 1280×800 window, with a state
    /// folder of its own): the median wall time until it exits.
    func spawnMedian(_ args: [String]) throws -> Double {
        let exe = Resources.executablePath
        let state = "/tmp/meridian-bench-\(getpid())"
        defer { _ = rmdir(state + "/meridian"); _ = rmdir(state) }
        var env = ProcessInfo.processInfo.environment
        env["XDG_STATE_HOME"] = state
        var times: [Double] = []
        for _ in 0..<3 {
            let start = MonotonicClock.now
            let status = try spawnAndWait(exe, args + ["--renderer", renderer.rawValue, "--size", "1280x800"], env: env)
            guard status == 0 else { throw ValidationError(tr("start-up run failed (status %d)", status)) }
            times.append(MonotonicClock.now - start)
        }
        return times.sorted()[1]
    }

    /// Rasterizing basemap tiles, one at a time on this thread: every stored tile over Europe
    /// at z0–7 and over-zoomed tiles down to z12, each painted at 256 px from cold (decoding
    /// included, as a worker does the first time).
    private func basemapRows() throws -> [Row] {
        guard let url = Resources.url("basemap.mbtiles") else { return [] }
        let src = try MBTilesSource(path: url.path)
        var tiles: [TileID] = []
        let europe = WebMercator.mapRect(for: CoordinateRegion(center: Coordinate(latitude: 50, longitude: 10), latitudeDelta: 24, longitudeDelta: 40))
        for z in 0...7 { tiles += TileCover.tiles(covering: europe, tileZoom: z).map(\.wrapped) }
        let paris = WebMercator.mapRect(for: CoordinateRegion(center: Coordinate(latitude: 48.85, longitude: 2.35), latitudeDelta: 0.5, longitudeDelta: 0.8))
        for z in 8...12 { tiles += TileCover.tiles(covering: paris, tileZoom: z) }
        var times: [Double] = []
        for t in tiles {
            guard case let .vector(data, dataTile)? = try src.payload(for: t) else { continue }
            let painter = VectorTilePainter() // cold: no decoded-tile cache
            let start = DispatchTime.now()
            _ = try painter.paint(t, data: data, dataTile: dataTile, pixelSize: 256)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
        }
        var st = stat()
        let size = stat(url.path, &st) == 0 ? Int(st.st_size) : 0
        return [
            Row(name: "basemap tiles rasterized (256 px)", value: Double(times.count), unit: "", target: ""),
            Row(name: "basemap tile raster p50", value: FrameStats.percentile(times, 50) * 1000, unit: "ms", target: ""),
            Row(name: "basemap tile raster p99", value: FrameStats.percentile(times, 99) * 1000, unit: "ms", target: "≤ 15 ms"),
            Row(name: "basemap file size", value: Double(size) / 1_048_576, unit: "MiB", target: "≤ 8 MB"),
        ]
    }

    /// `track`: a GPX file whose track is drawn for one more run of the zoom script.
    private func windowRows(track: String) throws -> [Row] {
        let paris = Coordinate(latitude: 48.85, longitude: 2.35)
        let (host, start) = try benchWindow(width: 1920, height: 1080, renderer: renderer)

        let plain = zoomScript(host, from: start)
        // The same with the location annotation and 50 pulsing circles around it.
        host.change { $0.scene.location = LocationAnnotation(coordinate: paris, accuracy: 800, heading: 30) }
        var rng = SystemRandomNumberGenerator()
        host.change { $0.scene.circles = (0..<50).map { i in
            CircleOverlay(center: Coordinate(latitude: 48.85 + .random(in: -0.6...0.6, using: &rng), longitude: 2.35 + .random(in: -1...1, using: &rng)),
                          radiusMeters: .random(in: 300...3000, using: &rng), color: Color(hex: [0xFF3B30, 0x34C759, 0xFF9500, 0xAF52DE][i % 4]),
                          start: Double(i) * 0.016)
        } }
        let overlays = zoomScript(host, from: start)
        host.change { $0.scene.circles = [] }
        host.change { $0.scene.location = nil }
        // 10,000 pins over Europe in four colours, the same zoom script.
        host.change { $0.pins = (0..<10_000).map { i in
            Pin(id: "\(i)", coordinate: Coordinate(latitude: .random(in: 35...60, using: &rng), longitude: .random(in: -10...30, using: &rng)),
                title: "Pin \(i)", color: Color(hex: [0xFF3B30, 0x34C759, 0x007AFF, 0xAF52DE][i % 4]))
        } }
        let manyPins = zoomScript(host, from: start)
        host.change { $0.pins = [] }
        // The million-point track on screen, the same script over it.
        let (file, _) = try TrackFile.read(URL(fileURLWithPath: track), color: TrackStyle.palette[0])
        host.change { $0.scene.tracks.add(file) }
        let alps = Coordinate(latitude: 46, longitude: 7)
        var overTrack = start
        overTrack.setCenter(WebMercator.project(alps))
        quit(after: 1); host.run()
        let withTrack = zoomScript(host, from: overTrack, around: alps)
        host.change { $0.scene.tracks = TracksLayer() }
        let following = followRows(host, from: start, period: host.clock.period)
        let flying = flyRows(host, from: start, period: host.clock.period)
        host.change { $0.scene.location = LocationAnnotation(coordinate: paris, accuracy: 800, heading: 30) }

        // Idle, twice as long as the script: first with the location pulsing in view, then
        // with nothing animating. Tiles settle for a second before each.
        let idleSeconds = 2 * seconds
        host.change { $0.controller.camera = { var c = start; c.setZoom(12); c.setCenter(WebMercator.project(paris)); return c }() }
        quit(after: 1); host.run()
        var before = cpuSeconds()
        host.resetStats()
        quit(after: idleSeconds); host.run() // the pulse keeps the loop drawing, as it would have
        let pulseCPU = cpuSeconds() - before, pulseFrames = host.stats.presents, pulseStats = host.stats
        host.change { $0.scene.location = nil }
        quit(after: 1); host.run()
        host.resetStats()
        before = cpuSeconds()
        quit(after: idleSeconds); host.run(drawFirst: false)
        let idleCPU = cpuSeconds() - before, idleFrames = host.stats.presents
        let period = host.clock.period
        let idle = String(cFormat: "%.0f s", idleSeconds)
        return frameRows("zoom script", plain, period: period, withIntervals: true)
            + frameRows("with 1 location + 50 pulsing circles:", overlays, period: period, withIntervals: false)
            + frameRows("with 10,000 pins:", manyPins, period: period, withIntervals: false)
            + frameRows("with a 1,000,000-point track:", withTrack, period: period, withIntervals: false)
            + following
            + flying
            + [
                Row(name: "CPU over \(idle), location pulsing in view", value: pulseCPU, unit: "s", target: "≤ 1.0 s per 10 s"),
                Row(name: "frames over \(idle), location pulsing in view", value: Double(pulseFrames), unit: "", target: "vsync rate"),
            ] + FramePhase.allCases.map { phase in
                Row(name: "location pulsing: frame CPU p50, \(phase.rawValue)", value: (pulseStats.phases[phase]?.percentile(50) ?? .nan) * 1000, unit: "ms",
                    target: String(cFormat: "p99 %.2f", (pulseStats.phases[phase]?.percentile(99) ?? .nan) * 1000))
            } + [
                Row(name: "CPU over \(idle), nothing animating", value: idleCPU, unit: "s", target: "≤ 0.01 s per 5 s"),
                Row(name: "frames over \(idle), nothing animating", value: Double(idleFrames), unit: "", target: "0"),
            ]
    }

    /// Frame cost: the frame thread's CPU for each whole loop iteration (events, drain,
    /// compose, execute, present, uploads, sprites), and how evenly frames reached the screen.
    func frameRows(_ name: String, _ run: MeasuredRun, period: Double, withIntervals: Bool) -> [Row] {
        let s = run.stats
        var rows = [
            Row(name: "\(name) frames", value: Double(s.presents), unit: "", target: ""),
            Row(name: "\(name) frame CPU p50", value: s.frameCPU.percentile(50) * 1000, unit: "ms", target: ""),
            Row(name: "\(name) frame CPU p99", value: s.frameCPU.percentile(99) * 1000, unit: "ms", target: "≤ 4 ms"),
            Row(name: "\(name) frame CPU max", value: s.frameCPU.max * 1000, unit: "ms", target: ""),
            Row(name: "\(name) build to present p99 (wall)", value: s.buildTimes.percentile(99) * 1000, unit: "ms", target: ""),
            Row(name: "\(name) process CPU per frame, all threads", value: run.processCPU / Double(max(s.presents, 1)) * 1000, unit: "ms", target: "report"),
        ]
        if let server = run.serverCPU {
            // The X server draws the software path's frames (RENDER): its share is part of the cost.
            rows.append(Row(name: "\(name) X server CPU per frame", value: server / Double(max(s.presents, 1)) * 1000, unit: "ms", target: "report"))
        }
        // Where the frame thread's time goes (medians of each part, so they need not add up).
        rows += FramePhase.allCases.map { phase in
            Row(name: "\(name) frame CPU p50, \(phase.rawValue)", value: (s.phases[phase]?.percentile(50) ?? .nan) * 1000, unit: "ms", target: String(cFormat: "p99 %.2f", (s.phases[phase]?.percentile(99) ?? .nan) * 1000))
        }
        if withIntervals {
            rows += [
                Row(name: "\(name) present interval p50", value: s.presentIntervals.percentile(50) * 1000, unit: "ms",
                    target: String(cFormat: "period %.2f ms", period * 1000)),
                Row(name: "\(name) present interval p99", value: s.presentIntervals.percentile(99) * 1000, unit: "ms",
                    target: String(cFormat: "≤ %.2f ms", 2 * period * 1000)),
                Row(name: "\(name) present interval max", value: s.presentIntervals.max * 1000, unit: "ms", target: ""),
            ]
        }
        rows.append(Row(name: "\(name) present intervals > 2 periods", value: Double(s.presentIntervals.count(above: 2 * period)), unit: "", target: "0"))
        if !run.labelsMoved.isEmpty {
            rows.append(Row(name: "\(name) labels moved per frame, mean", value: run.labelsMoved.reduce(0, +) / Double(run.labelsMoved.count), unit: "",
                            target: String(cFormat: "max %.0f", run.labelsMoved.max() ?? 0)))
            rows.append(Row(name: "\(name) labels resized per frame, mean", value: run.labelsResized.reduce(0, +) / Double(max(run.labelsResized.count, 1)),
                            unit: "", target: String(cFormat: "max %.0f", run.labelsResized.max() ?? 0)))
        }
        return rows
    }

    /// A window of `width`×`height` over Paris at z3 with the bench's tiles and no live
    /// position, its first screen loaded (before the user can act; start-up has rows of its
    /// own); the host and the camera it starts from.
    func benchWindow(width: Int, height: Int, renderer: RendererChoice) throws -> (MapHost, Camera) {
        let window = try SDLWindow(title: "Meridian bench", width: width, height: height, renderer: renderer)
        let start = Camera(center: Coordinate(latitude: 48.85, longitude: 2.35), zoom: 3, viewportSize: window.size)
        let made = try Meridian.catalog.tiles(tiles, pixelRatio: window.pixelRatio)
        let session = makeSession(camera: start, tiles: made, tilesName: nil, overlays: try OverlayOptions.parse(["--no-location"]), pins: [])
        let host = try appHost(window: window, session: session, stack: made.stack)
        quit(after: 1)
        host.run()
        return (host, start)
    }

    /// z3 → z12 → z3 (or `zooms`) along a cosine over `seconds`, while the centre drifts east
    /// and north by `drift` degrees.
    /// Returns the frame statistics and the process's CPU over the script, all threads (tile
    /// workers, and on OpenGL llvmpipe's rasterizer threads, which the frame thread's CPU omits).
    func zoomScript(_ host: MapHost, from start: Camera, around center: Coordinate = Coordinate(latitude: 48.85, longitude: 2.35),
                    zooms: ClosedRange<Double> = 3...12, drift: (lat: Double, lon: Double) = (0.5, 1.0))
        -> MeasuredRun {
        let duration = seconds
        return scripted(host, seconds: duration) { e in
            var cam = start
            cam.setZoom(zooms.lowerBound + (zooms.upperBound - zooms.lowerBound) * (1 - cos(2 * .pi * e / duration)) / 2)
            cam.setCenter(WebMercator.project(Coordinate(latitude: center.latitude + drift.lat * e / duration, longitude: center.longitude + drift.lon * e / duration)))
            return cam
        }
    }

    /// The camera `at` gives for each frame's seconds since the first, for `duration`
    /// seconds: the frame statistics, the process's CPU over the script, all threads (tile
    /// workers, and on OpenGL llvmpipe's rasterizer threads, which the frame thread's CPU
    /// omits), and the labels that moved other than with the map, frame by frame.
    func scripted(_ host: MapHost, seconds duration: Double, _ at: @escaping (Double) -> Camera) -> MeasuredRun {
        host.resetStats()
        let server = XServerCPU()
        let serverBefore = server?.seconds
        let before = cpuSeconds()
        var t0: Double?
        var last: (camera: Camera, labels: [PlacedLabel])?
        var moved: [Double] = [], resized: [Double] = []
        host.script = { t in
            // The frame just drawn against the one before it.
            let drawn = (camera: host.session.camera, labels: host.session.lastFrame.placedLabels)
            if let last, last.camera != drawn.camera {
                let m = LabelMotion.moved(from: last, to: drawn)
                moved.append(Double(m.moved))
                resized.append(Double(m.resized))
            }
            last = drawn
            if t0 == nil { t0 = t }
            let e = t - t0!
            guard e <= duration else { return nil }
            return at(e)
        }
        host.run()
        let cpu = cpuSeconds() - before
        let serverCPU = serverBefore.flatMap { b in server?.seconds.map { $0 - b } }
        return MeasuredRun(stats: host.stats, processCPU: cpu, serverCPU: serverCPU, labelsMoved: moved, labelsResized: resized)
    }

    /// Ends the loop after `seconds` with a quit event from an SDL timer. A timer of an
    /// earlier run that ended otherwise (a script over) is cancelled, and a quit it already
    /// sent dropped: it would end this run early (a 10 s measure once ran 5 s).
    func quit(after seconds: Double) {
        if let previous = Self.quitTimer.value { SDL_RemoveTimer(previous) }
        SDL_FlushEvent(SDL_QUIT.rawValue)
        Self.quitTimer.value = SDL_AddTimer(UInt32(saturating: seconds * 1000), { _, _ in
            var e = SDL_Event()
            e.type = SDL_QUIT.rawValue
            SDL_PushEvent(&e)
            return 0
        }, nil)
    }

    /// The last quit timer (the bench runs on the main thread only).
    final class QuitTimer: @unchecked Sendable { var value: SDL_TimerID? }
    static let quitTimer = QuitTimer()

    func cpuSeconds() -> Double {
        var u = rusage()
        getrusage(RUSAGE_SELF.rawValue, &u)
        return Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6
    }
}

/// One measured run of frames: their statistics, the process's CPU over them (all threads),
/// and the X server's when it could be read.
struct MeasuredRun {
    var stats: FrameStats
    var processCPU: Double
    var serverCPU: Double? = nil
    /// Labels that moved other than with the map, and that changed size, per frame (`LabelMotion`).
    var labelsMoved: [Double] = []
    var labelsResized: [Double] = []
}

/// How many of a frame's labels moved other than with the map since the frame before: a
/// label drawn in both (`SameLabel`: its name, placed the same way, within a few points of
/// where the map took it) whose point
/// is more than a point from where the map took it, or whose text went to another side of
/// its dot. (A label whose text jumped in size — by more than 2 points between two frames,
/// as when sizes went with the tiles' zoom — is counted apart, as resized.)
enum LabelMotion {
    static func moved(from old: (camera: Camera, labels: [PlacedLabel]), to new: (camera: Camera, labels: [PlacedLabel])) -> (moved: Int, resized: Int) {
        var before: [SameLabel: [(anchor: ScreenPoint, side: PlacedLabel.Side, size: ScreenSize)]] = [:]
        for l in old.labels {
            let a = new.camera.screenPoint(for: old.camera.mapPoint(for: l.anchor))
            before[SameLabel(l), default: []].append((a, l.side, size(l)))
        }
        var moved = 0, resized = 0
        for l in new.labels {
            guard let near = before[SameLabel(l)]?.min(by: { distance($0.anchor, l.anchor) < distance($1.anchor, l.anchor) }),
                  SameLabel.near(near.anchor, l.anchor) else { continue }
            if distance(near.anchor, l.anchor) > 1 || near.side != l.side { moved += 1 }
            else if abs(near.size.width - size(l).width) > 2 || abs(near.size.height - size(l).height) > 2 { resized += 1 }
        }
        return (moved, resized)
    }

    /// A label's size as turning leaves it: its text's, or along a line, the length of its
    /// letters' path (the box around turned letters changes with the turn).
    static func size(_ l: PlacedLabel) -> ScreenSize {
        guard l.glyphs.count > 1 else { return ScreenSize(width: l.text.width, height: l.text.height) }
        // Along the letters, one to the next: the same however the line turns or curls.
        return ScreenSize(width: zip(l.glyphs, l.glyphs.dropFirst()).reduce(0) { $0 + distance($1.0.center, $1.1.center) }, height: 0)
    }

    static func distance(_ a: ScreenPoint, _ b: ScreenPoint) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }
}

/// Runs `path` with `args` and `env` and waits for it; returns its exit status.
func spawnAndWait(_ path: String, _ args: [String], env: [String: String]) throws -> Int32 {
    try spawnAndMeasure(path, args, env: env).status
}

/// Runs `path` with `args` and `env` and waits for it; returns its exit status and its peak
/// resident memory in bytes.
/// `stderrTo`: a file the child's standard error goes to (else it shares this one's).
func spawnAndMeasure(_ path: String, _ args: [String], env: [String: String], stderrTo: String? = nil) throws -> (status: Int32, peakRSS: Int) {
    func cStrings(_ list: [String]) -> [UnsafeMutablePointer<CChar>?] { list.map { strdup($0) } + [nil] }
    let argv = cStrings([path] + args), envp = cStrings(env.map { "\($0.key)=\($0.value)" })
    defer { for p in argv + envp { free(p) } }
    var pid = pid_t()
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let stderrTo { posix_spawn_file_actions_addopen(&actions, 2, stderrTo, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
    let rc = posix_spawn(&pid, path, &actions, nil, argv, envp)
    guard rc == 0 else { throw ValidationError(tr("cannot start %@: %@", path, FileIO.reason(rc))) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    // WIFEXITED / WEXITSTATUS, spelled out (they are C macros).
    return (status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f), usage.ru_maxrss * 1024)
}
