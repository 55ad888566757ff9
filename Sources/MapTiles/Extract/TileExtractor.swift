import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// How an extract is going.
public struct ExtractProgress: Sendable, Equatable {
    public var tilesDone: UInt64 = 0
    public var tilesTotal: UInt64 = 0
    /// Bytes of the tiles fetched (this run and earlier ones).
    public var bytesDone: UInt64 = 0
    /// Tiles fetched by this run, and how fast.
    public var tilesThisRun: UInt64 = 0
    public var tilesPerSecond: Double = 0
    public var secondsLeft: Double?
    /// Network requests made by this run.
    public var requests = 0
    /// Tiles an update found unchanged on the server (kept, not downloaded).
    public var unchanged: UInt64 = 0
    /// Tiles this run downloaded (not unchanged, not absent from the source).
    public var downloaded: UInt64 = 0
    public init() {}
}

/// Cuts an area out of a source into a `.pmtiles` or `.mbtiles` file. Tiles are fetched by a
/// few workers, zoom by zoom in archive order, and recorded in a journal beside the output
/// (`OUT.part/`), so an interrupted extract goes on where it stopped; the output appears, by
/// rename, only when every tile is in.
public final class TileExtractor: @unchecked Sendable { // its state and its journal under `lock`
    public let source: ExtractSource
    /// The area asked for, its zooms limited to those the source has.
    public let area: TileArea
    public let output: String
    public let partFolder: String
    private let plan: ExtractPlan
    private let journal: ExtractJournal
    private let lock = Lock()
    private var stopped = false
    private var cancelled = false
    /// This run's progress and first failure, under the lock.
    private var state = ExtractProgress()
    private var failure: Error?
    /// Why the journal of an earlier run was dropped (the map changed on the server since).
    public private(set) var startedAgain: String?
    /// When the tiles were fetched, as the saved area says (an update's is its own).
    private let savedAt: Double

    /// Prepares the extract: checks the output's kind, limits the zooms to the source's, and
    /// opens (or, with `restart`, begins afresh) the journal of an earlier run. A journal
    /// begun for another area or source is refused rather than mixed in; one begun against
    /// another revision of the same map (`ExtractSource.revision`) is dropped and begun
    /// again. `updating`: the output is a saved area being brought up to date, replaced
    /// when the update is whole.
    /// Whether an extract can be written to `output`: a .pmtiles or .mbtiles file.
    public static func writes(_ output: String) -> Bool { output.hasSuffix(".pmtiles") || output.hasSuffix(".mbtiles") }

    public init(source: ExtractSource, area: TileArea, output: String, title: String? = nil, restart: Bool = false,
                updating: Bool = false, now: Double = WallClock.now) throws {
        guard Self.writes(output) else {
            // TRANSLATORS: %@ is the file given.
            throw ExtractError.refused(tr("%@: an extract is written to a .pmtiles or .mbtiles file", output))
        }
        let lo = max(area.zooms.lowerBound, source.zoomRange.lowerBound), hi = min(area.zooms.upperBound, source.zoomRange.upperBound)
        guard lo <= hi else {
            // TRANSLATORS: %1$@ is a map source's name, %2$@…%3$@ the zooms it has, %4$@…%5$@ the zooms asked for.
            throw ExtractError.refused(tr("%1$@ has tiles at zooms %2$@…%3$@, none of %4$@…%5$@", source.name, source.zoomRange.lowerBound,
                                          source.zoomRange.upperBound, area.zooms.lowerBound, area.zooms.upperBound))
        }
        self.area = try TileArea(west: area.west, south: area.south, east: area.east, north: area.north, zooms: lo...hi)
        self.source = source
        self.output = output
        partFolder = output + ".part"
        plan = ExtractPlan(source: source.name, area: self.area, title: title, revision: source.revision, updating: updating)
        savedAt = now
        if restart { try Self.removeUnlocked(partFolder) }
        let planPath = partFolder + "/plan.json"
        if FileIO.exists(planPath) {
            let earlier = try ExtractPlan.read(planPath)
            guard earlier.sameCut(as: plan) else {
                throw ExtractError.unfinished(folder: partFolder, source: earlier.source, area: String(describing: try earlier.area))
            }
            if let was = earlier.revision, let now = plan.revision, was != now {
                // The tiles fetched are of another version of the map: mixing the two would
                // join roads that no longer meet.
                try Self.removeUnlocked(partFolder)
                // TRANSLATORS: %1$@ is a map source's name, %2$@ and %3$@ its versions then and now.
                startedAgain = tr("%1$@ changed on the server since this extract began (%2$@ → %3$@): begun again", source.name, Self.short(was), Self.short(now))
            }
        }
        if !FileIO.exists(planPath) {
            if let problem = FileIO.makeDirectories(partFolder) { throw ExtractError.failed(tr("%@: %@", partFolder, problem)) }
            try plan.write(planPath)
        }
        journal = try ExtractJournal(folder: partFolder)
    }

