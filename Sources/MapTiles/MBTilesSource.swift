import CSQLite
import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// Tiles from an MBTiles file (SQLite; rows in TMS order). Vector tiles are served beyond
/// the file's deepest zoom from their ancestor there, to be drawn larger (vector over-zoom).
public final class MBTilesSource: TileSource, @unchecked Sendable { // immutable; its database locks each call
    public let database: SQLiteDatabase
    public let metadata: [String: String]
    public let isVector: Bool
    public let dataZoomRange: ClosedRange<Int>
    /// Points across one of its vector tiles as drawn: 512 for OpenMapTiles' (a tile of zoom
    /// z is drawn where Meridian's 256-point tiles are at z + 1), 256 for the embedded basemap.
    public let vectorTileSize: Int
    /// The data tiles read last, inflated, for the many tiles drawn from each.
    let inflatedTiles = InflatedDataTiles()
    /// Where the file says it has data; tiles wholly outside are not its (nil), so what lies
    /// under the map shows there.
    public let bounds: MapRect?
    /// The vector layers the metadata lists (empty when it lists none).
    public let vectorLayers: [String]
    /// The vector tiles' schema: from the metadata, else from a low tile's layers.
    public let schema: TileSchema?
    public var zoomShift: Int { isVector ? VectorOverzoom.shift(tilePoints: vectorTileSize) : 0 }
    public var name: String { "mbtiles:" + database.path }
    /// The metadata's attribution; without one, the OpenMapTiles credit for vector tiles of
    /// that schema (its layers in the "json" row, or the metadata naming it), else "".
    public let attribution: String

    /// Vector tiles are drawn at every zoom up to this one.
    public static let maxDisplayZoom = 20

    public var zoomRange: ClosedRange<Int> {
        isVector ? dataZoomRange.lowerBound...Self.maxDisplayZoom : RasterOverzoom.displayRange(dataZoomRange)
    }

    public init(path: String, vectorTileSize: Int = 256) throws {
        self.vectorTileSize = vectorTileSize == 512 ? 512 : 256
        database = try SQLiteDatabase(readOnly: path)
        var meta: [String: String] = [:]
        do {
            for (k, v) in try database.rows("SELECT name, value FROM metadata", [], {
                (SQLiteDatabase.text($0, 0), SQLiteDatabase.text($0, 1))
            }) { meta[k] = v }
        } catch {
            throw TileSourceError(tr("%@: not an MBTiles file (no metadata table)", path))
        }
        metadata = meta
        let format = meta["format"] ?? ""
        guard ["pbf", "png", "jpg", "jpeg", "webp"].contains(format) else {
            // TRANSLATORS: %1$@ is a file, %2$@ the tile format its metadata names.
            throw TileSourceError(tr("%1$@: unsupported tile format '%2$@' in metadata", path, format))
        }
        isVector = format == "pbf"
        var lo = Int(meta["minzoom"] ?? ""), hi = Int(meta["maxzoom"] ?? "")
        if lo == nil || hi == nil {
            let r = try database.rows("SELECT min(zoom_level), max(zoom_level) FROM tiles", [], {
                (Int(sqlite3_column_int64($0, 0)), Int(sqlite3_column_int64($0, 1)))
            })
            lo = lo ?? r.first?.0
            hi = hi ?? r.first?.1
        }
        guard let lo, let hi, lo >= 0, hi <= TileID.maxZoom, lo <= hi else {
            // TRANSLATORS: minzoom/maxzoom are the names of metadata entries.
            throw TileSourceError(tr("%@: no zoom levels (metadata minzoom/maxzoom missing and no tiles)", path))
        }
        dataZoomRange = lo...hi
        bounds = meta["bounds"].flatMap(Self.bounds(parsing:))
        struct Layers: Decodable {
            var vector_layers: [Layer]?
            struct Layer: Decodable { var id: String }
        }
        let layers = (try? JSONDecoder().decode(Layers.self, from: Data((meta["json"] ?? "").utf8)))?.vector_layers?.prefix(200).map(\.id) ?? []
        vectorLayers = layers
        let db = database
        schema = isVector ? TileSchema.detect(layers: layers, name: meta["name"], version: meta["version"], probing: TileSchema.probeZooms(lo...hi)) { z in
            try? db.rows("SELECT tile_data FROM tiles WHERE zoom_level = ? LIMIT 1", [.int(Int64(z))], { SQLiteDatabase.blob($0, 0) }).first
        } : nil
        attribution = VectorAttribution.credit(meta["attribution"] ?? "", schema: schema,
                                               mentioned: isVector && meta.values.contains { $0.lowercased().contains("openmaptiles") })
    }

    /// "W,S,E,N" in degrees, as MBTiles metadata writes it; nil when it is not that.
    static func bounds(parsing text: String) -> MapRect? {
        let v = text.split(separator: ",").compactMap { Double(String($0.filter { $0 != " " })) }
        guard v.count == 4, v.allSatisfy(\.isFinite), v[0] < v[2], v[1] < v[3], v[0] >= -180, v[2] <= 180, v[1] >= -90, v[3] <= 90 else { return nil }
        let nw = WebMercator.project(Coordinate(latitude: min(v[3], 85.05), longitude: v[0]))
        let se = WebMercator.project(Coordinate(latitude: max(v[1], -85.05), longitude: v[2]))
        return MapRect(x: nw.x, y: nw.y, width: se.x - nw.x, height: se.y - nw.y)
    }

    /// Whether the vector tiles are in the embedded basemap's own schema (land, lakes,
    /// places…), drawn in its look, rather than a street map's.
    public var holdsBasemapSchema: Bool { schema == .basemap }

    /// The stored bytes of a tile, nil where the file has none.
    public func data(for tile: TileID) throws -> Data? {
        let rows = try database.rows("SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
                                     [.int(Int64(tile.z)), .int(Int64(tile.x)), .int(Int64(tile.tmsY))]) { SQLiteDatabase.blob($0, 0) }
        return rows.first
    }

    public func payload(for tile: TileID) throws -> TilePayload? {
        guard isVector else { return try RasterOverzoom.payload(for: tile, dataZoomRange: dataZoomRange) { try data(for: $0) } }
        return try VectorOverzoom.payload(for: tile, bounds: bounds, dataZoomRange: dataZoomRange, vectorTileSize: vectorTileSize,
                                          name: database.path, recent: inflatedTiles) { try data(for: $0) }
    }
}
