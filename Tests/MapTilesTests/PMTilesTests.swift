import Foundation
import MapGeometry
import MapNetwork
import MapTiles
import Testing
import TestSupport

/// PMTiles v3: tile ids, directories, and archives written by TestSupport's independent writer,
/// read back through memory and through files.
struct PMTilesTests {
    /// Values from the spec's reference implementation (the PyPI `pmtiles` package).
    static let known: [(TileID, UInt64)] = [
        (TileID(z: 0, x: 0, y: 0), 0), (TileID(z: 1, x: 0, y: 0), 1), (TileID(z: 1, x: 0, y: 1), 2),
        (TileID(z: 1, x: 1, y: 1), 3), (TileID(z: 1, x: 1, y: 0), 4), (TileID(z: 2, x: 0, y: 0), 5),
        (TileID(z: 2, x: 1, y: 0), 6), (TileID(z: 2, x: 3, y: 3), 15), (TileID(z: 2, x: 3, y: 0), 20),
        (TileID(z: 3, x: 5, y: 2), 76), (TileID(z: 10, x: 583, y: 296), 1_247_786),
        (TileID(z: 14, x: 9326, y: 4739), 319_433_638), (TileID(z: 20, x: 583_000, y: 296_000), 1_303_184_963_861),
        (TileID(z: 22, x: 4_194_303, y: 0), 23_456_248_059_220),
    ]

    @Test func tileIDsMatchTheReference() {
        for (tile, id) in Self.known {
            #expect(PMTilesTileID.id(of: tile) == id, "\(tile)")
            #expect(PMTilesTileID.tile(for: id) == tile, "\(id)")
            #expect(PMTilesFixture.tileID(z: tile.z, x: tile.x, y: tile.y) == id, "writer \(tile)")
        }
    }

    @Test func everyIdOfAZoomIsOneTile() {
        for z in 0...4 {
            let first = ((UInt64(1) << (2 * UInt64(z))) - 1) / 3
            var seen = Set<TileID>()
            for id in first..<first + (UInt64(1) << (2 * UInt64(z))) {
                let t = try! #require(PMTilesTileID.tile(for: id))
                #expect(t.z == z && t.isValid)
                #expect(PMTilesTileID.id(of: t) == id)
                seen.insert(t)
            }
            #expect(seen.count == 1 << (2 * z))
        }
        // Past zoom 22 (TileID's deepest) there is no TileID.
        #expect(PMTilesTileID.tile(for: UInt64.max) == nil)
        #expect(PMTilesTileID.tile(for: PMTilesTileID.id(of: TileID(z: 22, x: 0, y: 0)) + (UInt64(1) << 44)) == nil)
    }

    @Test func randomTilesRoundTrip() {
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<2000 {
            let z = Int.random(in: 0...22, using: &rng)
            let t = TileID(z: z, x: Int.random(in: 0..<(1 << z), using: &rng), y: Int.random(in: 0..<(1 << z), using: &rng))
            let id = PMTilesTileID.id(of: t)
            #expect(PMTilesTileID.tile(for: id) == t)
            #expect(PMTilesFixture.tileID(z: t.z, x: t.x, y: t.y) == id)
        }
    }

    @Test func directoryDecodesAndFinds() throws {
        let entries = [PMTilesFixture.Entry(tileID: 3, offset: 0, length: 10, runLength: 1),
                       PMTilesFixture.Entry(tileID: 5, offset: 10, length: 4, runLength: 3),
                       PMTilesFixture.Entry(tileID: 20, offset: 0, length: 10, runLength: 1),
                       PMTilesFixture.Entry(tileID: 40, offset: 100, length: 50, runLength: 0)]
        let dir = try PMTilesDirectory(decoding: PMTilesFixture.encode(entries))
        #expect(dir.entries.map(\.tileID) == [3, 5, 20, 40])
        #expect(dir.entries.map(\.offset) == [0, 10, 0, 100])
        #expect(dir.entries.map(\.runLength) == [1, 3, 1, 0])
        #expect(dir.find(2) == nil)
        #expect(dir.find(3)?.offset == 0)
        #expect(dir.find(4) == nil)
        #expect(dir.find(7)?.offset == 10)   // in the run 5, 6, 7
        #expect(dir.find(8) == nil)
        #expect(dir.find(41)?.isLeaf == true) // under the leaf
    }

