import Foundation
import MapGeometry
import MapNetwork
import MapTiles
import Testing
import TestSupport

/// Archives built to hurt: each is refused with a sentence that names the archive and the
/// fault, never a trap, a hang or a huge allocation.
struct PMTilesHostileTests {
    typealias Entry = PMTilesFixture.Entry

    static var plain: PMTilesFixture.Options {
        var o = PMTilesFixture.Options()
        o.gzipDirectories = false
        return o
    }

    /// The error opening `bytes` and reading tile 0/0/0, as text; nil when nothing failed.
    static func failure(_ bytes: Data, tile: TileID = TileID(z: 0, x: 0, y: 0)) -> String? {
        do {
            let archive = try PMTilesArchive(reader: DataRangeReader(bytes), name: "hostile.pmtiles")
            _ = try archive.tileData(tile)
            _ = try PMTilesSource(archive: archive, name: "x").payload(for: tile)
            return nil
        } catch {
            return "\(error)"
        }
    }

    static func expectFailure(_ bytes: Data, _ words: String, tile: TileID = TileID(z: 0, x: 0, y: 0)) {
        let message = failure(bytes, tile: tile)
        #expect(message?.hasPrefix("hostile.pmtiles: ") == true, "\(message ?? "no error")")
        #expect(message?.contains(words) == true, "\(message ?? "no error") lacks '\(words)'")
    }

    static let good = PMTilesFixture.archive([(0, 0, 0, Data("world".utf8))])

    @Test func theGoodArchiveOpens() { #expect(Self.failure(Self.good) == nil) }

    @Test func badMagic() {
        var b = Self.good
        b[0] = UInt8(ascii: "X")
        Self.expectFailure(b, "not a PMTiles archive")
    }

    @Test func version2IsRefused() {
        Self.expectFailure(PMTilesFixture.assemble(root: PMTilesFixture.encode([]), leaves: Data(), tileData: Data(), version: 2),
                           "version 2 is not supported")
    }

    @Test func tooShort() {
        Self.expectFailure(Self.good.prefix(60), "too short")
        Self.expectFailure(Data(), "too short")
    }

    @Test func truncatedArchiveSectionsLiePastTheEnd() {
        Self.expectFailure(Self.good.prefix(Self.good.count - 1), "past the end of the archive")
    }

    @Test func sectionOffsetsThatOverflow() {
        var b = Self.good
        for i in 8..<16 { b[i] = 0xFF } // root offset near 2⁶⁴
        Self.expectFailure(b, "past the end of the archive")
    }

    @Test func aLeafThatPointsAtItself() {
        // The leaf is 5 bytes: one entry, a leaf at offset 0 of length 5: itself.
        let leaf = PMTilesFixture.encode([Entry(tileID: 0, offset: 0, length: 5, runLength: 0)])
        #expect(leaf.count == 5)
        let root = PMTilesFixture.encode([Entry(tileID: 0, offset: 0, length: 5, runLength: 0)])
        Self.expectFailure(PMTilesFixture.assemble(root: root, leaves: Data(leaf), tileData: Data(), options: Self.plain),
                           "points back to itself")
    }

    @Test func leavesNestedTooDeep() {
        // A chain of leaves 0 → 5 → 10 → 15 → 20 …, each pointing at the next.
        var leaves = Data()
        for i in 0..<6 { leaves += PMTilesFixture.encode([Entry(tileID: 0, offset: UInt64(5 * (i + 1)), length: 5, runLength: 0)]) }
        let root = PMTilesFixture.encode([Entry(tileID: 0, offset: 0, length: 5, runLength: 0)])
        Self.expectFailure(PMTilesFixture.assemble(root: root, leaves: leaves, tileData: Data(), options: Self.plain), "nest deeper")
    }

    @Test func aLeafPastItsSection() {
        let root = PMTilesFixture.encode([Entry(tileID: 0, offset: 3, length: 100, runLength: 0)])
        Self.expectFailure(PMTilesFixture.assemble(root: root, leaves: Data(count: 20), tileData: Data(count: 500), options: Self.plain),
                           "past the leaf directory section")
    }

    @Test func aTilePastTheDataSection() {
        let root = PMTilesFixture.encode([Entry(tileID: 0, offset: 10, length: 20, runLength: 1)])
        Self.expectFailure(PMTilesFixture.assemble(root: root, leaves: Data(), tileData: Data(count: 25), options: Self.plain),
                           "past the tile data section")
    }

    @Test func aHugeTileLength() {
        let root = PMTilesFixture.encode([Entry(tileID: 0, offset: 0, length: 9 << 20, runLength: 1)])
        Self.expectFailure(PMTilesFixture.assemble(root: root, leaves: Data(), tileData: Data(count: 25), options: Self.plain),
                           "larger than 8 MiB")
    }

    @Test func aLengthBeyondUInt32() {
        let root = PMTilesFixture.encode([Entry(tileID: 0, offset: 0, length: 1 << 40, runLength: 1)])
        Self.expectFailure(PMTilesFixture.assemble(root: root, leaves: Data(), tileData: Data(), options: Self.plain), "out of range")
    }

    @Test func aDirectoryThatClaimsTooManyEntries() {
        var root: [UInt8] = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01] // 2⁴² entries
        root += [UInt8](repeating: 1, count: 16)
        Self.expectFailure(PMTilesFixture.assemble(root: root, leaves: Data(), tileData: Data(), options: Self.plain), "claims")
    }

