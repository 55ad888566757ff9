import Foundation
import MapGeometry
import MapTiles
import MeridianKit
import Testing

/// The schema is a property of a source: told from its metadata, else from its tiles, and
/// the built-in style chosen by it — an unknown schema drawn with a guessed style, and said.
struct TileSchemaTests {
    @Test func layersTellTheSchema() {
        let omt = ["place", "boundary", "poi", "housenumber", "waterway", "transportation", "transportation_name", "building", "water", "landuse", "landcover"]
        let pm = ["earth", "water", "landuse", "landcover", "roads", "buildings", "places", "pois", "boundaries", "transit"]
        #expect(TileSchema.detect(layers: omt) == .openMapTiles)
        #expect(TileSchema.detect(layers: pm) == .protomaps)
        #expect(TileSchema.detect(layers: ["land", "lakes", "places", "rivers"]) == .basemap)
        // Only layers both have: the metadata's name or version decides.
        #expect(TileSchema.detect(layers: ["water", "landuse"], name: "Protomaps Basemap", version: "4.3.0") == .protomaps)
        #expect(TileSchema.detect(layers: ["water", "landuse"], version: "4.0.1") == .protomaps)
        #expect(TileSchema.detect(layers: ["water", "landuse"], version: "3.15") == .unknown(["water", "landuse"]))
        #expect(TileSchema.detect(layers: ["streets", "lakes", "houses"]) == .unknown(["streets", "lakes", "houses"]))
        // A tile of the sea (water alone) tells nothing: the next tile is asked.
        let sea = VectorTile(layers: [.init(name: "water", features: [.init(type: .polygon, parts: [[.init(x: 0, y: 0), .init(x: 10, y: 0), .init(x: 10, y: 10)]])])])
        #expect(TileSchema.detect(tile: MVTEncoder.encode(sea)) == nil)
    }

    @Test func theFixturesSchemaIsReadFromMetadataOrTiles() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/vector")
        // The MBTiles names its layers; the PMTiles copy has no vector_layers: its tiles tell.
        #expect(try MBTilesSource(path: root.appendingPathComponent("helsinki.mbtiles").path).schema == .openMapTiles)
        let pm = try PMTilesSource(path: root.appendingPathComponent("helsinki.pmtiles").path)
        #expect(pm.vectorLayers.isEmpty)
        #expect(pm.schema == .openMapTiles)
    }

    /// A bare {z}/{x}/{y} address says nothing of its schema: its first tile tells it, the
    /// app is told (to draw it again in that schema's style), and the source opened again knows.
    @Test func aBareAddressLearnsItsSchemaFromItsFirstTile() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/vector")
        let archive = try PMTilesSource(path: root.appendingPathComponent("helsinki-protomaps.pmtiles").path)
        let tile = TileID(containing: Coordinate(latitude: 60.1699, longitude: 24.9384), zoom: 15)
        let bytes = try #require(try archive.data(for: tile))
        let online = OnlineSource(name: "bare-\(getpid())", title: "Bare", template: try TileURLTemplate("http://127.0.0.1:9/{z}/{x}/{y}.pbf"),
                                  attribution: "", zoomRange: 0...15, kind: .vector)
        let client = HTTPClient(options: .init(userAgent: "TileSchemaTests/1"))
        let heard = MapCatalogTests.Heard()
        OnlineVectorTileSource.schemaLearned.set { heard.add($0) }
        defer { OnlineVectorTileSource.schemaLearned.set(nil) }
        let first = OnlineVectorTileSource(source: online, tileJSON: nil, client: client, cache: nil)
        #expect(first.schema == nil)
        first.decoded(tile, payload: .vector(bytes, tile: tile), ok: true)
        #expect(heard.all == [online.name])
        #expect(OnlineVectorTileSource(source: online, tileJSON: nil, client: client, cache: nil).schema == .protomaps)
        // Told once.
        first.decoded(tile, payload: .vector(bytes, tile: tile), ok: true)
        #expect(heard.all == [online.name])
    }

    /// An archive of layers no style knows: drawn with a style made from their names, and
    /// said once.
    @Test func anUnknownSchemaIsDrawnWithAGuessedStyleAndSaid() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("odd.mbtiles").path
        let square: [[VectorTile.Point]] = [[.init(x: 0, y: 0), .init(x: 4096, y: 0), .init(x: 4096, y: 4096), .init(x: 0, y: 4096)]]
        let tile = VectorTile(layers: [
            .init(name: "lakes_and_ponds", features: [.init(type: .polygon, parts: square)]),
            .init(name: "streets", features: [.init(type: .lineString, parts: [[.init(x: 0, y: 2048), .init(x: 4096, y: 2048)]],
                                                     properties: ["name": .string("Main Street")])]),
        ])
        let writer = try MBTilesWriter(path: path)
        try writer.metadata("format", "pbf")
        try writer.metadata("minzoom", "0")
        try writer.metadata("maxzoom", "0")
        try writer.tile(TileID(z: 0, x: 0, y: 0), MVTEncoder.encode(tile))
        try writer.finish()

        let source = try MBTilesSource(path: path, vectorTileSize: 512)
        #expect(source.schema == .unknown(["lakes_and_ponds", "streets"]))
        let catalog = MapCatalog()
        let made = try catalog.tiles(over: source)
        let style = try #require(made.painter.mapStyle)
        let drawn = Set(style.layers.compactMap(\.sourceLayer))
        #expect(drawn == ["lakes_and_ponds", "streets"])
        #expect(style.notices.isEmpty, "the guessed style draws every layer it makes: \(style.notices)")
        #expect(made.notices.count == 1 && made.notices[0].contains("lakes_and_ponds, streets"), "said: \(made.notices)")
        // Said once.
        #expect(try catalog.tiles(over: source).notices.isEmpty)
    }
}
