import Foundation
import MapGeometry
import MapTiles
import Platform
import Testing
import TestSupport

/// A source of pictures (or of vector tiles): counts what is asked of it and what the loader
/// let go of undecoded.
final class PictureSource: TileSource, @unchecked Sendable {
    let lock = Lock()
    private var asked: [TileID] = []
    private var dropped: [TileID] = []
    private var keptTiles: [TileID] = []
    var kept: [TileID] { lock.lock(); defer { lock.unlock() }; return keptTiles }
    var requested: [TileID] { lock.lock(); defer { lock.unlock() }; return asked }
    var abandonedTiles: [TileID] { lock.lock(); defer { lock.unlock() }; return dropped }
    let vector: Bool
    /// A real picture (the loader keeps only pictures whose header and chunks are whole).
    let picture: Data
    init(vector: Bool = false, picture: Data? = nil) {
        self.vector = vector
        self.picture = picture ?? (try! Data(contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/images/rgb-3x5.png")))
    }
    var name: String { "pictures" }
    var zoomRange: ClosedRange<Int> { 0...10 }
    var attribution: String { "" }
    func payload(for tile: TileID) throws -> TilePayload? {
        lock.lock(); asked.append(tile); lock.unlock()
        return vector ? .vector(Data(repeating: UInt8(tile.x), count: 2000), tile: tile) : .encodedImage(picture)
    }
    func abandoned(_ tile: TileID) { lock.lock(); dropped.append(tile); lock.unlock() }
    func keptAhead(_ tile: TileID, payload: TilePayload) { lock.lock(); keptTiles.append(tile); lock.unlock() }
}

/// Counts decodes, from any worker.
final class DecodeCount: @unchecked Sendable {
    private let lock = Lock()
    private var tiles: [TileID] = []
    var decoded: [TileID] { lock.lock(); defer { lock.unlock() }; return tiles }
    func add(_ t: TileID) { lock.lock(); tiles.append(t); lock.unlock() }
}

struct TileLoaderRingTests {
    let a = TileID(z: 4, x: 1, y: 1), b = TileID(z: 4, x: 2, y: 1), c = TileID(z: 4, x: 3, y: 1), d = TileID(z: 4, x: 9, y: 9)

    func loader(_ src: PictureSource, _ count: DecodeCount) -> TileLoader {
        TileLoader(source: src, workers: 2, decode: { tile, _ in
            count.add(tile)
            return DecodedTile(bitmap: Bitmap(width: 1, height: 1, pixels: [UInt32(tile.x)], premultiplied: false))
        })
    }

    func settle(_ l: TileLoader) -> [TileID] {
        #expect(l.waitUntilIdle(deadline: MonotonicClock.now + 10))
        return l.drain().map(\.tile)
    }

    @Test func ringPicturesAreFetchedAheadAndDecodedOnlyWhenInView() {
        let src = PictureSource(), count = DecodeCount()
        let l = loader(src, count)
        l.want([a], around: [b, c])
        #expect(settle(l) == [a])
        #expect(Set(src.requested) == [a, b, c] && count.decoded == [a])
        // The source hears of both, so that it may cache them without a decode.
        #expect(Set(src.kept) == [b, c])
        // b comes into view (a, decoded, is no longer asked for): b is decoded from what was
        // kept, not fetched again.
        l.want([b], around: [c])
        #expect(settle(l) == [b])
        #expect(src.requested.count == 3 && Set(count.decoded) == [a, b])
        // The next frame (b ready now) asks for the ring alone: c is kept, so nothing more is
        // fetched or decoded.
        l.want([], around: [c])
        #expect(settle(l).isEmpty && src.requested.count == 3 && count.decoded.count == 2)
        // The view leaves c's neighbourhood: its kept picture is let go, and the source told.
        l.want([d])
        #expect(settle(l) == [d])
        #expect(src.abandonedTiles == [c])
        // Back again, c is fetched anew.
        l.want([c])
        #expect(settle(l) == [c])
        #expect(src.requested.filter { $0 == c }.count == 2)
        l.stop()
    }

    @Test func aRingPictureThatIsNotWholeIsDecodedAtOnce() {
        // Cut short: its failure is known (and said) now, not when it comes into view.
        let whole = try! Data(contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/images/rgb-3x5.png"))
        let src = PictureSource(picture: whole.prefix(whole.count - 20)), count = DecodeCount()
        let l = loader(src, count)
        l.want([], around: [b])
        #expect(settle(l) == [b] && count.decoded == [b] && src.kept.isEmpty)
        l.stop()
    }

    @Test func ringVectorTilesAreDrawnAhead() {
        let src = PictureSource(vector: true), count = DecodeCount()
        let l = loader(src, count)
        l.want([a], around: [b])
        var got: [TileID] = []
        let deadline = MonotonicClock.now + 10
        while got.count < 2 && MonotonicClock.now < deadline { got += settle(l) }
        #expect(Set(got) == [a, b] && Set(count.decoded) == [a, b])
        l.stop()
    }
}
