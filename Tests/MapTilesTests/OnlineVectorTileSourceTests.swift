import CSQLite
import Foundation
import MapGeometry
import MapNetwork
import MapTiles
import Platform
import Testing
import TestSupport

struct TileJSONTests {
    static func doc(_ fields: String) -> Data { Data("{\(fields)}".utf8) }

    @Test func aGoodDocumentIsRead() throws {
        let t = try TileJSON(Self.doc("""
            "tilejson": "3.0.0", "name": "Planet", "minzoom": 0, "maxzoom": 14,
            "tiles": ["https://t.example/planet/{z}/{x}/{y}.pbf", "https://u.example/{z}/{x}/{y}.pbf"],
            "attribution": "<a href=\\"https://openfreemap.org\\">OpenFreeMap</a> <a href=\\"https://www.openmaptiles.org/\\">&copy; OpenMapTiles</a>",
            "vector_layers": [{"id": "water", "fields": {}}, {"id": "transportation"}], "bounds": [-180, -85, 180, 85]
            """), url: "https://t.example/planet")
        #expect(t.tiles.first?.url(for: TileID(z: 3, x: 4, y: 2)) == "https://t.example/planet/3/4/2.pbf")
        #expect(t.minZoom == 0 && t.maxZoom == 14 && t.dataZoomRange == 0...14)
        #expect(t.attribution == "OpenFreeMap © OpenMapTiles")
        #expect(t.vectorLayers == ["water", "transportation"])
        #expect(t.bounds == [-180, -85, 180, 85])
        #expect(t.isOpenMapTiles)
        // Zooms beyond a TileID's are served from zoom 22.
        #expect(try TileJSON(Self.doc(#""tiles": ["https://t.example/{z}/{x}/{y}.pbf"], "maxzoom": 30"#), url: "u").dataZoomRange == 0...22)
    }

