import FoundationEssentials
import MapGeometry
import MapNetwork
import Platform

/// Tiles from a PMTiles v3 archive, as MBTilesSource serves them from an MBTiles file: vector
/// tiles decompressed and served beyond the archive's deepest zoom from their ancestor there
/// (vector over-zoom), rasters through `RasterOverzoom`. Brotli- or zstd-compressed tiles and
/// tile types nothing here can draw are refused when the archive is opened, not per tile.
public final class PMTilesSource: TileSource, @unchecked Sendable { // set while it is opened and made ready, then only read; the archive locks its reads
    public let archive: PMTilesArchive
    public let isVector: Bool
    /// The data tiles read last, inflated, for the many tiles drawn from each.
    let inflatedTiles = InflatedDataTiles()
    public let dataZoomRange: ClosedRange<Int>
    /// The metadata's "attribution"; without one, the OpenMapTiles credit for tiles of that
    /// schema, else "".
    public let attribution: String
    /// The metadata's vector layer ids (`vector_layers[].id`), for telling the schema.
    public let vectorLayers: [String]
    /// The vector tiles' schema: from the metadata, else from a low tile's layers.
    public private(set) var schema: TileSchema?
    public var zoomShift: Int { isVector ? VectorOverzoom.shift(tilePoints: vectorTileSize) : 0 }
    public let name: String
    /// Where tiles read over the network are kept (remote archives only).
    public let cache: TileDiskCache?
    public let isRemote: Bool
    /// Points across one of its vector tiles as drawn (see `VectorOverzoom`):
    /// 512 for OpenMapTiles' tiles, as PMTiles archives of vector maps hold.
    public var vectorTileSize = 512
    /// Sibling tiles' asks for one data tile over the network, answered by one read.
    private let shared = SharedFetches()
    /// Where the header says the archive has data; tiles wholly outside are not its.
    public var bounds: MapRect? {
        let h = archive.header
        let text = [h.minLonE7, h.minLatE7, h.maxLonE7, h.maxLatE7].map { String(Double($0) / 1e7) }.joined(separator: ",")
        return MBTilesSource.bounds(parsing: text)
    }
    /// Remote workers mostly wait on the network: more of them keep more requests in flight.
    public var concurrency: Int { isRemote ? 8 : max(2, ProcessInfo.processInfo.activeProcessorCount) }
    public var unreachable: String? { (archive.reader as? HTTPRangeReader)?.unreachable }

    public var zoomRange: ClosedRange<Int> {
        isVector ? dataZoomRange.lowerBound...MBTilesSource.maxDisplayZoom : RasterOverzoom.displayRange(dataZoomRange)
    }

    /// Opens a local .pmtiles file.
    public convenience init(path: String) throws {
        try self.init(archive: PMTilesArchive(reader: FileRangeReader(path: path), name: path), name: "pmtiles:" + path)
    }

