import FoundationEssentials
import MapGeometry
import Platform

/// An extract's tiles from an MBTiles file: each tile is one indexed row.
public final class MBTilesExtractSource: ExtractSource, @unchecked Sendable { // immutable; its MBTiles file locks each call
    public let file: MBTilesSource
    public let name: String

    public init(path: String) throws {
        file = try MBTilesSource(path: path)
        name = path
    }

    public var zoomRange: ClosedRange<Int> { file.dataZoomRange }
    public var tileType: PMTilesHeader.TileType? {
        switch file.metadata["format"] {
        case "pbf": return .mvt
        case "png": return .png
        case "jpg", "jpeg": return .jpeg
        case "webp": return .webp
        default: return nil
        }
    }
    /// Vector tiles in MBTiles are gzipped by convention, pictures never; told by the bytes.
    public var tileCompression: PMTilesHeader.Compression? { tileType == .mvt ? nil : PMTilesHeader.Compression.none }
    public var concurrency: Int { 1 }
    public var batchSize: Int { 512 }
    public var bytesPerTile: UInt64 { 20_000 }
    public var requests: Int { 0 }

    public var metadata: [String: JSONValue] {
        var out = [String: JSONValue]()
        for key in ["name", "description", "attribution", "version"] { if let v = file.metadata[key] { out[key] = .string(v) } }
        if let json = file.metadata["json"], case let .object(o)? = try? JSONValue.parse(Data(json.utf8)) {
            for (k, v) in o { out[k] = v }
        }
        return out
    }

    public func fetch(_ ids: [UInt64]) throws -> [ExtractTile] {
        try ids.map { id in
            guard let tile = PMTilesTileID.tile(for: id) else { return ExtractTile(nil) }
            return ExtractTile(try file.data(for: tile))
        }
    }

    public func cancel() {}
}
