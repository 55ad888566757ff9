import Foundation
import MapGeometry
import MapNetwork
@testable import MapTiles
import Platform
import Testing
import TestSupport

/// The extract engine without a network: the area's tiles (a table of known counts, the
/// antimeridian), the journal (torn records, resuming), the PMTiles writer (read back by the
/// reader, leaf directories, runs, identical tiles stored once) and whole extracts from files.
struct TileExtractorTests {
    func folder(_ name: String) -> String {
        let path = NSTemporaryDirectory() + "extract-\(name)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("Tiles in a box", arguments: [
        // The world at z0…2: 1 + 4 + 16.
        ("-180,-85,180,85", 0...2, UInt64(21)),
        // Central Helsinki at z14: columns 9325…9328, rows 4740…4744.
        ("24.9,60.15,24.98,60.19", 14...14, UInt64(20)),
        // Across the antimeridian at z1: both columns; at z3 columns 7 and 0.
        ("179,-17,-179,-16", 1...1, UInt64(2)),
        ("179,-17,-179,-16", 3...3, UInt64(2)),
        // At z0 the two sides are the one tile.
        ("179,-17,-179,-16", 0...0, UInt64(1)),
    ])
    func tilesInABox(bbox: String, zooms: ClosedRange<Int>, count: UInt64) throws {
        let area = try TileArea(bbox: bbox, zooms: zooms)
        #expect(area.tileCount == count)
        let ids = zooms.flatMap { area.tileIDs(atZoom: $0) }
        #expect(UInt64(ids.count) == count && Set(ids).count == ids.count)
        #expect(ids.allSatisfy { PMTilesTileID.tile(for: $0).map(area.contains) ?? false })
    }

    @Test func theBoxAcrossTheAntimeridianHasBothEdgesAndNothingBetween() throws {
        let area = try TileArea(bbox: "179,-17,-179,-16", zooms: 8...8)
        let columns = Set(area.tileIDs(atZoom: 8).compactMap { PMTilesTileID.tile(for: $0)?.x })
        #expect(columns == [255, 0, 1] || columns == [255, 0])
        #expect(!area.contains(TileID(z: 8, x: 128, y: 140)))
    }

    @Test("Wrong boxes say why", arguments: [
        ("1,2,3", "four numbers"), ("a,1,2,3", "west \"a\" is not a number"), ("0,10,1,5", "not below north"),
        ("0,0,0,1", "no width"), ("200,0,201,1", "not a longitude"), ("0,-95,1,0", "not a latitude"),
        ("0,86,1,89", "no tiles"), ("inf,0,1,1", "not a number"),
    ])
    func wrongBoxes(bbox: String, reason: String) {
        do {
            _ = try TileArea(bbox: bbox, zooms: 0...5)
            Issue.record("\(bbox) was accepted")
        } catch {
            #expect("\(error)".contains(reason), "\(error)")
        }
    }

    @Test func aPlanetAtStreetLevelIsRefusedBeforeAnythingIsFetched() {
        #expect(throws: TileArea.Invalid.self) { try TileArea(bbox: "-180,-85,180,85", zooms: 0...16) }
    }

    @Test func theJournalKeepsWholeRecordsAndDropsATornTail() throws {
        let dir = folder("journal")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        do {
            let j = try ExtractJournal(folder: dir)
            try j.add(5, Data("five".utf8))
            try j.add(6, nil)
            try j.add(7, Data("seven".utf8))
            try j.commit()
        }
        // A crash mid-write: half a record after the whole ones, and bytes past the last tile.
        let journal = try FileHandle(forWritingTo: URL(fileURLWithPath: dir + "/journal"))
        journal.seekToEndOfFile(); journal.write(Data(ExtractJournal.encode(.init(tileID: 8, offset: 9, length: 3, crc: 0, absent: false)).prefix(20))); journal.closeFile()
        let tiles = try FileHandle(forWritingTo: URL(fileURLWithPath: dir + "/tiles"))
        tiles.seekToEndOfFile(); tiles.write(Data("garbage".utf8)); tiles.closeFile()
        do {
            let j = try ExtractJournal(folder: dir)
            #expect(j.records.map(\.tileID) == [5, 6, 7])
            #expect(j.records[1].absent)
            #expect(try j.data(of: j.records[2]) == Data("seven".utf8))
            // Both files were trimmed to what is whole, and appending goes on from there.
            #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/tiles")) == Data("fiveseven".utf8))
            try j.add(9, Data("nine".utf8))
            try j.commit()
            // While it is open, no other extract may write there.
            #expect(throws: ExtractError.self) { try ExtractJournal(folder: dir) }
        }
        let k = try ExtractJournal(folder: dir)
        #expect(k.records.map(\.tileID) == [5, 6, 7, 9])
        #expect(try k.data(of: k.records[3]) == Data("nine".utf8))
    }

    @Test func aRecordWithAFlippedBitEndsWhatIsTrusted() throws {
        var bytes = ExtractJournal.encode(.init(tileID: 1, offset: 0, length: 2, crc: 7, absent: false))
        bytes += ExtractJournal.encode(.init(tileID: 2, offset: 2, length: 2, crc: 7, absent: false))
        bytes += ExtractJournal.encode(.init(tileID: 3, offset: 4, length: 2, crc: 7, absent: false))
        bytes[32 + 9] ^= 0x10
        let (records, whole) = ExtractJournal.parse(Data(bytes), dataSize: 6)
        #expect(records.map(\.tileID) == [1] && whole == 32)
        // A record pointing past the tiles on disk is not trusted either.
        #expect(ExtractJournal.parse(Data(bytes.prefix(32)), dataSize: 1).records.isEmpty)
    }

    /// Tiles written, read back through the reader: runs of one tile, identical tiles far
    /// apart stored once, and enough distinct ones that leaf directories are needed.
    @Test func theWriterRoundTripsThroughTheReader() throws {
        let dir = folder("writer")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let j = try ExtractJournal(folder: dir + "/part")
        let area = try TileArea(bbox: "-180,-85,180,85", zooms: 0...8)
        var expected = [UInt64: Data](), random = SeededGenerator(seed: 7)
        for z in 0...8 {
            for id in area.tileIDs(atZoom: z) {
                // Nothing for a tenth, sea (one tile) in runs of fifty ids, else a tile of its own
                // of a length of its own (so the directory does not compress into the root).
                let data: Data? = id % 10 == 3 ? nil : (id / 50) % 3 == 0 ? Data("sea".utf8)
                    : Data(("tile \(id)" + String(repeating: "x", count: Int.random(in: 0..<200, using: &random))).utf8)
                try j.add(id, data)
                expected[id] = data
            }
        }
        try j.commit()
        let out = dir + "/world.pmtiles"
        let info = PMTilesWriter.Info(tileType: .png, tileCompression: .none, area: area, metadata: Data(#"{"name":"test"}"#.utf8))
        let summary = try PMTilesWriter.write(j.records, read: j.data(of:), info: info, to: out)
        let archive = try PMTilesArchive(reader: try FileRangeReader(path: out), name: out)
        #expect(archive.header.tileType == .png && archive.header.minZoom == 0 && archive.header.maxZoom == 8)
        #expect(archive.header.leafDirectories.length > 0, "56,000 entries need leaves")
        #expect(archive.header.rootDirectory.offset + archive.header.rootDirectory.length <= 16_384)
        #expect(summary.contents < summary.addressedTiles && summary.entries < summary.addressedTiles)
        #expect(archive.header.addressedTiles == UInt64(expected.values.compactMap { $0 }.count))
        for (id, data) in expected {
            #expect(try archive.tileData(PMTilesTileID.tile(for: id)!) == data, "\(id)")
        }
        #expect(try archive.metadata() == Data(#"{"name":"test"}"#.utf8))
    }

    @Test func nearbyRangesAreReadTogether() {
        let ranges: [(offset: UInt64, length: UInt64)] = [(0, 100), (100, 50), (200_000, 10), (200_010, 10), (200_010, 10), (300_000, 5 << 20)]
        let runs = ArchiveExtractSource.coalesce(ranges)
        #expect(runs.map(\.offset) == [0, 200_000, 300_000])
        #expect(runs.map(\.length) == [150, 20, 5 << 20])
        #expect(runs.map(\.members) == [0..<2, 2..<5, 5..<6])
    }

    /// A whole extract from an MBTiles file into PMTiles and into MBTiles: every tile in the
    /// box, none outside, the saved area's entry in the metadata.
    @Test func anExtractFromAFileHoldsTheBoxAndNothingElse() throws {
        let dir = folder("whole")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var tiles = [(z: Int, x: Int, y: Int, data: Data)]()
        for z in 0...6 { for x in 0..<(1 << z) { for y in 0..<(1 << z) { tiles.append((z, x, y, Data("\(z)/\(x)/\(y)".utf8))) } } }
        let source = dir + "/world.mbtiles"
        try MBTilesFixture.write(source, metadata: ["format": "png", "minzoom": "0", "maxzoom": "6", "attribution": "© Test"], tiles: tiles)
        let area = try TileArea(bbox: "-10,35,30,60", zooms: 2...9)
        for out in [dir + "/europe.pmtiles", dir + "/europe.mbtiles"] {
            let extractor = try TileExtractor(source: try MBTilesExtractSource(path: source), area: area, output: out, title: "Europe")
            #expect(extractor.area.zooms == 2...6, "limited to the source's zooms")
            let result = try extractor.run()
            #expect(result.tilesDone == extractor.area.tileCount)
            let made: TileSource = out.hasSuffix(".pmtiles") ? try PMTilesSource(path: out) : try MBTilesSource(path: out)
            for t in tiles {
                let id = TileID(z: t.z, x: t.x, y: t.y)
                let got = try (made as? PMTilesSource)?.data(for: id) ?? (made as? MBTilesSource)?.data(for: id)
                #expect(got == (extractor.area.contains(id) ? t.data : nil), "\(out) \(id)")
            }
            #expect(!FileManager.default.fileExists(atPath: out + ".part"))
        }
        let saved = try SavedArea(path: dir + "/europe.pmtiles")
        #expect(saved.title == "Europe" && saved.source == source && saved.zooms == 2...6)
    }

    /// A source of numbered tiles at a revision that can change, with validators.
    final class Revised: ExtractSource, @unchecked Sendable {
        var revisionNow: String
        var failAfter: Int?
        private var fetched = 0
        init(_ revision: String) { revisionNow = revision }
        var name: String { "revised" }
        var zoomRange: ClosedRange<Int> { 0...6 }
        var tileType: PMTilesHeader.TileType? { .png }
        var tileCompression: PMTilesHeader.Compression? { PMTilesHeader.Compression.none }
        var metadata: [String: JSONValue] { [:] }
        var concurrency: Int { 1 }
        var batchSize: Int { 4 }
        var bytesPerTile: UInt64 { 10 }
        var requests: Int { 0 }
        var revision: String? { revisionNow }
        func fetch(_ ids: [UInt64]) throws -> [ExtractTile] {
            if let failAfter, fetched + ids.count > failAfter { throw ExtractError.failed("the network went away") }
            fetched += ids.count
            return ids.map { ExtractTile(Data("\(revisionNow):\($0)".utf8), validator: "\"e\($0)\"") }
        }
        func cancel() {}
    }

    /// An extract resumed against another revision of its map (the planet behind OpenFreeMap's
    /// address changed, a remote archive's ETag) begins again rather than mixing the two; the
    /// validators the server gave are kept through the interruption and beside the archive.
    @Test func anExtractResumedAgainstAnotherRevisionBeginsAgain() throws {
        let dir = folder("revision")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let area = try TileArea(bbox: "-10,35,30,60", zooms: 0...6)
        let out = dir + "/a.pmtiles", source = Revised("planet-1")
        source.failAfter = 12
        #expect(throws: ExtractError.self) { try TileExtractor(source: source, area: area, output: out).run() }
        // Each journal opened here is let go at the end of its block (it holds the folder's lock).
        do {
            let journal = try ExtractJournal(folder: out + ".part")
            #expect(journal.records.count >= 8 && journal.validators.count == journal.records.count, "validators kept with their tiles")
            #expect(journal.validators[journal.records[0].tileID] == "\"e\(journal.records[0].tileID)\"")
        }
        // Opened again and run with nothing to add (the network gone at once): the
        // validators on disk stay.
        source.failAfter = 0
        #expect(throws: ExtractError.self) { try TileExtractor(source: source, area: area, output: out).run() }
        do {
            let reopened = try ExtractJournal(folder: out + ".part")
            #expect(reopened.validators.count == reopened.records.count && reopened.records.count >= 8)
        }
        source.failAfter = nil
        do {
            let same = try TileExtractor(source: source, area: area, output: out)
            #expect(same.startedAgain == nil && same.resumedTiles >= 8)
        }
        // Finished at the same revision elsewhere: every tile's validator is beside it.
        let twin = dir + "/twin.pmtiles"
        try FileManager.default.copyItem(atPath: out + ".part", toPath: twin + ".part")
        try TileExtractor(source: source, area: area, output: twin).run()
        #expect(TileValidators.read(for: twin, token: try SavedArea(path: twin).validatorToken).count == Int(area.tileCount))
        source.revisionNow = "planet-2"
        let changed = try TileExtractor(source: source, area: area, output: out)
        #expect(changed.startedAgain?.contains("planet-1 → planet-2") == true, "\(changed.startedAgain ?? "")")
        #expect(changed.resumedTiles == 0)
        try changed.run()
        let saved = try SavedArea(path: out)
        #expect(saved.revision == "planet-2" && saved.saved != nil)
        let archive = try PMTilesArchive(reader: try FileRangeReader(path: out), name: out)
        let ids = area.tileIDs(atZoom: 3)
        for id in ids { #expect(try archive.tileData(PMTilesTileID.tile(for: id)!) == Data("planet-2:\(id)".utf8)) }
        let validators = TileValidators.read(for: out, token: saved.validatorToken)
        #expect(validators.count == Int(area.tileCount) && validators[ids[0]] == "\"e\(ids[0])\"")
        #expect(TileValidators.read(for: out, token: "another").isEmpty, "validators of another version of the archive are not used")

        // Renamed: the title changes, the tiles and the validators stay.
        let renamed = try saved.renamed(to: "  Valley\u{7}  ")
        #expect(renamed.title == "Valley" && renamed.validatorToken == saved.validatorToken && renamed.revision == "planet-2")
        let again = try PMTilesArchive(reader: try FileRangeReader(path: out), name: out)
        for id in ids { #expect(try again.tileData(PMTilesTileID.tile(for: id)!) == Data("planet-2:\(id)".utf8)) }
        try renamed.delete()
        #expect(!FileManager.default.fileExists(atPath: out) && !FileManager.default.fileExists(atPath: TileValidators.file(for: out)))
    }

    @Test("Days are found where sources keep them", arguments: [
        ("https://tiles.openfreemap.org/planet/20251119_001001_pt/{z}/{x}/{y}.pbf", "2025-11-19"),
        ("2026-03-04T05:06:07Z", "2026-03-04"),
        ("Fri, 20 Nov 2026 06:00:00 GMT", "2026-11-20"),
        ("/tiles/v3/{z}/{x}/{y}.pbf", nil),
        ("12345678901234", nil),
        ("20261399", nil),
    ] as [(String, String?)])
    func daysAreFound(text: String, day: String?) {
        #expect(ExtractDates.day(in: text) == day)
    }
}
