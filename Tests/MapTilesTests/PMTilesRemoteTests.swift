import Foundation
import MapGeometry
import MapNetwork
import MapTiles
import Platform
import Testing
import TestSupport

/// PMTiles archives read over HTTP range requests from the loopback server's /file/ route.
@Suite(.serialized) struct PMTilesRemoteTests {
    /// Tiles of 3 KB each, so that most lie beyond the first 16 KiB the reader fetches first.
    static let tiles = PMTilesTests.tiles(zooms: 0...3).map { t in
        (z: t.z, x: t.x, y: t.y, data: t.data + Data(repeating: UInt8(t.x * 16 + t.y), count: 3000))
    }

    static func write(_ tiles: [(z: Int, x: Int, y: Int, data: Data)], leafSize: Int? = 4) throws -> String {
        var o = PMTilesFixture.Options()
        o.leafSize = leafSize
        let path = NSTemporaryDirectory() + "remote-\(UUID().uuidString).pmtiles"
        try PMTilesFixture.archive(tiles, options: o).write(to: URL(fileURLWithPath: path))
        return path
    }

    func requests(_ server: TileServer, _ path: String) throws -> Int {
        try server.requests(through: client) { $0 == path }
    }

    let client = HTTPClient(options: .init(userAgent: "Meridian/test"))

