import FoundationEssentials
import Glibc
import Platform
import MapCore
import MapGeometry

/// The outcome of loading one tile, handed from a worker to the frame loop.
public struct TileResult: Sendable {
    public enum Outcome: Sendable {
        case bitmap(Bitmap, places: [PlaceLabel])
        /// The source has nothing there; the background shows through.
        case empty
        /// The source has nothing there, and the tile is drawn as the part of this ancestor's
        /// picture over it (a server's tiles past its deepest zoom): enlarged by whoever draws
        /// it, not here.
        case fromAncestor(TileID)
        case failed(String)
    }
    public let tile: TileID
    public let outcome: Outcome
}

/// Pixels for a tile, and the named places inside it (for labels drawn in screen space).
public struct DecodedTile: Sendable {
    public var bitmap: Bitmap
    /// What the tile offers to label: the basemap's towns, a style's names.
    public var places: [PlaceLabel]
    /// Nothing was decoded: the tile is drawn from this ancestor's picture (`bitmap` is empty).
    public var drawnFrom: TileID?
    public init(bitmap: Bitmap, places: [PlaceLabel] = []) { self.bitmap = bitmap; self.places = places }

    /// A tile drawn as part of `ancestor`'s picture, enlarged where it is drawn.
    public static func part(of ancestor: TileID) -> DecodedTile {
        var d = DecodedTile(bitmap: Bitmap(width: 0, height: 0, pixels: [], premultiplied: true))
        d.drawnFrom = ancestor
        return d
    }
}

/// Turns a payload into pixels on a worker thread.
public typealias TileDecoder = @Sendable (TileID, TilePayload) throws -> DecodedTile

/// Loads tiles on worker threads. The frame loop says what it wants (most important first)
/// each frame; queued requests it no longer wants are cancelled; finished tiles wait in a
/// queue that the frame loop drains. `wake` is called (from a worker) when a result arrives
/// so that an idle loop can wake up.
///
/// Tiles of the ring around the view are loaded ahead, after those in view. A ring tile that
/// is a picture (PNG, JPEG, WebP) is kept as it came, a few KB, and decoded only when it comes
/// into view, as a browser does: decoding one takes a millisecond, and decoded it would hold
/// a quarter MiB. Vector tiles cost ten or more milliseconds to draw, so ring ones are drawn
/// ahead as before.
public final class TileLoader: @unchecked Sendable {
    public let source: TileSource
    private let decode: TileDecoder
    private let wake: @Sendable () -> Void
    /// What time it is for retry waits (`MonotonicClock` unless a test turns its own clock).
    private let clock: @Sendable () -> Double
    private let condition: Condition
    /// What idle workers wait on (on `condition`'s lock): a tile queued wakes one of them.
    /// Woken with everything else (each tile done, each frame's wants), eight workers woke and
    /// slept again many times a frame: on two cores, a tenth of a pan's CPU.
    private let queued: Condition
    private var queue: [TileID] = []
    private var inFlight = Set<TileID>()
    private var results: [TileResult] = []
    private var resultIDs = Set<TileID>()
    private var stopping = false
    /// Failures are not retried every frame: each tile waits 2 s, then twice as long after
    /// each failure, up to a minute, jittered (a server that was down is not hit in step).
    private var failed: [TileID: (count: Int, retryAt: Double)] = [:]
    /// What the frame loop asked for last.
    private var wanted: [TileID] = []
    /// Which queued tiles are the ring's.
    private var ahead = Set<TileID>()
    /// Ring tiles loaded but not decoded: their pictures as they came.
    private var kept: [TileID: TilePayload] = [:]
    private var keptBytes = 0
    /// Kept pictures beyond this are let go (the ring of a 4K view at a fractional zoom fits).
    static let keptLimit = 8 << 20

    /// Decoding is work for the processors: no more tiles at once than there are of them,
    /// however many workers wait on the network (each decode holds its picture, a quarter
    /// MiB or more, and its decoder's buffers while it runs).
    private let decodeSlots = max(1, ProcessInfo.processInfo.activeProcessorCount)
    private var decoding = 0
    private let workers: Int
    /// Workers waiting for a tile, and how often one woke to look for one (for the tests).
    private var idle = 0, wakeups = 0
    var idleWorkers: Int { condition.lock(); defer { condition.unlock() }; return idle }
    var workerWakeups: Int { condition.lock(); defer { condition.unlock() }; return wakeups }

