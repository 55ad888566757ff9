import FoundationEssentials
import MapGeometry
import Platform

/// The tiles of a MapLibre style's several sources, for one tile: the vector tiles of the
/// map's source, and for each raster or raster-dem source the style draws, the picture over the
/// same ground (`TilePayload.styled`), so that its layers are drawn in their place among the
/// vector layers, tile by tile, as MapLibre does. A picture that cannot be had (its server
/// down, beyond its zooms) leaves its layers out of that tile; the vector tile decides the rest.
public struct StyledTileSource: TileSource {
    /// A picture source as the style declares it.
    public struct Picture: Sendable {
        /// The style's name for it.
        public let name: String
        public let source: TileSource
        /// Pixels across one of its tiles (512 by MapLibre's default): a 512-pixel tile of zoom
        /// z covers the ground of a 256-point tile of zoom z + 1, so it is asked a zoom up.
        public let tileSize: Int
        /// The style zooms at which a layer draws it (from the lowest minzoom, up to but not
        /// including the highest maxzoom): elsewhere it is not asked for.
        public let styleZooms: Range<Double>
        public init(name: String, source: TileSource, tileSize: Int, styleZooms: Range<Double> = 0..<24) {
            self.name = name; self.source = source; self.tileSize = tileSize; self.styleZooms = styleZooms
        }

        /// The square of ground whose picture covers `tile`; nil above its shallowest zoom, or
        /// where no layer draws it (MapLibre's zoom is Meridian's less one).
        public func pictureTile(for tile: TileID) -> TileID? {
            guard styleZooms.contains(Double(tile.z - 1)) || (tile.z == 0 && styleZooms.lowerBound <= 0) else { return nil }
            let z = min(tile.z - VectorOverzoom.shift(tilePoints: tileSize), source.zoomRange.upperBound)
            guard z >= source.zoomRange.lowerBound, z >= 0 else { return nil }
            return tile.ancestor(atZoom: z)
        }
    }

    public let vector: TileSource
    public let pictures: [Picture]
    public var zoomShift: Int { vector.zoomShift }

    public init(vector: TileSource, pictures: [Picture]) {
        self.vector = vector
        self.pictures = pictures
    }

    public var name: String { vector.name }
    public var zoomRange: ClosedRange<Int> { vector.zoomRange }
    public var attribution: String {
        var seen = Set<String>()
        return ([vector.attribution] + pictures.map(\.source.attribution)).filter { !$0.isEmpty && seen.insert($0).inserted }.joined(separator: " · ")
    }
    public var attributionURL: String? { vector.attributionURL }
    public var concurrency: Int { vector.concurrency }
    public var isRemote: Bool { vector.isRemote || pictures.contains { $0.source.isRemote } }
    public var unreachable: String? { vector.unreachable }

    public func payload(for tile: TileID) throws -> TilePayload? {
        let main = try vector.payload(for: tile)
        var found: [StylePicture] = []
        for p in pictures {
            guard let t = p.pictureTile(for: tile) else { continue }
            // A picture it cannot have (its server down or refusing) is left out of this tile:
            // the map is still drawn. A tile no longer wanted is not drawn half.
            let got: TilePayload?
            do { got = try p.source.payload(for: t) } catch let e as TileLoadCancelled { throw e } catch { got = nil }
            switch got {
            case let .encodedImage(data)?: found.append(StylePicture(source: p.name, data: data, tile: t))
            case let .encodedImageRegion(data, ancestor)?: found.append(StylePicture(source: p.name, data: data, tile: ancestor))
            default: break
            }
        }
        switch main {
        case let .vector(data, dataTile)?: return .styled(data, tile: dataTile, pictures: found)
        case nil: return found.isEmpty ? nil : .styled(Data(), tile: tile, pictures: found)
        case let other?: return other
        }
    }

    /// A picture shared with other tiles (a coarser source's) is not cancelled or let go
    /// for one of them: the others may still want it.
    public func cancel(_ tiles: [TileID]) {
        vector.cancel(tiles)
        for p in pictures { p.source.cancel(tiles.filter { p.pictureTile(for: $0) == $0 }) }
    }

    /// Each source is told of its own part (its cache keeps what decoded).
    public func decoded(_ tile: TileID, payload: TilePayload, ok: Bool) {
        forEachPart(of: tile, payload) { $0.decoded($1, payload: $2, ok: ok) }
    }

    public func keptAhead(_ tile: TileID, payload: TilePayload) {
        forEachPart(of: tile, payload) { $0.keptAhead($1, payload: $2) }
    }

    public func abandoned(_ tile: TileID) {
        vector.abandoned(tile)
        for p in pictures where p.pictureTile(for: tile) == tile { p.source.abandoned(tile) }
    }

    private func forEachPart(of tile: TileID, _ payload: TilePayload, _ body: (TileSource, TileID, TilePayload) -> Void) {
        guard case let .styled(data, dataTile, found) = payload else { body(vector, tile, payload); return }
        if !data.isEmpty { body(vector, tile, .vector(data, tile: dataTile)) }
        for picture in found {
            guard let p = pictures.first(where: { $0.name == picture.source }), let t = p.pictureTile(for: tile) else { continue }
            body(p.source, t, t == picture.tile ? .encodedImage(picture.data) : .encodedImageRegion(picture.data, tile: picture.tile))
        }
    }
}