    /// Serves `archive`, however it is read; `name` is the source's stable name; `cache`
    /// keeps its tiles on disk (for archives read over the network).
    public init(archive: PMTilesArchive, name: String, cache: TileDiskCache? = nil) throws {
        self.archive = archive
        self.name = name
        self.cache = cache
        isRemote = archive.reader is HTTPRangeReader
        let h = archive.header
        switch h.tileType {
        case .mvt: isVector = true
        case .png, .jpeg, .webp: isVector = false
        // TRANSLATORS: %1$@ is an archive, %2$@ a kind of tile (avif, unknown); mvt, png, jpeg and webp are kinds too.
        case .avif, .unknown: throw TileSourceError(tr("%1$@: %2$@ tiles are not supported (mvt, png, jpeg or webp)", archive.name, h.tileType))
        }
        if [.brotli, .zstd].contains(h.tileCompression) {
            // TRANSLATORS: %1$@ is an archive, %2$@ a compression's name (brotli, zstd).
            throw TileSourceError(tr("%1$@: its tiles are %2$@-compressed, which Meridian cannot read (gzip or none)", archive.name, h.tileCompression))
        }
        // A TileID goes no deeper than TileID.maxZoom; deeper data is drawn from there.
        guard h.minZoom <= TileID.maxZoom else {
            throw TileSourceError(tr("%1$@: min zoom %2$@ is beyond %3$@", archive.name, h.minZoom, TileID.maxZoom))
        }
        dataZoomRange = h.minZoom...min(h.maxZoom, TileID.maxZoom)
        let json = (try? archive.metadata()) ?? Data()
        let meta = try? JSONDecoder().decode(Metadata.self, from: json)
        vectorLayers = (meta?.vector_layers ?? []).prefix(200).map { shownInMessage($0.id) }
        let mentioned = String(decoding: json, as: UTF8.self).lowercased().contains("openmaptiles")
        schema = nil
        if isVector {
            // A low tile where the header says the data is.
            let middle = Coordinate(latitude: min(max((Double(h.minLatE7) + Double(h.maxLatE7)) / 2e7, -85), 85),
                                    longitude: min(max((Double(h.minLonE7) + Double(h.maxLonE7)) / 2e7, -180), 180))
            // (A remote archive is not probed: six range requests on opening are not worth it.)
            let zooms = archive.reader is HTTPRangeReader ? [] : TileSchema.probeZooms(dataZoomRange)
            schema = TileSchema.detect(layers: vectorLayers, name: meta?.name, version: meta?.version, probing: zooms) { z in
                // (Gzip, whatever the header says, is undone by `detect`.)
                (try? archive.tileData(TileID(containing: middle, zoom: z))).flatMap { (try? PMTilesArchive.decompress($0, h.tileCompression, limit: Gzip.defaultLimit)) ?? $0 }
            }
        }
        attribution = VectorAttribution.credit(meta?.attribution ?? "", schema: schema, mentioned: isVector && mentioned)
    }

    /// The part of the metadata JSON used here. Metadata that is missing or not JSON is no
    /// reason to refuse the tiles: it is read leniently.
    private struct Metadata: Decodable {
        var attribution: String?
        var name: String?
        var version: String?
        var vector_layers: [Layer]?
        struct Layer: Decodable { var id: String }
    }

    /// The tile's bytes as stored, undone from the archive's tile compression; nil if absent.
    public func data(for tile: TileID) throws -> Data? {
        guard let stored = try storedData(for: tile) else { return nil }
        do {
            return try PMTilesArchive.decompress(stored, archive.header.tileCompression, limit: Gzip.defaultLimit)
        } catch let e as TileSourceError {
            throw TileSourceError(tr("%1$@: tile %2$@: %3$@", archive.name, tile, e.description))
        }
    }

    /// The tile's bytes as the archive holds them: from the disk cache when there, else
    /// read (and cached: an archive's tiles never change while its ETag stays the same).
    private func storedData(for tile: TileID) throws -> Data? {
        guard let cache, tile.isValid else { return try archive.tileData(tile) }
        return try shared.data(for: tile) { try fetched(tile, cache) }
    }

    private func fetched(_ tile: TileID, _ cache: TileDiskCache) throws -> Data? {
        let now = WallClock.now
        if let entry = cache.entry(for: tile, now: now) { return entry.body }
        guard let data = try archive.tileData(tile) else { return nil }
        let etag = (archive.reader as? HTTPRangeReader)?.etag
        cache.store(data, freshness: HTTPFreshness(storable: true, expires: now + HTTPFreshness.maxLifetime, etag: etag), for: tile, now: now)
        return data
    }

    public func payload(for tile: TileID) throws -> TilePayload? {
        guard isVector else { return try RasterOverzoom.payload(for: tile, dataZoomRange: dataZoomRange) { try data(for: $0) } }
        // Some writers gzip tiles yet say "unknown" or "none": bytes that are gzip are inflated.
        return try VectorOverzoom.payload(for: tile, bounds: bounds, dataZoomRange: dataZoomRange, vectorTileSize: vectorTileSize,
                                          name: archive.name, recent: inflatedTiles) { try data(for: $0) }
    }
}