    public init(source: TileSource, workers count: Int? = nil,
                decode: @escaping TileDecoder, wake: @escaping @Sendable () -> Void = {},
                clock: @escaping @Sendable () -> Double = { MonotonicClock.now }) {
        self.source = source
        self.clock = clock
        self.decode = decode
        self.wake = wake
        condition = Condition()
        queued = Condition(sharingLockOf: condition)
        workers = count ?? source.concurrency
        for i in 0..<workers {
            startThread(name: "tiles.\(i)") { [weak self] in self?.work() }
        }
    }

    deinit { stop() }

    /// Ends the workers once their tile is done; loads waiting on the network are given up.
    public func stop() {
        condition.lock()
        stopping = true
        queue.removeAll()
        let loading = Array(inFlight)
        condition.broadcast()
        queued.broadcast()
        condition.unlock()
        if !loading.isEmpty { source.cancel(loading) }
    }

    /// Replaces the queue with `tiles` (minus those loading or loaded), then the ring `around`
    /// them; the rest is cancelled, and kept ring pictures neither asks for are let go.
    public func want(_ tiles: [TileID], around ring: [TileID] = []) {
        condition.lock()
        let now = clock()
        wanted = tiles
        let all = ring.isEmpty ? Set(tiles) : Set(tiles).union(ring)
        // Loads under way for tiles that left the view (and its ring) are given up.
        var gone: [TileID] = []
        if !inFlight.isEmpty { gone = inFlight.filter { !all.contains($0) } }
        var dropped: [TileID] = []
        if !kept.isEmpty {
            for (t, p) in kept where !all.contains(t) {
                dropped.append(t)
                keptBytes -= p.byteCount
            }
            for t in dropped { kept[t] = nil }
        }
        defer {
            if !gone.isEmpty { source.cancel(gone) }
            for t in dropped { source.abandoned(t) }
        }
        let loadable = { (t: TileID) in self.source.zoomRange.contains(t.z) && !self.inFlight.contains(t)
            && !self.resultIDs.contains(t) && (self.failed[t].map { $0.retryAt <= now } ?? true) }
        queue = tiles.filter(loadable)
        ahead = Set(ring.filter { loadable($0) && kept[$0] == nil })
        queue += ring.filter { ahead.contains($0) }
        for _ in 0..<min(queue.count, workers) { queued.signal() }
        condition.unlock()
    }

    /// When the soonest failed tile of those last asked for may be tried again (in the clock's
    /// seconds): a still map wakes then, so tiles come in when the network is back. Nil when
    /// none waits.
    public var nextRetry: Double? {
        condition.lock(); defer { condition.unlock() }
        guard !failed.isEmpty else { return nil }
        return wanted.lazy.compactMap { self.failed[$0]?.retryAt }.min()
    }

    /// Nothing queued, loading or waiting to be drained: every tile asked for is in (or failed).
    public var isIdle: Bool {
        condition.lock(); defer { condition.unlock() }
        return queue.isEmpty && inFlight.isEmpty && results.isEmpty
    }

    /// Tiles asked for are still queued or being made.
    public var isLoading: Bool {
        condition.lock(); defer { condition.unlock() }
        return !queue.isEmpty || !inFlight.isEmpty
    }

    /// Tiles asked for in view (not the ring around it) are still queued or being made.
    public var isLoadingInView: Bool {
        condition.lock(); defer { condition.unlock() }
        guard !queue.isEmpty || !inFlight.isEmpty else { return false }
        let pending = inFlight.union(queue)
        return wanted.contains(where: pending.contains)
    }

    public var hasResults: Bool {
        condition.lock(); defer { condition.unlock() }
        return !results.isEmpty
    }

    /// Takes up to `max` finished tiles, oldest first.
    public func drain(max: Int = .max) -> [TileResult] {
        condition.lock(); defer { condition.unlock() }
        let n = Swift.min(max, results.count)
        let out = Array(results.prefix(n))
        results.removeFirst(n)
        for r in out { resultIDs.remove(r.tile) }
        return out
    }

