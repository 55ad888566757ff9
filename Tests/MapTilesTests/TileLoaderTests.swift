import Foundation
import MapGeometry
@testable import MapTiles
import Platform
import Testing
import TestSupport

/// Holds loads until opened and counts those that reached it: how a test knows a load is
/// under way without guessing how long starting one takes.
final class Gate: @unchecked Sendable {
    private let condition = Condition()
    private var isOpen = false
    private var count = 0
    var entered: Int { condition.lock(); defer { condition.unlock() }; return count }
    func pass() {
        condition.lock(); defer { condition.unlock() }
        count += 1
        while !isOpen { condition.wait() }
    }
    func open() { condition.lock(); isOpen = true; condition.broadcast(); condition.unlock() }
}

/// A source that counts requests and can be held at a gate or made to fail, in front of real threads.
final class CountingSource: TileSource, @unchecked Sendable {
    let lock = Lock()
    private var asked: [TileID] = []
    var requested: [TileID] { lock.lock(); defer { lock.unlock() }; return asked }
    let gate: Gate?
    let failing: Set<TileID>
    init(gate: Gate? = nil, failing: Set<TileID> = []) { self.gate = gate; self.failing = failing }
    var name: String { "counting" }
    var zoomRange: ClosedRange<Int> { 0...10 }
    var attribution: String { "" }
    func payload(for tile: TileID) throws -> TilePayload? {
        lock.lock(); asked.append(tile); lock.unlock()
        gate?.pass()
        if failing.contains(tile) { throw TileSourceError("broken") }
        return tile.x % 3 == 2 ? nil : .debugGrid(tile)
    }
}

struct TileLoaderTests {
    let tinyDecoder: TileDecoder = { tile, _ in DecodedTile(bitmap: Bitmap(width: 1, height: 1, pixels: [UInt32(tile.x)], premultiplied: false)) }

    func drainAll(_ l: TileLoader, expecting n: Int) -> [TileResult] {
        var out: [TileResult] = []
        let deadline = MonotonicClock.now + 10
        while out.count < n && MonotonicClock.now < deadline {
            _ = l.waitUntilIdle(deadline: deadline)
            out += l.drain()
        }
        return out
    }

    @Test func loadsEveryWantedTileOnceOnWorkers() {
        let src = CountingSource()
        let l = TileLoader(source: src, workers: 2, decode: tinyDecoder)
        let tiles = (0..<6).map { TileID(z: 3, x: $0, y: 1) }
        l.want(tiles)
        // Asked for again and again (as every frame does), none is loaded twice while it is
        // queued, loading or waiting to be drained.
        let deadline = MonotonicClock.now + 10
        while l.isLoading, MonotonicClock.now < deadline { l.want(tiles); usleep(200) }
        l.want(tiles)
        let results = drainAll(l, expecting: 6)
        #expect(Set(results.map(\.tile)) == Set(tiles))
        l.stop()
        #expect(src.requested.count == 6)
        for r in results {
            switch r.outcome {
            case .bitmap(let b, _): #expect(b.pixels == [UInt32(r.tile.x)])
            case .empty: #expect(r.tile.x % 3 == 2)
            case .failed, .fromAncestor: Issue.record("unexpected outcome \(r.outcome)")
            }
        }
    }

    /// A tile asked for wakes one idle worker, not every one: woken for everything, eight
    /// workers woke and slept again several times a frame of a pan.
    @Test func aTileAskedForWakesOneIdleWorker() {
        let l = TileLoader(source: CountingSource(), workers: 8, decode: tinyDecoder)
        func untilAllIdle() {
            let deadline = MonotonicClock.now + 10
            while l.idleWorkers < 8, MonotonicClock.now < deadline { usleep(200) }
        }
        untilAllIdle()
        #expect(l.workerWakeups == 0)
        l.want([TileID(z: 3, x: 0, y: 1)])
        #expect(drainAll(l, expecting: 1).count == 1)
        untilAllIdle()
        #expect(l.workerWakeups == 1)
        l.stop()
    }