    /// The four tiles drawn from one stored tile, asked for at once as the loader does, cost
    /// one read of it (and of its leaf directory the first time), not four.
    @Test func siblingsShareOneRead() throws {
        let server = try TileServer()
        let path = try Self.write(Self.tiles, leafSize: nil)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let cache = NSTemporaryDirectory() + "pmtiles-cache-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let src = try PMTilesSource.remote(url: server.url("/file" + path), client: client, cacheRoot: cache)
        let before = try requests(server, "/file" + path)
        // A z3 tile beyond the first 16 KiB: the tiles of z4 under it are drawn from it.
        let stored = TileID(z: 3, x: 7, y: 7)
        let got = Lock()
        var bodies = 0
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            if case .vector? = try? src.payload(for: stored.children[i]) { got.lock(); bodies += 1; got.unlock() }
        }
        #expect(bodies == 4)
        #expect(try requests(server, "/file" + path) - before == 1)
    }

    @Test func readsEveryTileOverRangeRequests() throws {
        let server = try TileServer()
        let path = try Self.write(Self.tiles)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let url = server.url("/file" + path)
        let src = try PMTilesSource.remote(url: url, client: client, cacheRoot: nil)
        #expect(src.isRemote && src.name == "pmtiles:" + url)
        #expect(src.attribution == "© Test contributors")
        #expect(try requests(server, "/file" + path) == 1) // header and root in one
        for t in Self.tiles {
            // Vector tiles are drawn at 512 points: a stored tile serves the tiles a zoom below.
            guard case let .vector(bytes, _)? = try src.payload(for: TileID(z: t.z, x: t.x, y: t.y).children[0]) else { Issue.record("no tile"); continue }
            #expect(bytes == t.data)
        }
        #expect(try requests(server, "/file" + path) > Self.tiles.count / 2)
    }

    @Test func aServerThatIgnoresRangeIsAcceptedForSmallArchives() throws {
        let server = try TileServer()
        let path = try Self.write(Self.tiles)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let src = try PMTilesSource.remote(url: server.url("/file-whole" + path), client: client, cacheRoot: nil)
        for t in Self.tiles { #expect(try src.data(for: TileID(z: t.z, x: t.x, y: t.y)) == t.data) }
        // The whole archive came with the first answer: nothing more was asked.
        #expect(try requests(server, "/file-whole" + path) == 1)
    }

    @Test func butNotForLargeOnes() throws {
        let server = try TileServer()
        let path = try Self.write([(0, 0, 0, Data(count: 17 << 20))], leafSize: nil)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let url = server.url("/file-whole" + path)
        do {
            _ = try PMTilesSource.remote(url: url, client: client, cacheRoot: nil)
            Issue.record("opened")
        } catch {
            #expect("\(error)".contains("ignores range requests") && "\(error)".contains(url), "\(error)")
        }
    }

    @Test func missingAndEmptyArchivesSayWhy() throws {
        let server = try TileServer()
        let empty = NSTemporaryDirectory() + "empty-\(UUID().uuidString).pmtiles"
        FileManager.default.createFile(atPath: empty, contents: Data())
        defer { try? FileManager.default.removeItem(atPath: empty) }
        for (path, words) in [("/file/nonexistent.pmtiles", "answered 404"), ("/file" + empty, "answered 416")] {
            do {
                _ = try PMTilesSource.remote(url: server.url(path), client: client, cacheRoot: nil)
                Issue.record("opened \(path)")
            } catch {
                #expect("\(error)".contains(words) && "\(error)".contains(server.url(path)), "\(error)")
            }
        }
        #expect(throws: TileSourceError.self) { try PMTilesSource.remote(url: "file:///etc/passwd", client: client, cacheRoot: nil) }
    }

    @Test func cachedTilesAndDirectoriesServeOffline() throws {
        var server: TileServer? = try TileServer()
        let path = try Self.write(Self.tiles)
        let dir = NSTemporaryDirectory() + "pmtiles-cache-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path); try? FileManager.default.removeItem(atPath: dir) }
        let url = server!.url("/file" + path)
        let seen = Array(Self.tiles.prefix(10))
        do {
            let src = try PMTilesSource.remote(url: url, client: client, cacheRoot: dir)
            for t in seen { #expect(try src.data(for: TileID(z: t.z, x: t.x, y: t.y)) == t.data) }
            let before = try requests(server!, "/file" + path)
            // Again: from the disk cache, not the server.
            for t in seen { #expect(try src.data(for: TileID(z: t.z, x: t.x, y: t.y)) == t.data) }
            #expect(try requests(server!, "/file" + path) == before)
        }
        server = nil // the server is gone: offline
        let offline = try PMTilesSource.remote(url: url, client: client, cacheRoot: dir)
        for t in seen { #expect(try offline.data(for: TileID(z: t.z, x: t.x, y: t.y)) == t.data) }
        let unseen = Self.tiles.last!
        #expect(throws: TileSourceError.self) { try offline.data(for: TileID(z: unseen.z, x: unseen.x, y: unseen.y)) }
    }

    @Test func aChangedArchiveDropsWhatWasCached() throws {
        let server = try TileServer()
        let path = try Self.write(Self.tiles)
        let dir = NSTemporaryDirectory() + "pmtiles-cache-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path); try? FileManager.default.removeItem(atPath: dir) }
        let url = server.url("/file" + path)
        let tile = TileID(z: 2, x: 1, y: 3)
        #expect(try PMTilesSource.remote(url: url, client: client, cacheRoot: dir).data(for: tile) == Self.tiles.first { $0.z == 2 && $0.x == 1 && $0.y == 3 }!.data)
        // A new archive at the same address (another size, so another ETag).
        let changed = Self.tiles.map { (z: $0.z, x: $0.x, y: $0.y, data: Data("new \($0.z)/\($0.x)/\($0.y)".utf8)) }
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: try Self.write(changed), toPath: path)
        #expect(try PMTilesSource.remote(url: url, client: client, cacheRoot: dir).data(for: tile) == Data("new 2/1/3".utf8))
    }

    @Test func contentRangeIsParsedStrictly() {
        #expect(HTTPRangeReader.contentRange("bytes 0-16383/50000")! == (0, 16383, 50000))
        #expect(HTTPRangeReader.contentRange("bytes 5-9/*")!.total == nil)
        for bad in ["bytes 9-5/100", "bytes 0-100/100", "0-5/10", "bytes -5/10", "bytes 0-18446744073709551616/1", "bytes 1-2"] {
            #expect(HTTPRangeReader.contentRange(bad) == nil, "\(bad)")
        }
    }
}