    @Test func aTruncatedDirectory() {
        let root = Array(PMTilesFixture.encode([Entry(tileID: 0, offset: 0, length: 5, runLength: 1),
                                                Entry(tileID: 9, offset: 5, length: 5, runLength: 1)]).dropLast())
        Self.expectFailure(PMTilesFixture.assemble(root: root, leaves: Data(), tileData: Data(count: 10), options: Self.plain),
                           "directory is malformed")
    }

    @Test func aDirectoryZipBomb() {
        // The root inflates to 20 MiB: beyond what any directory is.
        let bomb = MBTilesFixture.gzip(Data(count: 20 << 20))
        var o = Self.plain
        o.gzipDirectories = true
        var b = PMTilesFixture.assemble(root: [], leaves: Data(), tileData: Data(), options: o)
        // Put the bomb where the (empty) root is: rewrite the root length and append.
        b = b.prefix(127)
        var header = [UInt8](b)
        for i in 0..<8 { header[16 + i] = UInt8(truncatingIfNeeded: UInt64(bomb.count) >> (8 * UInt64(i))) }
        for i in 24..<32 { header[i] = 0 } // no metadata
        for s in [40, 56] { for i in 0..<8 { header[s + i] = UInt8(truncatingIfNeeded: UInt64(127 + bomb.count) >> (8 * UInt64(i))) } }
        for s in [32, 48, 64] { for i in 0..<8 { header[s + i] = 0 } }
        Self.expectFailure(Data(header) + bomb, "inflates beyond 16 MiB")
    }

    @Test func brotliTilesAreRefusedWhenOpened() {
        var o = PMTilesFixture.Options()
        o.tileCompression = 3
        Self.expectFailure(PMTilesFixture.archive([(0, 0, 0, Data("x".utf8))], options: o), "brotli-compressed")
    }

    @Test func zstdDirectoriesAreRefused() {
        var b = Self.good
        b[97] = 4
        Self.expectFailure(b, "zstd compression is not supported")
    }

    @Test func avifTilesAreRefused() {
        var o = PMTilesFixture.Options()
        o.tileType = 5
        Self.expectFailure(PMTilesFixture.archive([(0, 0, 0, Data("x".utf8))], options: o), "avif tiles are not supported")
    }

    @Test func aMissingFileNamesItself() {
        #expect(throws: TileSourceError.self) { try PMTilesSource(path: "/nonexistent/x.pmtiles") }
        do { _ = try PMTilesSource(path: "/nonexistent/x.pmtiles") } catch { #expect("\(error)".contains("/nonexistent/x.pmtiles")) }
    }

    @Test("Random damage never traps", arguments: 0..<4)
    func randomDamage(seed: Int) {
        var o = PMTilesFixture.Options()
        o.leafSize = 3
        o.gzipDirectories = seed % 2 == 0
        let archive = PMTilesFixture.archive(PMTilesTests.tiles(zooms: 0...2), options: o)
        var rng = SeededGenerator(seed: UInt64(seed))
        for _ in 0..<300 {
            var b = archive
            for _ in 0..<Int.random(in: 1...4, using: &rng) { b[Int.random(in: 0..<b.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng) }
            for t in [TileID(z: 0, x: 0, y: 0), TileID(z: 2, x: 3, y: 1), TileID(z: 5, x: 3, y: 1)] { _ = Self.failure(b, tile: t) }
        }
    }
}