    /// Blocks until nothing is queued or loading, or `deadline` (`MonotonicClock` seconds)
    /// passes. For headless renders.
    public func waitUntilIdle(deadline: Double) -> Bool {
        condition.lock(); defer { condition.unlock() }
        while !queue.isEmpty || !inFlight.isEmpty {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }

    /// Whether the kept pictures have room for `payload` (else the tile is decoded now).
    private func hasRoom(for payload: TilePayload) -> Bool {
        condition.lock(); defer { condition.unlock() }
        return keptBytes + payload.byteCount <= Self.keptLimit
    }

    /// Keeps a ring tile's picture undecoded, and ends its load.
    private func keep(_ payload: TilePayload, for tile: TileID) {
        condition.lock(); defer { condition.unlock() }
        inFlight.remove(tile)
        kept[tile] = payload
        keptBytes += payload.byteCount
        condition.broadcast()
    }

    /// A picture whose header and (PNG) chunks are whole: worth keeping to decode later. What
    /// is not is decoded now, so that its failure is known and said at once.
    static func looksWhole(_ payload: TilePayload) -> Bool {
        let data: Data
        switch payload {
        case let .encodedImage(d), let .encodedImageRegion(d, _): data = d
        case .vector, .debugGrid, .terrain, .styled, .drawings: return false
        }
        guard let header = try? ImageHeader(data, maxSide: ImageHeader.maxTileSide) else { return false }
        return header.format != .png || (try? ImageHeader.checkPNGChunks(data)) != nil
    }

    private func takeDecodeSlot() {
        condition.lock()
        while decoding >= decodeSlots { condition.wait() }
        decoding += 1
        condition.unlock()
    }

    private func giveDecodeSlot() {
        condition.lock()
        decoding -= 1
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        // Tiles may wait a frame; frames may not: on two cores the frame thread must win the
        // CPU over tile workers. Yet on a busy desktop the view's tiles must not starve.
        ThreadPriority.inView.apply()
        var workingAhead = false
        while true {
            condition.lock()
            while queue.isEmpty && !stopping {
                idle += 1
                queued.wait()
                idle -= 1
                wakeups += 1
            }
            if stopping { condition.unlock(); return }
            let tile = queue.removeFirst()
            let isAhead = ahead.remove(tile) != nil
            // The ring's tiles come after the view's in the queue, and yield while they load.
            if isAhead != workingAhead {
                workingAhead = isAhead
                ThreadPriority.workingAhead(isAhead)
            }
            let keptPayload = kept.removeValue(forKey: tile)
            if let keptPayload { keptBytes -= keptPayload.byteCount }
            inFlight.insert(tile)
            condition.unlock()

            var outcome: TileResult.Outcome?
            do {
                if let payload = try keptPayload ?? source.payload(for: tile) {
                    if isAhead, Self.looksWhole(payload), hasRoom(for: payload) {
                        // The source hears of it before the load ends (so before anyone
                        // waiting for the loader to settle goes on).
                        source.keptAhead(tile, payload: payload)
                        keep(payload, for: tile)
                        continue
                    }
                    takeDecodeSlot()
                    defer { giveDecodeSlot() }
                    do {
                        let d = try decode(tile, payload)
                        source.decoded(tile, payload: payload, ok: true)
                        outcome = d.drawnFrom.map { .fromAncestor($0) } ?? .bitmap(d.bitmap, places: d.places)
                    } catch {
                        source.decoded(tile, payload: payload, ok: false)
                        throw error
                    }
                } else {
                    outcome = .empty
                }
            } catch is TileLoadCancelled {
                outcome = nil
            } catch {
                // TRANSLATORS: %1$@ is a tile's z/x/y, %2$@ a map source's name, %3$@ what went wrong.
                outcome = .failed(tr("tile %1$@ from %2$@: %3$@", tile, source.name, error))
            }

            condition.lock()
            inFlight.remove(tile)
            guard let outcome else {
                // Given up, not failed: asked for again only if the view comes back to it.
                condition.broadcast()
                condition.unlock()
                continue
            }
            if case .failed = outcome {
                let count = (failed[tile]?.count ?? 0) + 1
                let wait = min(60, 2 * Double(1 << min(count - 1, 5))) * Double.random(in: 0.8...1.2)
                failed[tile] = (count, clock() + wait)
            } else {
                failed[tile] = nil
            }
            results.append(TileResult(tile: tile, outcome: outcome))
            resultIDs.insert(tile)
            condition.broadcast()
            condition.unlock()
            wake()
        }
    }
}
