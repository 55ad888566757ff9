import FoundationEssentials
import MapTiles
import Platform

/// What `--from` (and the window's "Save this area offline…") may name as the source of an
/// extract: a PMTiles archive on the web or on disk, an MBTiles file, the embedded basemap,
/// or a tile server whose sources.json entry allows bulk downloads.
enum ExtractSources {
    /// Extracts ask a few ranges at a time of one server; a range may be a few MiB.
    private static let client: HTTPClient = {
        var options = HTTPClient.Options(userAgent: MapSources.userAgent)
        options.connectionsPerHost = 4
        options.totalTimeout = 120
        return HTTPClient(options: options)
    }()

    static func open(_ name: String) throws -> ExtractSource {
        let lower = name.lowercased()
        if MapSources.isRemoteArchive(name) {
            let reader = try HTTPRangeReader(url: name, client: client)
            return try ArchiveExtractSource(archive: PMTilesArchive(reader: reader, name: name), name: name)
        }
        if name == MapSources.basemap, let url = Resources.url("basemap.mbtiles") {
            return try MBTilesExtractSource(path: url.path)
        }
        if lower.hasSuffix(".pmtiles") {
            return try ArchiveExtractSource(archive: PMTilesArchive(reader: FileRangeReader(path: name), name: name), name: name)
        }
        if lower.hasSuffix(".mbtiles") { return try MBTilesExtractSource(path: name) }
        if let online = try MapSources.online(name) {
            if online.kind == .vector, online.tileJSON != nil {
                throw ExtractError.refused("\(name): extracts from a TileJSON address are not supported; use its .pmtiles archive or a {z}/{x}/{y} tile URL in sources.json")
            }
            return try OnlineExtractSource(online, client: client)
        }
        throw ExtractError.refused("--from \(name): not a .pmtiles or .mbtiles file or address, nor a map of sources.json")
    }
}
