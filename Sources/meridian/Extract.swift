import ArgumentParser
import CSystem
import FoundationEssentials
import Glibc
import MapCore
import MapRouting
import MapTiles
import Platform

/// `meridian extract`: saves an area of a map into a `.pmtiles` or `.mbtiles` file, to use
/// offline. Interrupted, it goes on where it stopped when run again.
struct Extract: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Save an area of a map for offline use, as a .pmtiles or .mbtiles file.",
        discussion: """
        SOURCE is a .pmtiles address (read with range requests), a local .pmtiles or .mbtiles
        file, "basemap", or a map of sources.json whose entry says "bulkDownload": true. The
        tile servers of OpenStreetMap and OpenTopoMap forbid bulk downloads and are refused.
        Interrupted (Ctrl+C, a crash, a full disk), the same command goes on where it stopped;
        the file appears only when it is complete. Saved into ~/.local/share/meridian/areas,
        an area is listed in the window's map switcher and drawn beneath its map when offline.
        --update AREA.pmtiles brings a saved area up to date from the map it was cut from:
        a tile server is asked whether each tile changed, and only those that did are
        downloaded; the area is replaced when the update is whole.
        Exit status: 0 done, 64 wrong input or a refused source, 74 disk full, 130 interrupted.
        """)

    @Option(name: .long, help: ArgumentHelp("The map to cut from.", valueName: "SOURCE"))
    var from: String?

    @Option(name: .long, help: ArgumentHelp("The area: west,south,east,north in degrees (west > east crosses the antimeridian).", valueName: "W,S,E,N"))
    var bbox: String?

    @Option(name: .long, help: "The shallowest zoom saved (0 when not given).")
    var minzoom: Int?

    @Option(name: .long, help: "The deepest zoom saved.")
    var maxzoom: Int?

    @Option(name: .long, help: ArgumentHelp("The file to write.", valueName: "FILE.pmtiles|FILE.mbtiles"))
    var out: String?

    @Option(name: .long, help: ArgumentHelp("Bring a saved area up to date (instead of --from, --bbox, --maxzoom and --out).", valueName: "AREA.pmtiles"))
    var update: String?

    @Option(name: .long, help: "What the map switcher calls the area.")
    var title: String?

    @Flag(name: .long, help: "Begin afresh, dropping what an interrupted run (of another area, or of the update) left.")
    var restart = false

    @Flag(name: .long, help: "Directions offline too: routing data for the area, cut from the smallest OpenStreetMap extract that holds it (Geofabrik's index, or routing.json's \"extracts\"), built beside the file (FILE.routing).")
    var directions = false

    @Flag(name: .long, help: "With --directions: download an extract larger than 500 MB without asking.")
    var yes = false

    /// Exit statuses (sysexits.h).
    static let usage: Int32 = 64, diskFull: Int32 = 74, interrupted: Int32 = 130

    func run() throws {
        let extractor: TileExtractor
        do {
            guard let made = try makeExtractor() else {
                // Up to date already: the routing data may still be asked for.
                if directions, let update, let area = try? SavedArea(path: update) {
                    try buildDirections(AreaRouting.Box(west: area.west, south: area.south, east: area.east, north: area.north), beside: update)
                }
                return
            }
            extractor = made
        } catch let e as ExtractError {
            warn("extract: \(e)")
            throw ExitCode(Self.exitCode(e))
        } catch {
            warn("extract: \(error)")
            throw ExitCode(Self.usage)
        }
        let (tiles, bytes) = extractor.estimate
        let out = extractor.output
        if let again = extractor.startedAgain { print(again) }
        print("\(update == nil ? "Extracting" : "Updating") \(TrackStatistics.grouped(Double(tiles))) tiles (about \(Self.size(bytes))) of \(extractor.source.name), zooms \(extractor.area.zooms.lowerBound)–\(extractor.area.zooms.upperBound), into \(out)")
        if extractor.resumedTiles > 0 { print("Going on from an interrupted run: \(TrackStatistics.grouped(Double(extractor.resumedTiles))) tiles fetched already") }
        let bar = ProgressLine(tty: isatty(STDOUT_FILENO) == 1)
        meridian_watch_interrupts()
        let job = Joinable(name: "extract") { () -> Result<ExtractProgress, Error> in
            Result { try extractor.run { bar.show($0) } }
        }
        let watcher = Joinable(name: "interrupts") { () -> Bool in
            while !bar.finished {
                if meridian_interrupted() != 0 { extractor.cancel(); return true }
                usleep(50_000)
            }
            return false
        }
        let outcome = job.join()
        bar.finish()
        _ = watcher.join()
        switch outcome {
        case let .success(p):
            let elapsed = max(0.001, bar.elapsed)
            let unchanged = update == nil ? "" : ", \(TrackStatistics.grouped(Double(p.unchanged))) unchanged"
            print("Wrote \(out): \(Self.size(UInt64(max(0, FileIO.fileSize(out))))), \(TrackStatistics.grouped(Double(p.tilesDone))) tiles\(unchanged), in \(String(cFormat: "%.1f", elapsed)) s (\(TrackStatistics.grouped(Double(p.tilesThisRun) / elapsed)) tiles/s, \(p.requests) requests)")
            // Directions offline too (with --update, built again from the region's newest extract).
            let a = extractor.area
            if directions {
                try buildDirections(AreaRouting.Box(west: a.west, south: a.south, east: a.east, north: a.north), beside: out)
            }
        case let .failure(e as ExtractError):
            warn("extract: \(e)")
            throw ExitCode(Self.exitCode(e))
        case let .failure(e):
            warn("extract: \(e)")
            throw ExitCode(1)
        }
    }

    /// The extract asked for: a new one, or an update (nil: the area is current already).
    private func makeExtractor() throws -> TileExtractor? {
        if let update {
            guard from == nil, bbox == nil, minzoom == nil, maxzoom == nil, out == nil, title == nil else {
                throw ExtractError.refused("--update takes the map, box, zooms, file and title from the saved area: give none of --from, --bbox, --minzoom, --maxzoom, --out, --title (Rename in the window's Saved areas renames it)")
            }
            let area: SavedArea
            do { area = try SavedArea(path: update) } catch { throw ExtractError.refused("--update \(update): \(error)") }
            guard let extractor = try area.updater(from: try ExtractSources.open(area.source), restart: restart) else {
                print("\(area.title) is up to date: \(area.source) has not changed since it was saved")
                return nil
            }
            return extractor
        }
        guard let from, let bbox, let maxzoom, let out else {
            throw ExtractError.refused("name --from, --bbox, --maxzoom and --out (or --update a saved area)")
        }
        let minzoom = self.minzoom ?? 0
        guard (0...TileArea.maxZoom).contains(minzoom), (0...TileArea.maxZoom).contains(maxzoom), minzoom <= maxzoom else {
            throw TileArea.Invalid("--minzoom \(minzoom) --maxzoom \(maxzoom): zooms within 0…\(TileArea.maxZoom), the lower first")
        }
        let area = try TileArea(bbox: bbox, zooms: minzoom...maxzoom)
        return try TileExtractor(source: try ExtractSources.open(from), area: area, output: out, title: title, restart: restart)
    }

    /// Routing data for the area `box` of the file `out`, built into `out.routing`; progress and
    /// what went wrong on the terminal.
    private func buildDirections(_ box: AreaRouting.Box, beside out: String) throws {
        let env = ProcessInfo.processInfo.environment
        let programs: RoutinoPrograms
        switch RoutinoPrograms.find(environment: env) {
        case let .success(p): programs = p
        case let .failure(e): warn("extract: no directions offline: \(e)"); throw ExitCode(1)
        }
        let (config, problem) = RoutingConfig.load(environment: env)
        if let problem { warn(problem) }
        let routing = AreaRouting(config: config, programs: programs, userAgent: Meridian.userAgent, environment: env)
        var lastShare = -1
        let result = routing.build(box, into: AreaRouting.directory(forArea: FileIO.absolute(out)), environment: env, confirm: { name, bytes in
            // Asked above 500 MB: on a terminal, else --yes says it.
            let size = Self.size(UInt64(max(0, bytes)))
            if yes { return true }
            guard isatty(STDIN_FILENO) == 1 else {
                warn("extract: the smallest extract that holds the area is \(name), \(size): add --yes to download it")
                return false
            }
            print("The smallest extract that holds the area is \(name), \(size). Download it? [y/N] ", terminator: "")
            return readLine()?.trimmed.lowercased().hasPrefix("y") == true
        }, progress: { stage in
            switch stage {
            case .finding: print("Finding the smallest extract that holds the area in \(config.extracts)")
            case let .downloading(region, done, total) where done == 0 || lastShare < 0:
                lastShare = 0
                print("Downloading \(region) (\(Self.size(UInt64(max(0, total))))): \(done > 0 ? Int(saturating: (100 * Double(done) / Double(max(total, 1))).rounded(.down)) : 0) %")
            case let .downloading(region, done, total):
                let share = total > 0 ? Int(saturating: (100 * Double(done) / Double(total)).rounded(.down)) : 100
                if share / 10 != lastShare / 10 { lastShare = share; print("Downloading \(region): \(share) %") }
            case .cutting: print("Cutting the area out with osmium")
            case .building: print("Building the routing database with Routino")
            }
        })
        switch result {
        case let .success((db, report)):
            print("Directions offline: \(db.directory) (\(Self.size(UInt64(max(0, report.bytes))))), built in \(String(cFormat: "%.1f", report.seconds)) s")
        case let .failure(e):
            warn("extract: no directions offline: \(e)")
            throw ExitCode(1)
        }
    }

    static func exitCode(_ e: ExtractError) -> Int32 {
        switch e {
        case .cancelled: return interrupted
        case .diskFull: return diskFull
        case .refused: return usage
        case .failed: return 1
        }
    }

    static func size(_ bytes: UInt64) -> String {
        bytes >= 1 << 30 ? String(cFormat: "%.1f GB", Double(bytes) / 1e9)
            : bytes >= 1 << 20 ? String(cFormat: "%.1f MB", Double(bytes) / 1e6) : String(cFormat: "%.0f kB", Double(bytes) / 1e3)
    }
}

