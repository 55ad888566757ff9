import Foundation
import MapGeometry
import MapNetwork
import MapTiles
import Platform
import Testing
import TestSupport

/// The online source behind a real loader, against the loopback server: loads the view no
/// longer wants are cancelled, and only pictures that decode are ever kept.
@Suite(.serialized) struct OnlineTileSourceTests {
    /// Decodes what the test server's PNGs are (a signature and an IEND chunk); anything else fails.
    let decoder: TileDecoder = { _, payload in
        guard case let .encodedImage(d) = payload, OnlineTileSource.looksLikeImage(d), d.suffix(12).contains(0x49) else {
            throw TileSourceError("not a decodable image")
        }
        return DecodedTile(bitmap: Bitmap(width: 1, height: 1, pixels: [0xFF00_0000], premultiplied: false))
    }

    func source(_ server: TileServer, _ path: String, cache: TileDiskCache?) throws -> OnlineTileSource {
        let online = OnlineSource(name: "test", template: try TileURLTemplate(server.url(path)), attribution: "", zoomRange: 0...19)
        return OnlineTileSource(source: online, client: HTTPClient(options: .init(userAgent: "Meridian/test")), cache: cache)
    }

    func cache(_ dir: URL, _ server: TileServer, _ path: String) throws -> TileDiskCache {
        let online = OnlineSource(name: "test", template: try TileURLTemplate(server.url(path)), attribution: "", zoomRange: 0...19)
        return TileDiskCache(root: dir.path, source: online)
    }

    func results(_ loader: TileLoader, count: Int) -> [TileResult] {
        var out: [TileResult] = []
        let deadline = MonotonicClock.now + 15
        while out.count < count, MonotonicClock.now < deadline {
            _ = loader.waitUntilIdle(deadline: min(deadline, MonotonicClock.now + 0.2))
            out += loader.drain()
        }
        return out
    }

    @Test func loadsTheViewLeftAreCancelledNotFailed() throws {
        let server = try TileServer()
        // Every answer takes 5 s, and is a good picture: the view moves on before any arrives.
        let src = try source(server, "/stall?t={z}-{x}-{y}", cache: nil)
        let loader = TileLoader(source: src, workers: 4, decode: decoder)
        let tiles = (0..<4).map { TileID(z: 3, x: $0, y: 1) }
        loader.want(tiles)
        // Under way: all four asked of the client, one at least at the server, the others
        // waiting in the client for a connection.
        let counter = HTTPClient(options: .init(userAgent: "Meridian/test"))
        #expect(waitUntil { src.requestCount == 4 })
        #expect(waitUntil { ((try? server.requests(through: counter) { $0.hasPrefix("/stall") }) ?? 0) >= 1 })
        loader.want([])
        // Given up: nothing arrives (had the loads gone on, their pictures would have come
        // as tiles), and nothing failed to report or retry.
        #expect(loader.waitUntilIdle(deadline: MonotonicClock.now + 30))
        #expect(loader.drain().isEmpty)
        #expect(loader.nextRetry == nil)
    }

    @Test func onlyPicturesThatDecodeAreCached() throws {
        let server = try TileServer()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("online-decode-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tile = TileID(z: 4, x: 3, y: 5)
        // A PNG signature over nonsense: fetched, refused by the decoder, never kept.
        let fake = try cache(dir, server, "/fakepng?t={z}-{x}-{y}")
        let loader = TileLoader(source: try source(server, "/fakepng?t={z}-{x}-{y}", cache: fake), workers: 1, decode: decoder)
        loader.want([tile])
        let r = results(loader, count: 1)
        guard case .failed? = r.first?.outcome else { Issue.record("expected a failure, got \(r)"); return }
        #expect(fake.entry(for: tile, now: Date().timeIntervalSince1970) == nil)
        // A real one is kept once decoded.
        let good = try cache(dir, server, "/tile/{z}/{x}/{y}.png")
        let loader2 = TileLoader(source: try source(server, "/tile/{z}/{x}/{y}.png", cache: good), workers: 1, decode: decoder)
        loader2.want([tile])
        guard case .bitmap? = results(loader2, count: 1).first?.outcome else { Issue.record("the good tile failed"); return }
        #expect(good.entry(for: tile, now: Date().timeIntervalSince1970) != nil)
    }

    @Test func aCachedPictureThatDoesNotDecodeIsDroppedAndFetchedAnew() throws {
        let server = try TileServer()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("online-damaged-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = "/tile/{z}/{x}/{y}.png", tile = TileID(z: 5, x: 7, y: 9)
        let disk = try cache(dir, server, path)
        let now = Date().timeIntervalSince1970
        // A fresh entry whose bytes look like a PNG but are not one.
        disk.store(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 40)),
                   freshness: HTTPFreshness(storable: true, expires: now + 3600), for: tile, now: now)
        let src = try source(server, path, cache: disk)
        let loader = TileLoader(source: src, workers: 1, decode: decoder)
        loader.want([tile])
        guard case .failed? = results(loader, count: 1).first?.outcome else { Issue.record("the damaged entry decoded"); return }
        #expect(disk.entry(for: tile, now: now) == nil)
        #expect(src.requestCount == 0)
        // Asked again, it comes from the server, and is kept.
        let again = TileLoader(source: src, workers: 1, decode: decoder)
        again.want([tile])
        guard case .bitmap? = results(again, count: 1).first?.outcome else { Issue.record("the refetch failed"); return }
        #expect(src.requestCount == 1)
        #expect(disk.entry(for: tile, now: now) != nil)
    }

