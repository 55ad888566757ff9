import CSystem
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
    public init(bitmap: Bitmap, places: [PlaceLabel] = []) { self.bitmap = bitmap; self.places = places }
}

/// Turns a payload into pixels on a worker thread.
public typealias TileDecoder = @Sendable (TileID, TilePayload) throws -> DecodedTile

/// Loads tiles on worker threads. The frame loop says what it wants (most important first)
/// each frame; queued requests it no longer wants are cancelled; finished tiles wait in a
/// queue that the frame loop drains. `wake` is called (from a worker) when a result arrives
/// so that an idle loop can wake up.
public final class TileLoader: @unchecked Sendable {
    public let source: TileSource
    private let decode: TileDecoder
    private let wake: @Sendable () -> Void
    private let condition = Condition()
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

    public init(source: TileSource, workers count: Int? = nil,
                decode: @escaping TileDecoder, wake: @escaping @Sendable () -> Void = {}) {
        self.source = source
        self.decode = decode
        self.wake = wake
        for i in 0..<(count ?? source.concurrency) {
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
        condition.unlock()
        if !loading.isEmpty { source.cancel(loading) }
    }

    /// Replaces the queue with `tiles` (minus those loading or loaded); the rest is cancelled.
    public func want(_ tiles: [TileID]) {
        condition.lock()
        let now = MonotonicClock.now
        wanted = tiles
        // Loads under way for tiles that left the view (and its ring) are given up.
        var gone: [TileID] = []
        if !inFlight.isEmpty {
            let keep = Set(tiles)
            gone = inFlight.filter { !keep.contains($0) }
        }
        defer { if !gone.isEmpty { source.cancel(gone) } }
        queue = tiles.filter { source.zoomRange.contains($0.z) && !inFlight.contains($0)
            && !resultIDs.contains($0) && (failed[$0].map { $0.retryAt <= now } ?? true) }
        if !queue.isEmpty { condition.broadcast() }
        condition.unlock()
    }

    /// When the soonest failed tile of those last asked for may be tried again (`MonotonicClock`
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

    private func work() {
        // Tiles may wait; frames may not. On two cores the frame thread and the GL
        // rasterizer must win the CPU over tile workers.
        meridian_make_thread_background()
        while true {
            condition.lock()
            while queue.isEmpty && !stopping { condition.wait() }
            if stopping { condition.unlock(); return }
            let tile = queue.removeFirst()
            inFlight.insert(tile)
            condition.unlock()

            var outcome: TileResult.Outcome?
            do {
                if let payload = try source.payload(for: tile) {
                    do {
                        let d = try decode(tile, payload)
                        source.decoded(tile, payload: payload, ok: true)
                        outcome = .bitmap(d.bitmap, places: d.places)
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
                outcome = .failed("tile \(tile) from \(source.name): \(error)")
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
                failed[tile] = (count, MonotonicClock.now + wait)
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
