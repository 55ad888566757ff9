import Foundation
import MapGeometry
import MapNetwork
@testable import MapTiles
import Platform
import Testing

struct TileDiskCacheTests {
    let source = OnlineSource(name: "test", template: try! TileURLTemplate("http://127.0.0.1:1/{z}/{x}/{y}.png"),
                              attribution: "", zoomRange: 0...19)

    func withRoot(_ body: (String) throws -> Void) rethrows {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tilecache-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try body(root)
    }

    let t = TileID(z: 15, x: 16_974, y: 11_526)
    let fresh = HTTPFreshness(storable: true, expires: 2_000_000_000, etag: "\"e1\"", lastModified: "Sun, 06 Nov 1994 08:49:37 GMT")

    @Test func anEntryComesBackAsStored() throws {
        try withRoot { root in
            let cache = TileDiskCache(root: root, source: source)
            let body = Data((0..<5000).map { UInt8($0 % 251) })
            #expect(cache.store(body, freshness: fresh, for: t, now: 100))
            let e = try #require(cache.entry(for: t, now: 101))
            #expect(e.body == body && e.freshness == fresh)
            #expect(cache.entry(for: TileID(z: 15, x: 16_974, y: 11_527), now: 101) == nil)
            // A new cache on the same folder (the next start) finds it and its size.
            let again = TileDiskCache(root: root, source: source)
            #expect(again.entry(for: t, now: 102)?.body == body)
            #expect(again.totalBytes > 5000 && again.totalBytes < 5200)
        }
    }

    @Test func noStoreIsNotKeptAndHostileTilesAreRefused() throws {
        try withRoot { root in
            let cache = TileDiskCache(root: root, source: source)
            #expect(!cache.store(Data([1]), freshness: HTTPFreshness(storable: false, expires: 0), for: t, now: 0))
            #expect(!cache.store(Data([1]), freshness: fresh, for: TileID(z: 40, x: -1, y: 3), now: 0))
            #expect(!cache.store(Data(count: 3 << 20), freshness: fresh, for: t, now: 0))
            #expect(cache.entry(for: t, now: 0) == nil && cache.totalBytes == 0)
        }
    }

    @Test func aDamagedEntryIsDroppedAndCountsAsMissing() throws {
        try withRoot { root in
            let cache = TileDiskCache(root: root, source: source)
            for damage in ["flip", "cut", "garbage", "empty"] {
                #expect(cache.store(Data(repeating: 7, count: 900), freshness: fresh, for: t, now: 0))
                let p = cache.path(for: t)
                var bytes = try Data(contentsOf: URL(fileURLWithPath: p))
                switch damage {
                case "flip": bytes[bytes.count - 10] ^= 0xFF
                case "cut": bytes = bytes.prefix(bytes.count - 1)
                case "garbage": bytes = Data(repeating: 0x41, count: 200)
                default: bytes = Data()
                }
                try bytes.write(to: URL(fileURLWithPath: p))
                #expect(cache.entry(for: t, now: 1) == nil, "\(damage)")
                #expect(!FileManager.default.fileExists(atPath: p), "\(damage) left the file")
            }
        }
    }

    @Test func theLeastRecentlyUsedGoFirst() throws {
        try withRoot { root in
            let body = Data(repeating: 1, count: 10_000)
            // Room for about three entries.
            let cache = TileDiskCache(root: root, source: source, capacity: 31_000)
            let tiles = (0..<5).map { TileID(z: 10, x: $0, y: 0) }
            for (i, tile) in tiles.prefix(3).enumerated() { cache.store(body, freshness: fresh, for: tile, now: Double(i)) }
            // The first is used again: the second is now the least recent.
            #expect(cache.entry(for: tiles[0], now: 10) != nil)
            cache.store(body, freshness: fresh, for: tiles[3], now: 11)
            cache.store(body, freshness: fresh, for: tiles[4], now: 12)
            #expect(cache.totalBytes <= 31_000)
            #expect(cache.entry(for: tiles[0], now: 13) != nil && cache.entry(for: tiles[4], now: 13) != nil)
            #expect(cache.entry(for: tiles[1], now: 13) == nil)
        }
    }

    @Test func pathsStayInsideTheirSourcesFolder() throws {
        try withRoot { root in
            let cache = TileDiskCache(root: root, source: source)
            let other = TileDiskCache(root: root, source: OnlineSource(name: "test", template: try TileURLTemplate("http://127.0.0.1:2/{z}/{x}/{y}.png"),
                                                                   attribution: "", zoomRange: 0...19))
            // Another address of the same name is another folder: tiles never mix.
            #expect(cache.directory != other.directory)
            #expect(cache.directory.hasPrefix(root + "/test-") && !cache.directory.dropFirst(root.count).contains(".."))
            let deepest = TileID(z: 22, x: 4_194_303, y: 4_194_303)
            #expect(cache.path(for: deepest) == cache.directory + "/22/4194303/4194303.tile")
            #expect(TileDiskCache.defaultRoot(environment: ["XDG_CACHE_HOME": "/c"]) == "/c/meridian/tiles")
            #expect(TileDiskCache.defaultRoot(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/h"]) == "/h/.cache/meridian/tiles")
        }
    }

    @Test func a304RefreshKeepsTheBytesAndLeftoversAreCleared() throws {
        try withRoot { root in
            let cache = TileDiskCache(root: root, source: source)
            cache.store(Data([9, 9, 9]), freshness: HTTPFreshness(storable: true, expires: 50, etag: "\"a\""), for: t, now: 0)
            cache.refresh(t, with: HTTPFreshness(storable: true, expires: 5000), now: 60)
            let e = try #require(cache.entry(for: t, now: 61))
            #expect(e.body == Data([9, 9, 9]) && e.freshness.expires == 5000 && e.freshness.etag == "\"a\"")
            // A temporary file left by a crash (its writer, past the largest pid Linux gives,
            // is gone) is removed when the next start reads the folder; one that a running
            // writer is about to rename into place is not.
            let leftover = cache.path(for: t) + ".9999999.1.tmp"
            let underWay = cache.path(for: t) + ".\(getpid()).99.tmp"
            FileManager.default.createFile(atPath: leftover, contents: Data([1, 2]))
            FileManager.default.createFile(atPath: underWay, contents: Data([1, 2]))
            _ = TileDiskCache(root: root, source: source).totalBytes
            #expect(!FileManager.default.fileExists(atPath: leftover))
            #expect(FileManager.default.fileExists(atPath: underWay))
        }
    }

    /// Workers storing at once into a new cache keep every tile: the first to read the folder
    /// does not take the others' writes under way for a crash's leftovers (a tile fetched and
    /// drawn was then never kept).
    @Test func tilesStoredAtOnceAreAllKept() throws {
        for round in 0..<40 {
            try withRoot { root in
                let cache = TileDiskCache(root: root, source: source)
                let tiles = (0..<8).map { TileID(z: 10, x: $0, y: round) }
                let fresh = fresh
                inParallel(tiles.count, name: "store") { i in
                    cache.store(Data(repeating: UInt8(i), count: 4096), freshness: fresh, for: tiles[i], now: 0)
                }
                let lost = tiles.filter { cache.entry(for: $0, now: 1) == nil }
                #expect(lost.isEmpty, "round \(round): \(lost) lost")
            }
        }
    }
}
