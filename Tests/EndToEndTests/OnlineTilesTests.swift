import Foundation
import Testing
import TestPictures
import TestSupport

/// `--tiles URL` through the real binary against the loopback tile server: tiles drawn where
/// they belong, kept on disk for the next start, and never anything bad cached.
@Suite(.serialized) struct OnlineTilesTests {
    /// At z2 around 0,0 a 512×512 view shows tiles x 1…2, y 1…2, each a quarter.
    static let args = ["--center", "0,0", "--zoom", "2", "--size", "512x512", "--no-location"]
    /// The server's colour of tile x, y (Tests/Fixtures/tile-server.py).
    static func colour(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) { ((x * 40 + y * 90) % 256, 80, 160) }
    static let quarters = [(128, 128, 1, 1), (384, 128, 2, 1), (128, 384, 1, 2), (384, 384, 2, 2)]

    func render(_ template: String, cache: URL, out: String) throws -> RunResult {
        try run(meridianBinary, ["render", "--tiles", template, "--out", out] + Self.args, env: ["XDG_CACHE_HOME": cache.path])
    }

    func tileFiles(_ cache: URL) -> [String] {
        let root = cache.appendingPathComponent("meridian/tiles").path
        return (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".tile") }
    }

    func drawsTheServersTiles(_ png: PNG) -> Bool {
        Self.quarters.allSatisfy { px, py, x, y in
            let c = png.pixel(px, py), e = Self.colour(x, y)
            return abs(c.r - e.r) <= 2 && abs(c.g - e.g) <= 2 && abs(c.b - e.b) <= 2
        }
    }

    @Test func tilesAreDrawnAndKeptForTheNextStartEvenOffline() throws {
        let dir = temporaryDirectory("online")
        defer { try? FileManager.default.removeItem(at: dir) }
        var server: TileServer? = try TileServer()
        let template = server!.url("/tile/{z}/{x}/{y}.png")
        let first = dir.appendingPathComponent("first.png").path
        let r = try render(template, cache: dir, out: first)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(drawsTheServersTiles(try PNG(first)))
        #expect(tileFiles(dir).count >= 4, "\(tileFiles(dir))")
        // The server is gone: the same picture, from the disk.
        server = nil
        let second = dir.appendingPathComponent("second.png").path
        let again = try render(template, cache: dir, out: second)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(drawsTheServersTiles(try PNG(second)))
    }

    /// Renders the server's `path` with a cache folder of its own.
    func renderFromServer(_ path: String, check: (RunResult, PNG, URL) throws -> Void) throws {
        let dir = temporaryDirectory("online-\(abs(path.hashValue))")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        let out = dir.appendingPathComponent("out.png").path
        let r = try render(server.url(path), cache: dir, out: out)
        #expect(r.status == 0, "\(r.stderr)")
        try check(r, try PNG(out), dir)
    }

    @Test func tileServersSeeWhoIsAsking() throws {
        try renderFromServer("/meridian-only/{z}/{x}/{y}.png") { r, png, _ in
            #expect(drawsTheServersTiles(png), "the server refused the User-Agent: \(r.stderr)")
        }
    }

    @Test func whatIsNotAPictureIsNeitherDrawnNorCached() throws {
        try renderFromServer("/garbage?t={z}-{x}-{y}") { r, png, dir in
            #expect(r.stderr.contains("not a picture"), "\(r.stderr)")
            #expect(tileFiles(dir).isEmpty, "\(tileFiles(dir))")
            #expect(!drawsTheServersTiles(png))
        }
    }

    /// Past a server's deepest zoom (it answers 404), the map stays itself: the part of the
    /// deepest tile it sent, enlarged, where that tile is drawn (not decoded and enlarged per
    /// tile), rather than the basemap under it. At z8 the middle of the view is the middle of
    /// the z6 view, four times larger.
    @Test func pastTheServersDeepestZoomItsTilesAreDrawnEnlarged() throws {
        let dir = temporaryDirectory("online-deepest")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        let template = server.url("/street/{z}/{x}/{y}.png?upto=6")
        var pictures: [PNG] = []
        for zoom in ["6", "8"] {
            let out = dir.appendingPathComponent("z\(zoom).png").path
            let r = try run(meridianBinary, ["render", "--tiles", template, "--out", out, "--center", "48.85,2.35", "--zoom", zoom,
                                             "--size", "512x512", "--no-location"], env: ["XDG_CACHE_HOME": dir.path])
            #expect(r.status == 0, "\(r.stderr)")
            pictures.append(try PNG(out))
        }
        let (z6, z8) = (pictures[0], pictures[1])
        var alike = 0, samples = 0
        for y in stride(from: 130, to: 382, by: 6) {
            for x in stride(from: 130, to: 382, by: 6) {
                let a = z8.pixel(x, y), b = z6.pixel(256 + (x - 256) / 4, 256 + (y - 256) / 4)
                samples += 1
                if abs(a.r - b.r) <= 40 && abs(a.g - b.g) <= 40 && abs(a.b - b.b) <= 40 { alike += 1 }
            }
        }
        // (Edges of streets blur differently when enlarged.)
        #expect(Double(alike) >= 0.9 * Double(samples), "\(alike) of \(samples) points of z8 are z6's, enlarged")
    }

    @Test func aBadTemplateIsAClearError() throws {
        let r = try run(meridianBinary, ["render", "--tiles", "https://t.example/{zoom}/{x}/{y}.png", "--out", "/tmp/never.png"] + Self.args)
        #expect(r.status != 0)
        #expect(r.stderr.contains("unknown placeholder {zoom}"), "\(r.stderr)")
    }
}