    static func tiles(zooms: ClosedRange<Int>) -> [(z: Int, x: Int, y: Int, data: Data)] {
        var out: [(z: Int, x: Int, y: Int, data: Data)] = []
        for z in zooms { for x in 0..<(1 << z) { for y in 0..<(1 << z) { out.append((z, x, y, Data("tile \(z)/\(x)/\(y)".utf8))) } } }
        return out
    }

    @Test("Root and leaf directories, gzipped or not", arguments: [(true, nil), (false, nil), (true, 3), (false, 1), (true, 40)] as [(Bool, Int?)])
    func archiveLookups(gzip: Bool, leafSize: Int?) throws {
        var o = PMTilesFixture.Options()
        o.gzipDirectories = gzip
        o.leafSize = leafSize
        let tiles = Self.tiles(zooms: 0...3)
        let archive = try PMTilesArchive(reader: DataRangeReader(PMTilesFixture.archive(tiles, options: o)), name: "mem")
        #expect(archive.header.internalCompression == (gzip ? .gzip : .none))
        #expect(archive.root.entries.contains { $0.isLeaf } == (leafSize != nil))
        for t in tiles {
            #expect(try archive.tileData(TileID(z: t.z, x: t.x, y: t.y)) == t.data)
        }
        #expect(try archive.tileData(TileID(z: 4, x: 0, y: 0)) == nil)
        #expect(try archive.tileData(TileID(z: 9, x: 1, y: 1)) == nil)
    }

    @Test func runsServeEveryTileOfTheRun() throws {
        // z2's tiles 5…20 all the same ocean: one entry of run length 16.
        let ocean = Data("ocean".utf8)
        var tiles = (0..<4).flatMap { x in (0..<4).map { y in (z: 2, x: x, y: y, data: ocean) } }
        tiles.append((0, 0, 0, Data("world".utf8)))
        for leafSize: Int? in [nil, 1] {
            var o = PMTilesFixture.Options()
            o.leafSize = leafSize
            let archive = try PMTilesArchive(reader: DataRangeReader(PMTilesFixture.archive(tiles, options: o)), name: "mem")
            let entries = leafSize == nil ? archive.root.entries : []
            if leafSize == nil { #expect(entries.map(\.runLength) == [1, 16]) }
            for x in 0..<4 { for y in 0..<4 { #expect(try archive.tileData(TileID(z: 2, x: x, y: y)) == ocean) } }
            #expect(try archive.tileData(TileID(z: 1, x: 0, y: 0)) == nil)
        }
    }

    @Test func vectorSourceDecompressesAndOverzooms() throws {
        let mvt = Data([0x1A, 0x02, 0x78, 0x01]) // not decoded here: only carried
        var o = PMTilesFixture.Options()
        o.tileCompression = 2
        let tiles = [(z: 5, x: 18, y: 9, data: MBTilesFixture.gzip(mvt)), (z: 6, x: 37, y: 18, data: MBTilesFixture.gzip(mvt + mvt))]
        let path = NSTemporaryDirectory() + "pmtiles-\(UUID().uuidString).pmtiles"
        try PMTilesFixture.archive(tiles, options: o).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let src = try PMTilesSource(path: path)
        #expect(src.name == "pmtiles:" + path)
        #expect(src.isVector && !src.isRemote)
        #expect(src.dataZoomRange == 5...6)
        #expect(src.zoomRange == 5...20)
        #expect(src.attribution == "© Test contributors")
        #expect(src.vectorLayers == ["water"])
        // Drawn at 512 points: a stored tile serves the tiles a zoom below.
        guard case let .vector(bytes, tile)? = try src.payload(for: TileID(z: 5, x: 18, y: 9).children[0]) else { Issue.record("no vector"); return }
        #expect(bytes == mvt && tile == TileID(z: 5, x: 18, y: 9))
        // Beyond zoom 6: the z6 ancestor's bytes, to be drawn larger.
        let deep = TileID(z: 6, x: 37, y: 18).children[3].children[0]
        guard case let .vector(deepBytes, deepTile)? = try src.payload(for: deep) else { Issue.record("no vector"); return }
        #expect(deepBytes == mvt + mvt && deepTile == TileID(z: 6, x: 37, y: 18))
        // No tile stored: an empty one (water), as MBTiles sources do.
        guard case let .vector(empty, _)? = try src.payload(for: TileID(z: 6, x: 0, y: 0)) else { Issue.record("no vector"); return }
        #expect(empty.isEmpty)
    }

    @Test func rasterSourceOverzoomsThroughRasterOverzoom() throws {
        var o = PMTilesFixture.Options()
        o.tileType = 2
        let png = Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3])
        let archive = try PMTilesArchive(reader: DataRangeReader(PMTilesFixture.archive([(3, 4, 2, png)], options: o)), name: "mem")
        let src = try PMTilesSource(archive: archive, name: "pmtiles:mem")
        #expect(!src.isVector && src.zoomRange == 3...20)
        guard case let .encodedImage(d)? = try src.payload(for: TileID(z: 3, x: 4, y: 2)) else { Issue.record("no image"); return }
        #expect(d == png)
        guard case let .encodedImageRegion(r, tile)? = try src.payload(for: TileID(z: 5, x: 17, y: 9)) else { Issue.record("no region"); return }
        #expect(r == png && tile == TileID(z: 3, x: 4, y: 2))
        #expect(try src.payload(for: TileID(z: 3, x: 0, y: 0)) == nil)
    }

    @Test func concurrentLookupsAgree() throws {
        var o = PMTilesFixture.Options()
        o.leafSize = 5
        let tiles = Self.tiles(zooms: 0...4)
        let archive = try PMTilesArchive(reader: DataRangeReader(PMTilesFixture.archive(tiles, options: o)), name: "mem")
        let wrong = LockedCounter()
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            for t in tiles.shuffled() where (try? archive.tileData(TileID(z: t.z, x: t.x, y: t.y))) != t.data { wrong.add() }
            _ = i
        }
        #expect(wrong.value == 0)
    }
}

