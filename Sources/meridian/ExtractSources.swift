import FoundationEssentials
import MapNetwork
import MapTiles
import MeridianKit
import Platform

/// What `--from` (and the window's "Save this area offline…") may name as the source of an
/// extract: a PMTiles archive on the web or on disk, an MBTiles file, the embedded basemap,
/// OpenFreeMap, or a tile server or TileJSON address whose sources.json entry allows bulk
/// downloads.
enum ExtractSources {
    /// Extracts ask a few ranges at a time of one server; a range may be a few MiB.
    private static let client: HTTPClient = {
        var options = HTTPClient.Options(userAgent: Meridian.userAgent)
        options.connectionsPerHost = 4
        options.totalTimeout = 120
        options.offline = Meridian.catalog.isOffline
        return HTTPClient(options: options)
    }()

    static func open(_ name: String, in catalog: MapCatalog = Meridian.catalog) throws -> ExtractSource {
        let lower = name.lowercased()
        if MapCatalog.isRemoteArchive(name) {
            let reader = try HTTPRangeReader(url: name, client: client)
            return try ArchiveExtractSource(archive: PMTilesArchive(reader: reader, name: name), name: name)
        }
        if name == MapCatalog.basemap, let url = Resources.url("basemap.mbtiles") {
            return try MBTilesExtractSource(path: url.path)
        }
        if lower.hasSuffix(".pmtiles") {
            return try ArchiveExtractSource(archive: PMTilesArchive(reader: FileRangeReader(path: name), name: name), name: name)
        }
        if lower.hasSuffix(".mbtiles") { return try MBTilesExtractSource(path: name) }
        if let online = try catalog.online(name) {
            // Refused before anything is asked of a server that forbids it.
            if let refusal = online.bulkRefusal { throw ExtractError.refused(refusal) }
            guard let url = online.tileJSON else { return try OnlineExtractSource(online, client: client) }
            // A TileJSON address (OpenFreeMap): its document says where the tiles are and at
            // which zooms; the extract asks for them as the window would.
            do {
                return try OnlineExtractSource(online.resolved(by: TileJSON.fetch(url, client: client, keptIn: nil)), client: client)
            } catch let e as ExtractError {
                throw e
            } catch {
                throw ExtractError.failed("\(online.title): \(error)")
            }
        }
        throw ExtractError.refused(tr("--from %@: not a .pmtiles or .mbtiles file or address, nor a map of sources.json", name))
    }
}
