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
        abstract: tr("Save an area of a map for offline use, as a .pmtiles or .mbtiles file."),
        // TRANSLATORS: "basemap", "bulkDownload": true, SOURCE, AREA.pmtiles and the paths are typed as they are: keep them.
        discussion: tr("SOURCE is a .pmtiles address (read with range requests), a local .pmtiles or .mbtiles file, \"basemap\", or a map of sources.json whose entry says \"bulkDownload\": true. The tile servers of OpenStreetMap and OpenTopoMap forbid bulk downloads and are refused. Interrupted (Ctrl+C, a crash, a full disk), the same command goes on where it stopped; the file appears only when it is complete. Saved into ~/.local/share/meridian/areas, an area is listed in the window's map switcher and drawn beneath its map when offline. --update AREA.pmtiles brings a saved area up to date from the map it was cut from: a tile server is asked whether each tile changed, and only those that did are downloaded; the area is replaced when the update is whole. Exit status: 0 done, 64 wrong input or a refused source, 74 disk full, 130 interrupted."))

    @Option(name: .long, help: ArgumentHelp(tr("The map to cut from."), valueName: "SOURCE"))
    var from: String?

    @Option(name: .long, help: ArgumentHelp(tr("The area: west,south,east,north in degrees (west > east crosses the antimeridian)."), valueName: "W,S,E,N"))
    var bbox: String?

    @Option(name: .long, help: ArgumentHelp(tr("The shallowest zoom saved (0 when not given).")))
    var minzoom: Int?

    @Option(name: .long, help: ArgumentHelp(tr("The deepest zoom saved.")))
    var maxzoom: Int?

    @Option(name: .long, help: ArgumentHelp(tr("The file to write."), valueName: "FILE.pmtiles|FILE.mbtiles"))
    var out: String?

    @Option(name: .long, help: ArgumentHelp(tr("Bring a saved area up to date (instead of --from, --bbox, --maxzoom and --out)."), valueName: "AREA.pmtiles"))
    var update: String?

    @Option(name: .long, help: ArgumentHelp(tr("What the map switcher calls the area.")))
    var title: String?

    @Flag(name: .long, help: ArgumentHelp(tr("Begin afresh, dropping what an interrupted run (of another area, or of the update) left.")))
    var restart = false

    @Flag(name: .long, help: ArgumentHelp(tr("Directions offline too: routing data for the area, cut from the smallest OpenStreetMap extract that holds it (Geofabrik's index, or routing.json's \"extracts\"), built beside the file (FILE.routing).")))
    var directions = false

    @Flag(name: .long, help: ArgumentHelp(tr("With --directions: download an extract larger than 500 MB without asking.")))
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
            warn("extract: " + Self.said(e))
            throw ExitCode(Self.exitCode(e))
        } catch {
            warn("extract: \(error)")
            throw ExitCode(Self.usage)
        }
        let (tiles, bytes) = extractor.estimate
        let out = extractor.output
        if let again = extractor.startedAgain { print(again) }
        let count = Int(clamping: tiles), grouped = TrackStatistics.grouped(Double(tiles)), about = Self.size(bytes), zooms = extractor.area.zooms
        // English says "tiles" also for 1, as it always has.
        if update == nil {
            // TRANSLATORS: %2$@ is a number of tiles (grouped: 12,345), %3$@ a size, %4$@ the map's name, %5$d–%6$d the zooms, %7$@ the file.
            print(trn("Extracting %2$@ tiles (about %3$@) of %4$@, zooms %5$d–%6$d, into %7$@", "Extracting %2$@ tiles (about %3$@) of %4$@, zooms %5$d–%6$d, into %7$@",
                      count, grouped, about, extractor.source.name, zooms.lowerBound, zooms.upperBound, out))
        } else {
            // TRANSLATORS: %2$@ is a number of tiles (grouped: 12,345), %3$@ a size, %4$@ the map's name, %5$d–%6$d the zooms, %7$@ the file.
            print(trn("Updating %2$@ tiles (about %3$@) of %4$@, zooms %5$d–%6$d, into %7$@", "Updating %2$@ tiles (about %3$@) of %4$@, zooms %5$d–%6$d, into %7$@",
                      count, grouped, about, extractor.source.name, zooms.lowerBound, zooms.upperBound, out))
        }
        if extractor.resumedTiles > 0 {
            // TRANSLATORS: %2$@ is the number of tiles (grouped: 12,345).
            print(trn("Going on from an interrupted run: %2$@ tiles fetched already", "Going on from an interrupted run: %2$@ tiles fetched already",
                      extractor.resumedTiles, TrackStatistics.grouped(Double(extractor.resumedTiles))))
        }
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
            let written = Self.size(UInt64(max(0, FileIO.fileSize(out)))), done = TrackStatistics.grouped(Double(p.tilesDone))
            let seconds = String(cFormat: "%.1f", elapsed), rate = TrackStatistics.grouped(Double(p.tilesThisRun) / elapsed)
            if update == nil {
                // TRANSLATORS: %1$@ is the file, %2$@ its size, %3$@ the tiles in it, %4$@ seconds, %5$@ tiles a second, %6$d requests made.
                print(tr("Wrote %1$@: %2$@, %3$@ tiles, in %4$@ s (%5$@ tiles/s, %6$d requests)", out, written, done, seconds, rate, p.requests))
            } else {
                // TRANSLATORS: %1$@ is the file, %2$@ its size, %3$@ the tiles in it, %4$@ the tiles that had not changed, %5$@ seconds, %6$@ tiles a second, %7$d requests made.
                print(tr("Wrote %1$@: %2$@, %3$@ tiles, %4$@ unchanged, in %5$@ s (%6$@ tiles/s, %7$d requests)",
                         out, written, done, TrackStatistics.grouped(Double(p.unchanged)), seconds, rate, p.requests))
            }
            // Directions offline too (with --update, built again from the region's newest extract).
            let a = extractor.area
            if directions {
                try buildDirections(AreaRouting.Box(west: a.west, south: a.south, east: a.east, north: a.north), beside: out)
            }
        case let .failure(e as ExtractError):
            warn("extract: " + Self.said(e))
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
                throw ExtractError.refused(tr("--update takes the map, box, zooms, file and title from the saved area: give none of --from, --bbox, --minzoom, --maxzoom, --out, --title (Rename in the window's Saved areas renames it)"))
            }
            let area: SavedArea
            do { area = try SavedArea(path: update) } catch { throw ExtractError.refused("--update \(update): \(error)") }
            guard let extractor = try area.updater(from: try ExtractSources.open(area.source), restart: restart) else {
                // TRANSLATORS: %1$@ is the area's title, %2$@ the map it was cut from.
                print(tr("%1$@ is up to date: %2$@ has not changed since it was saved", area.title, area.source))
                return nil
            }
            return extractor
        }
        guard let from, let bbox, let maxzoom, let out else {
            throw ExtractError.refused(tr("name --from, --bbox, --maxzoom and --out (or --update a saved area)"))
        }
        let minzoom = self.minzoom ?? 0
        guard (0...TileArea.maxZoom).contains(minzoom), (0...TileArea.maxZoom).contains(maxzoom), minzoom <= maxzoom else {
            throw TileArea.Invalid(tr("--minzoom %d --maxzoom %d: zooms within 0…%d, the lower first", minzoom, maxzoom, TileArea.maxZoom))
        }
        // The library's sentences name the values; the option they were typed in is said here.
        let area: TileArea
        do { area = try TileArea(bbox: bbox, zooms: minzoom...maxzoom) } catch let e as TileArea.Invalid { throw TileArea.Invalid("--bbox: " + e.description) }
        guard TileExtractor.writes(out) else {
            // TRANSLATORS: --out is an option's name, %@ the file given.
            throw ExtractError.refused(tr("--out %@: name a .pmtiles or .mbtiles file", out))
        }
        return try TileExtractor(source: try ExtractSources.open(from), area: area, output: out, title: title, restart: restart)
    }

    /// Routing data for the area `box` of the file `out`, built into `out.routing`; progress and
    /// what went wrong on the terminal.
    private func buildDirections(_ box: AreaRouting.Box, beside out: String) throws {
        let env = ProcessInfo.processInfo.environment
        let programs: RoutinoPrograms
        switch RoutinoPrograms.find(environment: env) {
        case let .success(p): programs = p
        case let .failure(e): warn("extract: " + tr("no directions offline: %@", e)); throw ExitCode(1)
        }
        let (config, problem) = RoutingConfig.load(environment: env)
        if let problem { warn(problem) }
        let routing = AreaRouting(config: config, programs: programs, userAgent: Meridian.userAgent, offline: Meridian.catalog.isOffline, environment: env)
        var lastShare = -1
        let result = routing.build(box, into: AreaRouting.directory(forArea: FileIO.absolute(out)), environment: env, confirm: { name, bytes in
            // Asked above 500 MB: on a terminal, else --yes says it.
            let size = Self.size(UInt64(max(0, bytes)))
            if yes { return true }
            guard isatty(STDIN_FILENO) == 1 else {
                // TRANSLATORS: %1$@ is the extract's region (Slovenia), %2$@ its size.
                warn("extract: " + tr("the smallest extract that holds the area is %1$@, %2$@: add --yes to download it", name, size))
                return false
            }
            // TRANSLATORS: %1$@ is the extract's region (Slovenia), %2$@ its size. An answer beginning with y is a yes: keep [y/N].
            print(tr("The smallest extract that holds the area is %1$@, %2$@. Download it? [y/N] ", name, size), terminator: "")
            return readLine()?.trimmed.lowercased().hasPrefix("y") == true
        }, progress: { stage in
            switch stage {
            // TRANSLATORS: %@ is the address of the index of extracts.
            case .finding: print(tr("Finding the smallest extract that holds the area in %@", config.extracts))
            case let .downloading(region, done, total) where done == 0 || lastShare < 0:
                lastShare = 0
                // TRANSLATORS: %1$@ is the extract's region (Slovenia), %2$@ its size, %3$d a percentage done.
                print(tr("Downloading %1$@ (%2$@): %3$d %%", region, Self.size(UInt64(max(0, total))), done > 0 ? Int(saturating: (100 * Double(done) / Double(max(total, 1))).rounded(.down)) : 0))
            case let .downloading(region, done, total):
                let share = total > 0 ? Int(saturating: (100 * Double(done) / Double(total)).rounded(.down)) : 100
                // TRANSLATORS: %1$@ is the extract's region (Slovenia), %2$d a percentage done.
                if share / 10 != lastShare / 10 { lastShare = share; print(tr("Downloading %1$@: %2$d %%", region, share)) }
            case .cutting: print(tr("Cutting the area out with osmium"))
            case .building: print(tr("Building the routing database with Routino"))
            }
        })
        switch result {
        case let .success((db, report)):
            // TRANSLATORS: %1$@ is the database's folder, %2$@ its size, %3$@ seconds.
            print(tr("Directions offline: %1$@ (%2$@), built in %3$@ s", db.directory, Self.size(UInt64(max(0, report.bytes))), String(cFormat: "%.1f", report.seconds)))
        case let .failure(e):
            warn("extract: " + tr("no directions offline: %@", e))
            throw ExitCode(1)
        }
    }

    static func exitCode(_ e: ExtractError) -> Int32 {
        switch e {
        case .cancelled: return interrupted
        case .diskFull: return diskFull
        case .refused: return usage
        case .failed: return 1
        case .unfinished: return usage
        }
    }

    /// What went wrong, in the command line's words: an unfinished extract in the way is
    /// begun afresh with --restart.
    static func said(_ e: ExtractError) -> String {
        guard case let .unfinished(folder, source, area) = e else { return e.description }
        // TRANSLATORS: %1$@ is a folder, %2$@ a map source's name, %3$@ its area ("24.90000,60.15000,24.98000,60.19000 z0–14"); --restart is an option's name.
        return tr("%1$@ holds an unfinished extract of %2$@ (%3$@), not this one: run that again to finish it, or add --restart to begin this one afresh",
                  folder, source, area)
    }

    static func size(_ bytes: UInt64) -> String {
        // TRANSLATORS: a size in gigabytes (%@ is the number: 1.2).
        bytes >= 1 << 30 ? tr("%@ GB", String(cFormat: "%.1f", Double(bytes) / 1e9))
            // TRANSLATORS: a size in megabytes (%@ is the number: 12.3).
            : bytes >= 1 << 20 ? tr("%@ MB", String(cFormat: "%.1f", Double(bytes) / 1e6))
            // TRANSLATORS: a size in kilobytes (%@ is the number: 850).
            : tr("%@ kB", String(cFormat: "%.0f", Double(bytes) / 1e3))
    }
}