    @Test func aServerOutOfReachIsSaidUntilItAnswers() throws {
        let server = try TileServer()
        // A port nobody listens on (the server's, plus one, is almost surely free).
        let online = OnlineSource(name: "dead", template: try TileURLTemplate("http://127.0.0.1:\(server.port + 1)/{z}/{x}/{y}.png"),
                                  attribution: "", zoomRange: 0...19)
        let dead = OnlineTileSource(source: online, client: HTTPClient(options: .init(userAgent: "Meridian/test")), cache: nil)
        #expect(dead.unreachable == nil)
        #expect(throws: TileSourceError.self) { try dead.payload(for: TileID(z: 1, x: 0, y: 0)) }
        #expect(dead.unreachable != nil)
        let live = try source(server, "/tile/{z}/{x}/{y}.png", cache: nil)
        _ = try live.payload(for: TileID(z: 1, x: 0, y: 0))
        #expect(live.unreachable == nil)
        #expect(live.isRemote)
    }

    @Test func beyondTheServersDeepestZoomItsTilesAreDrawnEnlarged() throws {
        let server = try TileServer()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("online-enlarge-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = "/street/{z}/{x}/{y}.png?upto=6"
        let src = try source(server, path, cache: try cache(dir, server, path))
        let z6 = TileID(z: 6, x: 33, y: 22), z8 = TileID(z: 8, x: 133, y: 90)
        #expect(z8.ancestor(atZoom: 6) == z6)
        // Nothing at hand yet: no tile, the basemap under it shows.
        #expect(try src.payload(for: z8) == nil)
        // Once the zoom-6 tile came (and decoded, so it is cached), the zoom-8 tile under it is
        // drawn from it.
        guard case let .encodedImage(body)? = try src.payload(for: z6) else { Issue.record("no z6 picture"); return }
        src.decoded(z6, payload: .encodedImage(body), ok: true)
        let asked = src.requestCount
        guard case let .encodedImageRegion(data, ancestor)? = try src.payload(for: z8) else { Issue.record("z8 not enlarged"); return }
        #expect(ancestor == z6 && data == body)
        // The server said it has no z8 tile: it is not asked again, nor for any tile under it,
        // which is drawn from the z6 tile too.
        #expect(src.requestCount == asked)
        for deeper in [z8.children[0], z8.children[3].children[1]] {
            guard case let .encodedImageRegion(_, ancestor)? = try src.payload(for: deeper) else { Issue.record("\(deeper) not enlarged"); return }
            #expect(ancestor == z6)
        }
        #expect(src.requestCount == asked)
        // A tile beside it is asked for.
        _ = try src.payload(for: TileID(z: 8, x: 132, y: 90))
        #expect(src.requestCount == asked + 1)
        // Under a 404 with no ancestor at hand (a server whose tiles start deeper than its
        // zoom range says), deeper tiles are still asked for.
        let far = TileID(z: 12, x: 100, y: 100)
        #expect(try src.payload(for: far) == nil)
        #expect(try src.payload(for: far.children[0]) == nil)
        #expect(src.requestCount == asked + 3)
        // No further than four levels: a zoom-11 tile has no tile of its own to enlarge.
        #expect(try src.payload(for: TileID(z: 11, x: 133 * 8, y: 90 * 8)) == nil)
    }
}