    @Test("Hostile documents are refused with the address and the fault", arguments: [
        ("not json", "not a TileJSON document"),
        (#"{"tiles": []}"#, "no tile addresses"),
        (#"{"tiles": ["file:///etc/{z}/{x}/{y}"]}"#, "must start with https:// or http://"),
        (#"{"tiles": ["https://t.example/tiles.pbf"]}"#, "needs {z}, {x} and {y}"),
        (#"{"tiles": ["https://t.example/{z}/{x}/{y}"], "maxzoom": 31}"#, "maxzoom 31.0 is not a zoom"),
        (#"{"tiles": ["https://t.example/{z}/{x}/{y}"], "minzoom": 2.5}"#, "minzoom 2.5 is not a zoom"),
        (#"{"tiles": ["https://t.example/{z}/{x}/{y}"], "minzoom": -1}"#, "not a zoom"),
        (#"{"tiles": ["https://t.example/{z}/{x}/{y}"], "minzoom": 9, "maxzoom": 3}"#, "minzoom 9 is above maxzoom 3"),
        (#"{"tiles": "https://t.example/{z}/{x}/{y}"}"#, "not a TileJSON document"),
    ])
    func refused(text: String, words: String) {
        do {
            _ = try TileJSON(Data(text.utf8), url: "https://t.example/tiles.json")
            Issue.record("accepted \(text)")
        } catch {
            #expect("\(error)".hasPrefix("https://t.example/tiles.json: ") && "\(error)".contains(words), "\(error)")
        }
    }

    @Test func oversizedDocumentsAndOddBoundsAreHandled() throws {
        #expect(throws: TileSourceError.self) { try TileJSON(Data(count: TileJSON.maxBytes + 1), url: "u") }
        let t = try TileJSON(Self.doc(#""tiles": ["https://t.example/{z}/{x}/{y}"], "bounds": [0, 95, 200, 2]"#), url: "u")
        #expect(t.bounds == nil)
        #expect(!t.isOpenMapTiles)
    }
}

struct VectorSourceCatalogTests {
    @Test func vectorEntriesAreRead() throws {
        let (sources, problems) = try OnlineSource.catalog(Data("""
            {"sources": [
              {"name": "vt", "type": "vector", "url": "https://t.example/{z}/{x}/{y}.pbf", "maxZoom": 14, "style": "/home/me/style.json"},
              {"name": "tj", "type": "vector", "url": "https://t.example/planet", "style": "https://t.example/style.json"},
              {"name": "bad-type", "type": "hologram", "url": "https://t.example/{z}/{x}/{y}.png"},
              {"name": "raster-style", "url": "https://t.example/{z}/{x}/{y}.png", "style": "x.json"},
              {"name": "tj-bad", "type": "vector", "url": "ftp://t.example/planet"},
              {"name": "plain", "url": "https://t.example/{z}/{x}/{y}.png"}
            ]}
            """.utf8), file: "sources.json")
        #expect(sources.map(\.name) == ["vt", "tj", "plain"])
        #expect(sources[0].kind == .vector && sources[0].tileJSON == nil && sources[0].style == "/home/me/style.json")
        #expect(sources[0].zoomRange == 0...14)
        #expect(sources[1].kind == .vector && sources[1].tileJSON == "https://t.example/planet" && sources[1].style == "https://t.example/style.json")
        #expect(sources[2].kind == .raster && sources[2].style == nil)
        #expect(problems.count == 3)
        #expect(problems.contains { $0.hasPrefix("sources.json: sources[2]") && $0.contains("\"raster\" or \"vector\"") })
        #expect(problems.contains { $0.hasPrefix("sources.json: sources[3]") && $0.contains("only vector sources") })
        #expect(problems.contains { $0.hasPrefix("sources.json: sources[4]") && $0.contains("TileJSON address") })
    }

    @Test func openFreeMapIsBuiltIn() {
        let s = OnlineSource.openFreeMap
        // Its public instance states no limit: areas may be saved; OpenStreetMap's may not.
        #expect(s.bulkRefusal == nil && OnlineSource.openStreetMap.bulkRefusal != nil && OnlineSource.openTopoMap.bulkRefusal != nil)
        #expect(OnlineSource.builtIn.contains(s))
        #expect(s.name == "openfreemap" && s.title == "OpenFreeMap (streets)" && s.kind == .vector)
        #expect(s.tileJSON == "https://tiles.openfreemap.org/planet")
        #expect(s.attribution == "OpenFreeMap © OpenMapTiles © OpenStreetMap contributors")
        #expect(s.attributionURL == "https://www.openstreetmap.org/copyright")
    }

    @Test func openMapTilesFilesWithoutAttributionAreCredited() throws {
        var o = PMTilesFixture.Options()
        o.metadata = #"{"vector_layers":[{"id":"water"},{"id":"transportation"},{"id":"place"}]}"#
        let archive = try PMTilesArchive(reader: DataRangeReader(PMTilesFixture.archive([(0, 0, 0, Data("x".utf8))], options: o)), name: "m")
        #expect(try PMTilesSource(archive: archive, name: "p").attribution == VectorAttribution.openMapTiles)
        o.metadata = #"{"vector_layers":[{"id":"water"}]}"#
        let other = try PMTilesArchive(reader: DataRangeReader(PMTilesFixture.archive([(0, 0, 0, Data("x".utf8))], options: o)), name: "m")
        #expect(try PMTilesSource(archive: other, name: "p").attribution == "")

        let path = NSTemporaryDirectory() + "omt-\(UUID().uuidString).mbtiles"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try MBTilesFixture.write(path, metadata: ["format": "pbf", "minzoom": "0", "maxzoom": "0", "description": "Made with OpenMapTiles tools"],
                                 tiles: [(0, 0, 0, Data())])
        #expect(try MBTilesSource(path: path).attribution == VectorAttribution.openMapTiles)
    }
}

/// Vector tiles from the loopback server: gzip-encoded .pbf tiles of a fixture MBTiles, by
/// template and by TileJSON.
@Suite(.serialized) struct OnlineVectorTileSourceTests {
    let client = HTTPClient(options: .init(userAgent: "Meridian/test"))
    static let mvt = HostileTileTests.placesTile()

    /// A vector MBTiles with tiles at zooms 0…2 (some stored gzipped, some not) and the
    /// OpenMapTiles layers in its metadata, no attribution.
    static func fixture() throws -> String {
        let path = NSTemporaryDirectory() + "vector-\(UUID().uuidString).mbtiles"
        try MBTilesFixture.write(path, metadata: ["format": "pbf", "minzoom": "0", "maxzoom": "2",
                                                  "json": #"{"vector_layers":[{"id":"water"},{"id":"transportation"}]}"#],
                                 tiles: [(0, 0, 0, mvt), (1, 1, 0, MBTilesFixture.gzip(mvt)), (2, 2, 1, mvt)])
        return path
    }

    func requests(_ server: TileServer, containing part: String) throws -> Int {
        try server.requests(through: client) { $0.contains(part) }
    }

    func vector(_ payload: TilePayload?) -> (Data, TileID)? {
        if case let .vector(d, t)? = payload { return (d, t) }
        return nil
    }

    @Test func tilesByTemplateAreInflatedAndOverzoomed() throws {
        let server = try TileServer()
        let path = try Self.fixture()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let online = OnlineSource(name: "vt", template: try TileURLTemplate(server.url("/mbtiles\(path)/{z}/{x}/{y}.pbf")),
                                  attribution: "© Someone", zoomRange: 0...2, kind: .vector)
        let src = try OnlineVectorTileSource.open(online, client: client, cacheRoot: nil)
        #expect(src.isRemote && src.zoomRange == 0...20 && src.attribution == "© Someone")
        for t in [TileID(z: 0, x: 0, y: 0), TileID(z: 1, x: 1, y: 0), TileID(z: 2, x: 2, y: 1)] {
            // Drawn at 512 points: a tile's data serves the tiles a zoom below.
            let (bytes, tile) = try #require(vector(try src.payload(for: t.children[0])))
            #expect(bytes == Self.mvt && tile == t)
            #expect(try MVTDecoder.decode(bytes).layer("places") != nil)
        }
        let deep = TileID(z: 2, x: 2, y: 1).children[0].children[3]
        let (bytes, tile) = try #require(vector(try src.payload(for: deep)))
        #expect(bytes == Self.mvt && tile == TileID(z: 2, x: 2, y: 1))
        #expect(try src.payload(for: TileID(z: 2, x: 0, y: 0).children[0]) == nil) // 404: nothing there
    }

    /// The four tiles drawn from one data tile, asked for at once as the loader does, cost
    /// the server one request.
    @Test func siblingsShareOneRequest() throws {
        let server = try TileServer()
        let path = try Self.fixture()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let online = OnlineSource(name: "vt", template: try TileURLTemplate(server.url("/mbtiles\(path)/{z}/{x}/{y}.pbf")),
                                  attribution: "", zoomRange: 0...2, kind: .vector)
        let src = try OnlineVectorTileSource.open(online, client: client, cacheRoot: nil)
        let children = TileID(z: 1, x: 1, y: 0).children
        let got = Lock()
        var bodies: [Data] = []
        DispatchQueue.concurrentPerform(iterations: children.count) { i in
            let v = vector(try? src.payload(for: children[i]))
            got.lock(); if let v { bodies.append(v.0) }; got.unlock()
        }
        #expect(bodies.count == 4 && bodies.allSatisfy { $0 == Self.mvt })
        #expect(try requests(server, containing: "/1/1/0.pbf") == 1)
    }

    @Test func tilesByTileJSONAreCreditedCachedAndServeOffline() throws {
        var server: TileServer? = try TileServer()
        let path = try Self.fixture()
        let root = NSTemporaryDirectory() + "vector-cache-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path); try? FileManager.default.removeItem(atPath: root) }
        let online = try OnlineSource(name: "tj", tileJSON: server!.url("/tilejson\(path)?noattribution"), attribution: "")
        let stored = TileID(z: 1, x: 1, y: 0), tile = stored.children[0] // drawn from the tile a zoom up
        do {
            let src = try OnlineVectorTileSource.open(online, client: client, cacheRoot: root)
            #expect(src.dataZoomRange == 0...2 && src.zoomRange == 0...20)
            #expect(src.attribution == VectorAttribution.openMapTiles)
            #expect(src.tileJSON?.vectorLayers == ["water", "transportation"])
            let payload = try src.payload(for: tile)
            #expect(vector(payload)?.0 == Self.mvt)
            // Kept once the loader says it decoded.
            src.decoded(tile, payload: payload!, ok: true)
        }
        let fetched = try requests(server!, containing: "/1/1/0.pbf")
        #expect(fetched == 1)
        let again = try OnlineVectorTileSource.open(online, client: client, cacheRoot: root)
        #expect(vector(try again.payload(for: tile))?.0 == Self.mvt)
        #expect(try requests(server!, containing: "/1/1/0.pbf") == fetched)
        // Offline: the kept TileJSON and tile still serve.
        server = nil
        let offline = try OnlineVectorTileSource.open(online, client: client, cacheRoot: root)
        #expect(throws: TileSourceError.self) { try offline.payload(for: TileID(z: 2, x: 2, y: 1).children[0]) } // never fetched
        #expect(vector(try offline.payload(for: tile))?.0 == Self.mvt)
    }

    @Test(.enabled(if: PMTilesFixtureFileTests.present))
    func theHelsinkiTilesComeThroughTheServerUnchanged() throws {
        let server = try TileServer()
        let path = PMTilesFixtureFileTests.mbtiles
        let src = try OnlineVectorTileSource.open(try OnlineSource(name: "hel", tileJSON: server.url("/tilejson" + path), attribution: ""),
                                                  client: client, cacheRoot: nil)
        let local = try MBTilesSource(path: path)
        #expect(src.dataZoomRange == local.dataZoomRange && src.attribution == local.attribution)
        let ids = try local.database.rows("SELECT zoom_level, tile_column, tile_row FROM tiles") { st in
            (Int(sqlite3_column_int64(st, 0)), Int(sqlite3_column_int64(st, 1)), Int(sqlite3_column_int64(st, 2)))
        }
        for (z, x, tmsY) in ids {
            let tile = TileID(z: z, x: x, y: (1 << z) - 1 - tmsY)
            let stored = try #require(try local.data(for: tile))
            #expect(vector(try src.payload(for: tile.children[0]))?.0 == (Gzip.isCompressed(stored) ? try Gzip.decompress(stored) : stored), "\(tile)")
        }
    }

    @Test func aTileJSONThatCannotBeHadSaysWhy() throws {
        let server = try TileServer()
        let online = try OnlineSource(name: "gone", tileJSON: server.url("/status/500"), attribution: "")
        do {
            _ = try OnlineVectorTileSource.open(online, client: client, cacheRoot: nil)
            Issue.record("opened")
        } catch {
            #expect("\(error)".contains("answered 500") && "\(error)".contains("/status/500"))
        }
        #expect(throws: OnlineSource.CatalogError.self) { try OnlineSource(name: "x", tileJSON: "https://t.example/{z}", attribution: "") }
    }
}