/// The extract's progress on stdout: a bar redrawn in place on a terminal, a plain line every
/// few seconds otherwise (a log, a pipe).
private final class ProgressLine: @unchecked Sendable {
    private let tty: Bool
    private let lock = Lock()
    private let start = MonotonicClock.now
    private var last = -Double.infinity
    private var shown = false
    private var done = false

    init(tty: Bool) { self.tty = tty }

    var elapsed: Double { MonotonicClock.now - start }
    var finished: Bool {
        lock.lock(); defer { lock.unlock() }
        return done
    }

    func show(_ p: ExtractProgress) {
        let now = MonotonicClock.now
        lock.lock(); defer { lock.unlock() }
        let complete = p.tilesDone >= p.tilesTotal
        guard now - last >= (tty ? 0.1 : 5) || complete else { return }
        last = now
        let fraction = p.tilesTotal > 0 ? Double(p.tilesDone) / Double(p.tilesTotal) : 1
        var text = "\(TrackStatistics.grouped(Double(p.tilesDone)))/\(TrackStatistics.grouped(Double(p.tilesTotal))) tiles · \(Extract.size(p.bytesDone)) · \(TrackStatistics.grouped(p.tilesPerSecond)) tiles/s"
        if let left = p.secondsLeft, left.isFinite, !complete { text += " · \(Int(saturating: left.rounded()) / 60):" + String(cFormat: "%02d", Int(saturating: left.rounded()) % 60) + " left" }
        if tty {
            let width = 30, filled = min(width, max(0, Int(saturating: (min(1, fraction) * Double(width)).rounded(.down))))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            print("\r\u{1B}[K\(bar) \(String(cFormat: "%3.0f", fraction * 100))% \(text)", terminator: "")
        } else {
            print(text)
        }
        fflush(stdout)
        shown = true
    }

    func finish() {
        lock.lock(); defer { lock.unlock() }
        if tty && shown { print("") }
        done = true
    }
}