    @Test func unwantedQueuedTilesAreCancelled() {
        let gate = Gate()
        let src = CountingSource(gate: gate)
        let l = TileLoader(source: src, workers: 1, decode: tinyDecoder)
        l.want((0..<10).map { TileID(z: 4, x: $0, y: 0) })
        // The first is under way (held at the gate), the nine others queued, when the view
        // moves on.
        #expect(waitUntil { gate.entered == 1 })
        l.want([TileID(z: 4, x: 9, y: 9)])
        gate.open()
        #expect(l.waitUntilIdle(deadline: MonotonicClock.now + 30))
        l.stop()
        #expect(src.requested == [TileID(z: 4, x: 0, y: 0), TileID(z: 4, x: 9, y: 9)])
    }

    @Test func failuresAreReportedOnceAndNotRetriedEveryFrame() {
        let bad = TileID(z: 2, x: 1, y: 1)
        let src = CountingSource(failing: [bad])
        let clock = LockedValue<Double>()
        clock.set(100)
        let l = TileLoader(source: src, workers: 2, decode: tinyDecoder, clock: { clock.get() ?? 0 })
        l.want([bad])
        let r = drainAll(l, expecting: 1)
        guard case .failed(let message)? = r.first?.outcome else { Issue.record("no failure"); return }
        #expect(message.contains("2/1/1") && message.contains("broken"))
        // Five frames within the wait (the clock stands still): not loaded again.
        for _ in 0..<5 { l.want([bad]) }
        #expect(l.waitUntilIdle(deadline: MonotonicClock.now + 30))
        l.stop()
        #expect(src.requested.count == 1)
    }