    /// A revision as a message shows it: its end, where versions differ.
    static func short(_ revision: String) -> String { revision.count <= 40 ? revision : "…" + revision.suffix(39) }

    /// Removes an unfinished extract's folder, unless another extract is writing it (its
    /// journal locked): then that is said, and nothing is removed.
    static func removeUnlocked(_ folder: String) throws {
        // No journal, no writer; one that is open holds its lock while this one is removed.
        let fd = open(folder + "/journal", O_RDWR | O_CLOEXEC)
        defer { if fd >= 0 { close(fd) } }
        guard fd < 0 || flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            throw ExtractError.refused(tr("%@ is being written by another extract of the same area; wait for it to finish", folder))
        }
        _ = FileIO.removeTree(folder)
    }

    /// Gives up an extract that never ran: its folder goes if nothing was fetched into it,
    /// so a save cancelled while it was being prepared leaves no unfinished one behind.
    public func abandon() {
        lock.lock(); defer { lock.unlock() }
        if journal.records.isEmpty { _ = FileIO.removeTree(partFolder) }
    }

    /// Tiles to fetch in all, and about how many bytes they take.
    public var estimate: (tiles: UInt64, bytes: UInt64) { (area.tileCount, area.estimatedBytes(perTile: source.bytesPerTile)) }

    /// Tiles an earlier run fetched already.
    public var resumedTiles: Int { journal.records.count }

    /// Stops the extract at its next step; what was fetched is kept.
    public func cancel() {
        lock.lock(); stopped = true; cancelled = true; lock.unlock()
        source.cancel()
    }

    private var isStopped: Bool {
        lock.lock(); defer { lock.unlock() }
        return stopped
    }

    /// Fetches every tile not yet fetched, then writes the output. `progress` is called from
    /// the workers after each batch. Throws `ExtractError` (cancelled, diskFull, refused,
    /// failed); the journal keeps what was fetched for the next run.
    @discardableResult
    public func run(progress: @escaping @Sendable (ExtractProgress) -> Void = { _ in }) throws -> ExtractProgress {
        state = ExtractProgress()
        state.tilesTotal = area.tileCount
        state.tilesDone = UInt64(journal.records.count)
        state.bytesDone = journal.records.reduce(0) { $0 + UInt64($1.length) }
        let done = Set(journal.records.map(\.tileID))
        let queue = BatchQueue(area: area, done: done, batchSize: source.batchSize)
        let start = MonotonicClock.now, requestsBefore = source.requests
        failure = nil
        let workers = (0..<max(1, source.concurrency)).map { n in
            Joinable(name: "extract-\(n)") { [self] in
                while !isStopped, let batch = queue.next() {
                    do {
                        let tiles = try source.fetch(batch)
                        lock.lock()
                        defer { lock.unlock() }
                        guard failure == nil else { return }
                        for (id, tile) in zip(batch, tiles) {
                            try journal.add(id, tile.data, validator: tile.validator)
                            state.bytesDone += UInt64(tile.data?.count ?? 0)
                            if tile.unchanged { state.unchanged += 1 } else if tile.data != nil { state.downloaded += 1 }
                        }
                        state.tilesDone += UInt64(batch.count)
                        state.tilesThisRun += UInt64(batch.count)
                        let elapsed = max(0.001, MonotonicClock.now - start)
                        state.tilesPerSecond = Double(state.tilesThisRun) / elapsed
                        state.secondsLeft = Double(state.tilesTotal &- min(state.tilesDone, state.tilesTotal)) / max(0.001, state.tilesPerSecond)
                        state.requests = source.requests - requestsBefore
                        progress(state)
                    } catch {
                        lock.lock()
                        if failure == nil { failure = error }
                        stopped = true
                        lock.unlock()
                        source.cancel()
                        return
                    }
                }
            }
        }
        for w in workers { w.join() }
        // What was fetched is made durable whatever happened, so the next run keeps it.
        let committed = Result { try journal.commit() }
        lock.lock(); let byUser = cancelled; lock.unlock()
        // A worker's failure after a cancel (a request given up) is the cancel, not a fault.
        if byUser { try committed.get(); throw ExtractError.cancelled }
        if let failure { throw failure }
        try committed.get()
        try finish()
        var result = state
        result.requests = source.requests - requestsBefore
        return result
    }

    /// Writes the output from the journal beside it, renames it into place, and removes the
    /// journal.
    private func finish() throws {
        let records = journal.records
        let sample = try records.first { !$0.absent }.map { try journal.data(of: $0) }
        let (type, compression) = source.kind(sniffing: sample)
        let temporary = AtomicFile.temporaryName(for: output)
        do {
            if output.hasSuffix(".mbtiles") {
                try writeMBTiles(records, type: type, compression: compression, to: temporary)
            } else {
                // The validators first, under the token the archive will name: a crash between
                // the two renames leaves validators the archive does not claim, never the
                // reverse.
                let token = TileValidators.newToken()
                let info = PMTilesWriter.Info(tileType: type, tileCompression: compression, area: area, metadata: try metadataJSON(token: token))
                _ = try PMTilesWriter.write(records, read: journal.data(of:), info: info, to: temporary)
                try TileValidators.write(journal.validators, for: output, token: token)
            }
            try AtomicFile.publish(temporary, as: output)
        } catch {
            unlink(temporary)
            throw error
        }
        _ = FileIO.removeTree(partFolder)
    }

    /// The source's metadata, with the saved area's own entry: where it was cut from, when,
    /// of which revision and data date, and the token of its validators.
    func metadataJSON(token: String? = nil) throws -> Data {
        var meta = source.metadata
        var mine: [String: JSONValue] = [
            "source": .string(plan.source), "bbox": .array(plan.bbox.map { .number($0) }),
            "minzoom": .number(Double(area.zooms.lowerBound)), "maxzoom": .number(Double(area.zooms.upperBound)),
        ]
        if let title = plan.title { mine["title"] = .string(title) }
        if let day = ExtractDates.day(of: savedAt) { mine["saved"] = .string(day) }
        if let day = source.dataDate { mine["dataDate"] = .string(day) }
        if let revision = plan.revision { mine["revision"] = .string(revision) }
        if let token, !journal.validators.isEmpty { mine["validators"] = .string(token) }
        meta["meridian"] = .object(mine)
        return try JSONEncoder().encode(JSONValue.object(meta))
    }

    private func writeMBTiles(_ records: [ExtractJournal.Record], type: PMTilesHeader.TileType,
                              compression: PMTilesHeader.Compression, to path: String) throws {
        let writer = try MBTilesWriter(path: path)
        let format = [PMTilesHeader.TileType.mvt: "pbf", .png: "png", .jpeg: "jpg", .webp: "webp"][type] ?? "pbf"
        let meta = source.metadata
        func text(_ key: String) -> String? { if case let .string(s)? = meta[key] { return s } else { return nil } }
        var rows = ["format": format, "minzoom": "\(area.zooms.lowerBound)", "maxzoom": "\(area.zooms.upperBound)",
                    "name": plan.title ?? text("name") ?? plan.source,
                    "bounds": area.crossesAntimeridian ? "-180,\(area.south),180,\(area.north)" : "\(area.west),\(area.south),\(area.east),\(area.north)"]
        if let a = text("attribution") { rows["attribution"] = a }
        if let layers = meta["vector_layers"], let json = try? JSONEncoder().encode(JSONValue.object(["vector_layers": layers])) {
            rows["json"] = String(decoding: json, as: UTF8.self)
        }
        for (k, v) in rows.sorted(by: { $0.key < $1.key }) { try writer.metadata(k, v) }
        for r in records where !r.absent {
            guard let tile = PMTilesTileID.tile(for: r.tileID) else { continue }
            var data = try journal.data(of: r)
            // MBTiles holds vector tiles gzipped.
            if type == .mvt, compression == .none { data = try Gzip.compress([UInt8](data)) }
            try writer.tile(tile, data)
        }
        try writer.finish()
    }
}

/// The tiles still to fetch, handed out in batches: zoom by zoom, in archive order, skipping
/// those fetched already. One zoom's ids are held at a time.
private final class BatchQueue: @unchecked Sendable { // under `lock`
    private let lock = Lock()
    private let area: TileArea
    private let done: Set<UInt64>
    private let batchSize: Int
    private var zoom: Int
    private var ids = [UInt64]()
    private var at = 0

    init(area: TileArea, done: Set<UInt64>, batchSize: Int) {
        self.area = area
        self.done = done
        self.batchSize = max(1, batchSize)
        zoom = area.zooms.lowerBound - 1
    }

    func next() -> [UInt64]? {
        lock.lock(); defer { lock.unlock() }
        while at >= ids.count {
            zoom += 1
            guard zoom <= area.zooms.upperBound else { return nil }
            ids = area.tileIDs(atZoom: zoom).filter { !done.contains($0) }
            at = 0
        }
        let batch = Array(ids[at..<min(at + batchSize, ids.count)])
        at += batch.count
        return batch
    }
}
