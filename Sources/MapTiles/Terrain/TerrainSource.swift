import FoundationEssentials
import MapGeometry

/// Terrain as a map: the DEM tiles of another source (an archive of terrarium PNGs, a DEM tile
/// server) handed over as `TilePayload.terrain`, which the graphics layer shades and traces
/// for contours. Everything else is the DEM source's.
public struct TerrainSource: TileSource {
    public let dem: TileSource
    public let encoding: DEMTile.Encoding

    public init(dem: TileSource, encoding: DEMTile.Encoding = .terrarium) {
        self.dem = dem
        self.encoding = encoding
    }

    public var name: String { "terrain:" + dem.name }
    public var zoomRange: ClosedRange<Int> { dem.zoomRange }
    public var attribution: String { dem.attribution }
    public var attributionURL: String? { dem.attributionURL }
    public var concurrency: Int { dem.concurrency }
    public var isRemote: Bool { dem.isRemote }
    public var unreachable: String? { dem.unreachable }

    public func payload(for tile: TileID) throws -> TilePayload? {
        switch try dem.payload(for: tile) {
        case let .encodedImage(data)?: return .terrain(data, encoding: encoding, tile: tile)
        case let .encodedImageRegion(data, ancestor)?: return .terrain(data, encoding: encoding, tile: ancestor)
        case .vector?, .debugGrid?, .terrain?:
            throw TileSourceError("\(dem.name): tile \(tile) is not a DEM picture")
        case nil: return nil
        }
    }

    public func cancel(_ tiles: [TileID]) { dem.cancel(tiles) }
    public func decoded(_ tile: TileID, payload: TilePayload, ok: Bool) { dem.decoded(tile, payload: demPayload(payload), ok: ok) }
    public func keptAhead(_ tile: TileID, payload: TilePayload) { dem.keptAhead(tile, payload: demPayload(payload)) }
    public func abandoned(_ tile: TileID) { dem.abandoned(tile) }

    /// The DEM source's own payload for one this source made (so its cache sees what it gave).
    private func demPayload(_ p: TilePayload) -> TilePayload {
        if case let .terrain(data, _, _) = p { return .encodedImage(data) }
        return p
    }
}