    /// A failed tile is asked for again once its wait is over (the network may be back), and
    /// the loader says when that is, so a still map can wake for it.
    @Test func aFailedTileIsTriedAgainAfterItsWait() {
        let bad = TileID(z: 2, x: 1, y: 1)
        let src = CountingSource(failing: [bad])
        let clock = LockedValue<Double>()
        clock.set(100)
        let l = TileLoader(source: src, workers: 1, decode: tinyDecoder, clock: { clock.get() ?? 0 })
        defer { l.stop() }
        l.want([bad])
        _ = drainAll(l, expecting: 1)
        l.want([bad])
        guard let retry = l.nextRetry else { Issue.record("no retry time"); return }
        // The first wait is 2 s, ±20 % of jitter.
        #expect(retry >= 101.6 && retry <= 102.4)
        // Just before the wait is over: not asked for again.
        clock.set(retry - 0.01)
        l.want([bad])
        #expect(l.waitUntilIdle(deadline: MonotonicClock.now + 30))
        #expect(src.requested.count == 1)
        // Once it is over: requested a second time, and the next wait is twice as long.
        clock.set(retry)
        l.want([bad])
        _ = drainAll(l, expecting: 1)
        #expect(src.requested.count == 2)
        l.want([bad])
        if let second = l.nextRetry { #expect(second >= retry + 3.2 && second <= retry + 4.8) } else { Issue.record("no second retry time") }
        // Nothing asked for: nothing to wake for.
        l.want([])
        #expect(l.nextRetry == nil)
    }

    @Test func tilesOutsideTheSourcesZoomsAreNotRequested() {
        let src = CountingSource()
        let l = TileLoader(source: src, workers: 1, decode: tinyDecoder)
        l.want([TileID(z: 15, x: 0, y: 0)])
        _ = l.waitUntilIdle(deadline: MonotonicClock.now + 2)
        l.stop()
        #expect(src.requested.isEmpty)
    }

    @Test func wakeIsCalledWhenResultsArrive() {
        let woke = Lock()
        nonisolated(unsafe) var count = 0
        let l = TileLoader(source: CountingSource(), workers: 2, decode: tinyDecoder, wake: { woke.lock(); count += 1; woke.unlock() })
        l.want([TileID(z: 1, x: 0, y: 0), TileID(z: 1, x: 1, y: 0)])
        _ = drainAll(l, expecting: 2)
        // The worker wakes the loop after queueing each result, so the second wake may come
        // just after the drain: wait for it.
        #expect(waitUntil { woke.lock(); defer { woke.unlock() }; return count >= 2 })
        l.stop()
        woke.lock(); #expect(count == 2); woke.unlock()
    }
}

struct DirectorySourceTests {
    @Test func findsZoomsAndFilesAndSaysWhatIsWrong() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("meridian-dir-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("2/1"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("4/3"), withIntermediateDirectories: true)
        try Data([0x89, 0x50]).write(to: dir.appendingPathComponent("2/1/1.png"))
        try Data().write(to: dir.appendingPathComponent("4/3/3.jpg"))
        let src = try DirectorySource(root: dir)
        #expect(src.dataZoomRange == 2...4 && src.zoomRange == 2...20)
        guard case .encodedImage(let d)? = try src.payload(for: TileID(z: 2, x: 1, y: 1)) else { Issue.record("no payload"); return }
        #expect(d == Data([0x89, 0x50]))
        #expect(try src.payload(for: TileID(z: 2, x: 0, y: 0)) == nil)
        #expect(throws: TileSourceError.self) { try src.payload(for: TileID(z: 4, x: 3, y: 3)) }
        #expect(throws: TileSourceError.self) { try DirectorySource(root: dir.appendingPathComponent("nope")) }
        #expect(throws: TileSourceError.self) { try DirectorySource(root: dir.appendingPathComponent("2/1")) }
        // Beyond the deepest zoom: the deepest ancestor's picture, to be enlarged.
        try Data([1, 2, 3]).write(to: dir.appendingPathComponent("4/3/2.png"))
        guard case let .encodedImageRegion(bytes, ancestor)? = try src.payload(for: TileID(z: 7, x: 24, y: 17)) else {
            Issue.record("no region beyond the deepest zoom"); return
        }
        #expect(bytes == Data([1, 2, 3]) && ancestor == TileID(z: 4, x: 3, y: 2))
        #expect(try src.payload(for: TileID(z: 7, x: 0, y: 0)) == nil)
    }
}

struct BitmapTests {
    @Test func unpremultiplyRestoresStraightAlpha() {
        // 50% red, premultiplied: 0x80800000 → straight 0x80FF0000.
        var b = Bitmap(width: 3, height: 1, pixels: [0x8080_0000, 0xFF12_3456, 0x0000_0000], premultiplied: true)
        b.unpremultiply()
        #expect(b.pixels == [0x80FF_0000, 0xFF12_3456, 0])
        #expect(!b.premultiplied)
        b.unpremultiply() // idempotent
        #expect(b.pixels[0] == 0x80FF_0000)
    }

    /// Tiles are laid over the map's colour so they can be copied without blending.
    @Test func flattenLaysPixelsOverTheBackground() {
        // Premultiplied: half-transparent red, opaque, clear, half-transparent black.
        var p = Bitmap(width: 4, height: 1, pixels: [0x8080_0000, 0xFF12_3456, 0x0000_0000, 0x8000_0000], premultiplied: true)
        p.flatten(over: 0x0000FF)
        #expect(p.pixels == [0xFF80_007F, 0xFF12_3456, 0xFF00_00FF, 0xFF00_007F])
        #expect(!p.premultiplied)
        // Straight alpha gives the same picture.
        var s = Bitmap(width: 2, height: 1, pixels: [0x80FF_0000, 0x0012_3456], premultiplied: false)
        s.flatten(over: 0x0000FF)
        #expect(s.pixels == [0xFF80_007F, 0xFF00_00FF])
        // In RGBA texture order the background's red and blue trade places too.
        var g = Bitmap(width: 1, height: 1, pixels: [0x0000_0000], premultiplied: true)
        g.convert(to: .abgr)
        g.flatten(over: 0x112233)
        #expect(g.pixels == [0xFF33_2211])
    }
}
