import Foundation
import MapGeometry
import MapNetwork
import MapTiles
import Platform
import Testing
import TestSupport

/// A map with a saved area beneath it, against the loopback server: while the server answers,
/// its (fresher) tiles show; once it is out of reach, the saved area's tiles show inside the
/// area (without asking the server for each), and outside it the map says why it has none.
@Suite(.serialized) struct AreaBackedSourceTests {
    /// A saved area as a file: PNG tiles at z1 (0,0) and (1,0), the north half of the world.
    func area(_ dir: URL) throws -> AreaBackedSource.Area {
        var options = PMTilesFixture.Options()
        options.tileType = 2
        let tiles = [(z: 1, x: 0, y: 0, data: ImageFixture.blackPNG(width: 2, height: 2)),
                     (z: 1, x: 1, y: 0, data: ImageFixture.blackPNG(width: 3, height: 3))]
        let path = dir.appendingPathComponent("area.pmtiles").path
        try PMTilesFixture.archive(tiles, options: options).write(to: URL(fileURLWithPath: path))
        let north = MapRect(x: 0, y: 0, width: WebMercator.worldSize, height: WebMercator.worldSize / 2 - 1)
        return AreaBackedSource.Area(source: try PMTilesSource(path: path), rects: [north], minZoom: 1)
    }

    func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("areas-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    func online(_ url: String) throws -> OnlineTileSource {
        let s = OnlineSource(name: "test", template: try TileURLTemplate(url), attribution: "", zoomRange: 0...19)
        return OnlineTileSource(source: s, client: HTTPClient(options: .init(userAgent: "Meridian/test")), cache: nil)
    }

    func bytes(_ p: TilePayload?) -> Data? {
        if case let .encodedImage(d)? = p { return d }
        return nil
    }

    @Test func theMapShowsWhileItAnswersAndTheSavedAreaWhenItDoesNot() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        let saved = try area(dir)
        let live = try online(server.url("/tile/{z}/{x}/{y}.png"))
        let backed = AreaBackedSource(primary: live, areas: [saved])
        let tile = TileID(z: 1, x: 0, y: 0)
        // Reachable: the server's own tile, over the saved one.
        let fresh = try #require(bytes(try backed.payload(for: tile)))
        #expect(fresh == bytes(try live.payload(for: tile)))
        #expect(fresh != ImageFixture.blackPNG(width: 2, height: 2))

        let dead = try online("http://127.0.0.1:\(server.port + 1)/{z}/{x}/{y}.png")
        let offline = AreaBackedSource(primary: dead, areas: [saved])
        #expect(bytes(try offline.payload(for: tile)) == ImageFixture.blackPNG(width: 2, height: 2))
        #expect(offline.unreachable != nil)
        // Out of reach: the next tile inside the area comes from it without a request.
        let asked = dead.requestCount
        #expect(bytes(try offline.payload(for: TileID(z: 1, x: 1, y: 0))) == ImageFixture.blackPNG(width: 3, height: 3))
        #expect(dead.requestCount == asked)
        // Deeper than the area holds: its tile, drawn larger (raster over-zoom).
        if case let .encodedImageRegion(d, ancestor)? = try offline.payload(for: TileID(z: 3, x: 1, y: 1)) {
            #expect(d == ImageFixture.blackPNG(width: 2, height: 2) && ancestor == tile)
        } else {
            Issue.record("no enlarged tile from the area")
        }
        // Outside the area (the south half), the map's own failure.
        #expect(throws: TileSourceError.self) { try offline.payload(for: TileID(z: 1, x: 0, y: 1)) }
        #expect(offline.name == dead.name && offline.isRemote)
    }

    @Test func aShallowerZoomThanTheAreaHoldsIsTheMapsAlone() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        let dead = try online("http://127.0.0.1:\(server.port + 1)/{z}/{x}/{y}.png")
        let offline = AreaBackedSource(primary: dead, areas: [try area(dir)])
        #expect(throws: TileSourceError.self) { try offline.payload(for: TileID(z: 0, x: 0, y: 0)) }
    }
}
