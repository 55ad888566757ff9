import Foundation
import MapGeometry
import MapTiles
import Testing
import TestSupport

/// Tiles as third-party files hold them (gzipped), and as hostile files hold them (crafted
/// varints, NaN numbers, zip bombs): decoded, or refused with a reason, never a trap.
struct HostileTileTests {
    /// A one-layer tile with a place whose population is `population` and a layer `extent`.
    static func placesTile(extent: UInt64 = 4096, population: Double = 2_000_000) -> Data {
        var value = ProtobufWriter(); value.stringField(1, "Testville")
        var pop = ProtobufWriter(); pop.doubleField(3, population)
        var f = ProtobufWriter()
        f.packedField(2, [0, 0, 1, 1])
        f.varintField(3, 1)
        f.packedField(4, [9, 4096, 4096])
        var l = ProtobufWriter()
        l.varintField(15, 2)
        l.stringField(1, "places")
        l.bytesField(2, f.bytes)
        l.stringField(3, "name"); l.stringField(3, "population")
        l.bytesField(4, value.bytes); l.bytesField(4, pop.bytes)
        l.varintField(5, extent)
        var t = ProtobufWriter()
        t.bytesField(3, l.bytes)
        return Data(t.bytes)
    }

    @Test("A layer extent of any varint is a reason, not a trap", arguments: [UInt64.max, UInt64(Int.max) + 1, 0, 1 << 21])
    func hugeExtentIsAnError(extent: UInt64) {
        #expect(throws: ProtobufError.self) { try MVTDecoder.decode(Self.placesTile(extent: extent)) }
    }

    @Test("Populations that are not numbers are clamped", arguments: [
        (Double.nan, 0), (Double.infinity, 100_000_000_000), (-Double.infinity, 0), (-5, 0), (1e300, 100_000_000_000), (2_000_000.7, 2_000_000),
    ])
    func populationIsClamped(population: Double, expected: Int) throws {
        let tile = try MVTDecoder.decode(Self.placesTile(population: population))
        let places = tile.places(in: TileID(z: 0, x: 0, y: 0), dataTile: TileID(z: 0, x: 0, y: 0))
        #expect(places.map(\.population) == [expected])
        #expect(places.first?.name == "Testville")
    }

    @Test func gzipRoundTripsThroughZlib() throws {
        let raw = Self.placesTile()
        let gz = MBTilesFixture.gzip(raw)
        #expect(Gzip.isCompressed(gz))
        #expect(try Gzip.decompress(gz) == raw)
    }

    @Test func aZipBombIsRefused() {
        // 64 MiB of zeros packs into ~64 KiB; the default limit is 16 MiB.
        let bomb = MBTilesFixture.gzip(Data(count: 64 << 20))
        #expect(bomb.count < 200_000)
        #expect(throws: TileSourceError.self) { try Gzip.decompress(bomb) }
        do { _ = try Gzip.decompress(bomb) } catch { #expect("\(error)".contains("beyond 16 MiB")) }
    }

    @Test("Truncated or corrupt gzip is an error", arguments: [0.5, 0.9])
    func truncatedGzip(fraction: Double) {
        let gz = MBTilesFixture.gzip(Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 * 7) }))
        let cut = gz.prefix(Int(Double(gz.count) * fraction))
        #expect(throws: TileSourceError.self) { try Gzip.decompress(cut) }
        var corrupt = [UInt8](gz); corrupt[20] ^= 0xFF; corrupt[21] ^= 0xFF
        #expect(throws: TileSourceError.self) { try Gzip.decompress(Data(corrupt)) }
    }

    @Test func gzippedVectorMBTilesDecodes() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gz-\(UUID().uuidString).mbtiles").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try MBTilesFixture.write(path, metadata: ["format": "pbf", "minzoom": "0", "maxzoom": "0", "name": "gz"],
                                 tiles: [(0, 0, 0, MBTilesFixture.gzip(Self.placesTile()))])
        let source = try MBTilesSource(path: path)
        guard case let .vector(bytes, tile)? = try source.payload(for: TileID(z: 0, x: 0, y: 0)) else {
            Issue.record("no vector payload"); return
        }
        #expect(tile == TileID(z: 0, x: 0, y: 0))
        #expect(try MVTDecoder.decode(bytes).layer("places")?.features.count == 1)
    }

    @Test func aCorruptGzipTileNamesTheTileAndFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).mbtiles").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try MBTilesFixture.write(path, metadata: ["format": "pbf", "minzoom": "0", "maxzoom": "0"],
                                 tiles: [(0, 0, 0, Data([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3]))])
        let source = try MBTilesSource(path: path)
        do { _ = try source.payload(for: TileID(z: 0, x: 0, y: 0)); Issue.record("no error") } catch {
            #expect("\(error)".contains(path))
            #expect("\(error)".contains("gzip"))
        }
    }
}
