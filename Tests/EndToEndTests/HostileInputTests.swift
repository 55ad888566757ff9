import Foundation
import MapTiles
import Testing
import TestPictures
import TestSupport

/// What a new user tried that used to kill the app (SIGILL from a trapping conversion), and
/// the tile files third parties write: through the real binary, each exits cleanly.
@Suite(.serialized)
struct HostileInputTests {
    @Test("Circles at the pole and at street zoom render", arguments: [
        ["--circle", "90,0,1000", "--size", "200x100"],
        ["--circle", "89.9999,0,100000", "--zoom", "20", "--size", "200x100"],
        ["--circle", "-90,180,20000000", "--zoom", "20", "--size", "200x100"],
        ["--location", "90,0,20000000,45", "--zoom", "20", "--size", "200x100"],
        ["--circle", "0,0,1", "--fixed-radius", "2000", "--zoom", "0", "--size", "200x100"],
    ])
    func circlesFarBeyondTheScreen(args: [String]) throws {
        let dir = temporaryDirectory("pole")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("x.png").path
        let r = try run(meridianBinary, ["render"] + args + ["--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PNG(out).width == 200)
    }

    /// A tile whose whole square is land, in a "land" layer, with the basemap's layer names.
    static func landTile() -> Data {
        let e: Int32 = 4096
        let ring = [VectorTile.Point(x: 0, y: 0), VectorTile.Point(x: e, y: 0), VectorTile.Point(x: e, y: e), VectorTile.Point(x: 0, y: e)]
        let land = VectorTile.Feature(id: 1, type: .polygon, parts: [ring], properties: [:])
        return MVTEncoder.encode(VectorTile(layers: [VectorTile.Layer(name: "land", features: [land])]))
    }

    @Test func aGzipCompressedVectorMBTilesRenders() throws {
        let dir = temporaryDirectory("gz")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("gz.mbtiles").path
        let gz = MBTilesFixture.gzip(Self.landTile())
        #expect(gz.starts(with: [0x1f, 0x8b]))
        // Land only in the north-west z1 tile; elsewhere no tile, which draws as water.
        try MBTilesFixture.write(path, metadata: ["format": "pbf", "minzoom": "1", "maxzoom": "1", "name": "gz"],
                                 tiles: [(1, 0, 0, gz)])
        let out = dir.appendingPathComponent("out.png").path
        let r = try run(meridianBinary, ["render", "--tiles", path, "--center", "0,0", "--zoom", "1", "--no-labels",
                                         "--size", "512x512", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("gzip"), "\(r.stderr)")
        let png = try PNG(out)
        let landPixel = png.pixel(128, 128), waterPixel = png.pixel(384, 384)
        #expect(abs(landPixel.r - 0xF3) < 6 && abs(landPixel.g - 0xF0) < 6 && abs(landPixel.b - 0xE8) < 6, "\(landPixel)")
        #expect(abs(waterPixel.r - 0xAA) < 6 && abs(waterPixel.g - 0xD0) < 6 && abs(waterPixel.b - 0xE6) < 6, "\(waterPixel)")
    }

    @Test func aCraftedExtentIsReportedAndTheMapStillDraws() throws {
        let dir = temporaryDirectory("extent")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A layer whose extent is the varint 2^64 − 1.
        var l = ProtobufWriter()
        l.varintField(15, 2)
        l.stringField(1, "land")
        l.varintField(5, UInt64.max)
        var t = ProtobufWriter()
        t.bytesField(3, l.bytes)
        let path = dir.appendingPathComponent("crafted.mbtiles").path
        try MBTilesFixture.write(path, metadata: ["format": "pbf", "minzoom": "0", "maxzoom": "0"],
                                 tiles: [(0, 0, 0, Data(t.bytes))])
        let out = dir.appendingPathComponent("out.png").path
        let r = try run(meridianBinary, ["render", "--tiles", path, "--zoom", "0", "--size", "256x256", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("bad extent"), "\(r.stderr)")
        #expect(try PNG(out).width == 256)
    }

    /// A decompression bomb: a 3 KB PNG tile whose header says 16000×16000 (a gigabyte of
    /// pixels once decoded). It is refused by its header, named with its tile, and the map is
    /// drawn with what else there is; the render's peak memory stays that of a small map (it
    /// took 7.6 GB before pictures were measured first).
    @Test func aDecompressionBombTileIsRefusedBeforeItIsDecoded() throws {
        let dir = temporaryDirectory("bomb")
        defer { try? FileManager.default.removeItem(at: dir) }
        let bomb = try Data(contentsOf: URL(fileURLWithPath: "Fuzz/Corpus/fuzz-image/bomb-16000.png"))
        #expect(bomb.count < 4096)
        let path = dir.appendingPathComponent("bomb.mbtiles").path
        try MBTilesFixture.write(path, metadata: ["format": "png", "minzoom": "0", "maxzoom": "1", "name": "bomb"],
                                 tiles: [(0, 0, 0, bomb), (1, 0, 0, bomb), (1, 1, 0, bomb), (1, 0, 1, bomb), (1, 1, 1, bomb)])
        let out = dir.appendingPathComponent("out.png").path
        let r = try run("/usr/bin/time", ["-f", "peak-rss-kib %M", meridianBinary, "render", "--tiles", path, "--zoom", "1",
                                          "--size", "512x512", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("PNG picture is 16000×16000 pixels, more than 4096×4096"), "\(r.stderr)")
        #expect(r.stderr.contains("1/0/0"), "the tile is named: \(r.stderr)")
        #expect(try PNG(out).width == 512)
        let peak = r.stderr.split(separator: "\n").first { $0.hasPrefix("peak-rss-kib ") }.flatMap { Int($0.dropFirst("peak-rss-kib ".count)) }
        #expect(peak.map { $0 < 400 * 1024 } == true, "peak RSS \(peak.map(String.init) ?? "?") KiB")
    }
}