/// A counter several threads add to.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() { lock.lock(); n += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return n }
}

/// Writes Fuzz/Corpus/fuzz-pmtiles's seeds with the fixture writer:
/// `MERIDIAN_WRITE_SEEDS=1 swift test --filter PMTilesSeeds`.
struct PMTilesSeeds {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["MERIDIAN_WRITE_SEEDS"] != nil))
    func writeSeeds() throws {
        let dir = packageRoot.appendingPathComponent("Fuzz/Corpus/fuzz-pmtiles")
        let tiles = PMTilesTests.tiles(zooms: 0...2)
        let ocean = Data("ocean".utf8)
        let runs = (0..<4).flatMap { x in (0..<4).map { y in (z: 2, x: x, y: y, data: ocean) } } + [(0, 0, 0, Data("w".utf8))]
        for (name, gzip, leaf, type, set) in [("root-gzip", true, nil, 1, tiles), ("root-none", false, nil, 1, tiles),
                                              ("leaves-gzip", true, 3, 1, tiles), ("leaves-none", false, 2, 2, tiles),
                                              ("runs", false, nil, 1, runs), ("runs-leaves", true, 1, 1, runs)] as [(String, Bool, Int?, UInt8, [(z: Int, x: Int, y: Int, data: Data)])] {
            var o = PMTilesFixture.Options()
            o.gzipDirectories = gzip
            o.leafSize = leaf
            o.tileType = type
            try PMTilesFixture.archive(set, options: o).write(to: dir.appendingPathComponent(name + ".pmtiles"))
        }
    }
}

/// Compares the reader with another one's listing of an archive, when one is given:
/// `MERIDIAN_PMTILES_REFERENCE=LISTING swift test --filter PMTilesReference`, LISTING's first
/// line the archive's path, then one line per tile, "z x y HEX" of its stored bytes (made with
/// the PyPI `pmtiles` reader's `all_tiles`).
struct PMTilesReference {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["MERIDIAN_PMTILES_REFERENCE"] != nil))
    func agreesWithTheReference() throws {
        let listing = try String(contentsOfFile: ProcessInfo.processInfo.environment["MERIDIAN_PMTILES_REFERENCE"]!, encoding: .utf8)
        var lines = listing.split(separator: "\n")
        let path = String(lines.removeFirst())
        let archive = try PMTilesArchive(reader: FileRangeReader(path: path), name: path)
        var compared = 0
        for line in lines {
            let f = line.split(separator: " ")
            let tile = TileID(z: Int(f[0])!, x: Int(f[1])!, y: Int(f[2])!)
            let hex = Array(f[3].utf8)
            let expected = Data(stride(from: 0, to: hex.count, by: 2).map { i in
                UInt8(String(decoding: hex[i..<i + 2], as: UTF8.self), radix: 16)!
            })
            #expect(try archive.tileData(tile) == expected, "\(tile)")
            compared += 1
        }
        #expect(compared == lines.count && compared > 0)
    }
}