/// The extract's progress on stdout: a bar redrawn in place on a terminal, a plain line every
/// few seconds otherwise (a log, a pipe).
private final class ProgressLine: @unchecked Sendable { // its counters under `lock`
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
        let done = TrackStatistics.grouped(Double(p.tilesDone)), total = TrackStatistics.grouped(Double(p.tilesTotal))
        let size = Extract.size(p.bytesDone), rate = TrackStatistics.grouped(p.tilesPerSecond)
        let text: String
        if let left = p.secondsLeft, left.isFinite, !complete {
            let time = "\(Int(saturating: left.rounded()) / 60):" + String(cFormat: "%02d", Int(saturating: left.rounded()) % 60)
            // TRANSLATORS: tiles done/in all · bytes saved · tiles a second · the time left (M:SS).
            text = tr("%1$@/%2$@ tiles · %3$@ · %4$@ tiles/s · %5$@ left", done, total, size, rate, time)
        } else {
            // TRANSLATORS: tiles done/in all · bytes saved · tiles a second.
            text = tr("%1$@/%2$@ tiles · %3$@ · %4$@ tiles/s", done, total, size, rate)
        }
        if tty {
            let width = 30, filled = min(width, max(0, Int(saturating: (min(1, fraction) * Double(width)).rounded(.down))))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            print("\r\u{1B}[K\(bar) \(String(cFormat: "%3.0f", fraction * 100))% \(text)", terminator: "")
        } else {
            print(text)
        }
        fflush(nil) // every output stream: stdout is C's global, which Swift 6 will not read from here
        shown = true
    }

    func finish() {
        lock.lock(); defer { lock.unlock() }
        if tty && shown { print("") }
        done = true
    }
}
