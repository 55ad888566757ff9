import FoundationEssentials
import MapGeometry
import Platform

/// Terrain as a map: the DEM tiles of another source (an archive of terrarium PNGs, a DEM tile
/// server) handed over as `TilePayload.terrain`, which the graphics layer shades and traces
/// for contours. Everything else is the DEM source's.
public struct TerrainSource: TileSource {
    public let dem: TileSource
    public let encoding: DEMTile.Encoding

    /// Past the heights' deepest zoom many tiles share one DEM tile, asked for at once: it is
    /// fetched once, the others wait for it.
    private let shared = SharedFetches(keeping: 4 << 20)

    public init(dem: TileSource, encoding: DEMTile.Encoding = .terrarium) {
        self.dem = dem
        self.encoding = encoding
    }

    public var name: String { "terrain:" + dem.name }
    /// Deeper than the heights go too: each tile there is shaded and traced at its own zoom
    /// from its ancestor's heights, interpolated (crisp lines, not an enlarged picture).
    public var zoomRange: ClosedRange<Int> { RasterOverzoom.displayRange(dem.zoomRange) }
    public var attribution: String { dem.attribution }
    public var attributionURL: String? { dem.attributionURL }
    public var concurrency: Int { dem.concurrency }
    public var isRemote: Bool { dem.isRemote }
    public var unreachable: String? { dem.unreachable }

    /// The DEM tile that holds `tile`'s heights: itself, or its ancestor at the deepest zoom.
    public func demTile(for tile: TileID) -> TileID {
        tile.z > dem.zoomRange.upperBound ? tile.ancestor(atZoom: dem.zoomRange.upperBound) : tile
    }

    public func payload(for tile: TileID) throws -> TilePayload? {
        let asked = demTile(for: tile)
        guard asked != tile else { return try terrain(dem.payload(for: asked), asked) }
        var other: TilePayload?
        let data = try shared.data(for: asked) {
            let got = try dem.payload(for: asked)
            if case let .encodedImage(d)? = got { return d }
            other = got
            return nil
        }
        return try terrain(data.map { .encodedImage($0) } ?? other, asked)
    }

    /// The DEM source's payload for `asked` as terrain.
    private func terrain(_ payload: TilePayload?, _ asked: TileID) throws -> TilePayload? {
        switch payload {
        case let .encodedImage(data)?: return .terrain(data, encoding: encoding, tile: asked)
        case let .encodedImageRegion(data, ancestor)?: return .terrain(data, encoding: encoding, tile: ancestor)
        case .vector?, .debugGrid?, .terrain?, .styled?, .drawings?:
            // TRANSLATORS: %1$@ is a map source's name, %2$@ a tile's z/x/y; DEM: a digital elevation model (heights).
            throw TileSourceError(tr("%1$@: tile %2$@ is not a DEM picture", dem.name, asked))
        case nil: return nil
        }
    }

    /// A DEM tile shared by several drawn ones is not cancelled or let go for one of them.
    public func cancel(_ tiles: [TileID]) { dem.cancel(tiles.filter { demTile(for: $0) == $0 }) }
    /// Told of the DEM tile it asked for (so its cache sees what it gave), not of the tile drawn.
    public func decoded(_ tile: TileID, payload: TilePayload, ok: Bool) { dem.decoded(demTile(for: tile), payload: demPayload(payload), ok: ok) }
    public func keptAhead(_ tile: TileID, payload: TilePayload) { dem.keptAhead(demTile(for: tile), payload: demPayload(payload)) }
    public func abandoned(_ tile: TileID) { if demTile(for: tile) == tile { dem.abandoned(tile) } }

    /// The DEM source's own payload for one this source made.
    private func demPayload(_ p: TilePayload) -> TilePayload {
        if case let .terrain(data, _, _) = p { return .encodedImage(data) }
        return p
    }
}
