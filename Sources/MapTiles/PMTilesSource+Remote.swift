import FoundationEssentials
import Glibc
import MapNetwork
import Platform

extension PMTilesSource {
    /// Opens the archive at `url` (http or https) over range requests. With `cacheRoot` (the
    /// tiles folder of the disk cache), its tiles are kept there like an online map's, and
    /// so are its first bytes (header and root directory), keyed by the URL and checked by
    /// ETag: offline, an archive opened before still shows what was seen. A new ETag means a
    /// new archive: the tiles kept from the old one are dropped.
    public static func remote(url: String, client: HTTPClient, cacheRoot: String?) throws -> PMTilesSource {
        let lower = url.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else {
            throw TileSourceError(tr("%@: not a web address", shownInMessage(url)))
        }
        let cache = cacheRoot.map { TileDiskCache(root: $0, name: "pmtiles", key: url) }
        let headPath = cache.map { $0.directory + "/archive.head" }
        let reader: HTTPRangeReader
        do {
            reader = try HTTPRangeReader(url: url, client: client)
        } catch {
            // Offline (or the server is down): the bytes kept from last time, if any.
            guard let headPath, let kept = Self.readHead(headPath) else { throw error }
            reader = HTTPRangeReader(url: url, client: client, prefix: kept.prefix, size: kept.size, etag: kept.etag)
        }
        if let cache, let headPath {
            let kept = Self.readHead(headPath)
            if kept?.etag != reader.etag || kept?.size != reader.size {
                // Another archive (or none kept): what is cached belongs to the old one.
                if kept != nil { FileIO.removeTree(cache.directory) }
                Self.writeHead(headPath, folder: cache.directory, reader)
            }
        }
        return try PMTilesSource(archive: PMTilesArchive(reader: reader, name: url), name: "pmtiles:" + url, cache: cache)
    }

    /// The first bytes of an archive kept on disk: its size and ETag, in the disk cache's
    /// checksummed entry format (the ETag as the entry's, the size before the bytes).
    private static func readHead(_ path: String) -> (prefix: Data, size: UInt64, etag: String?)? {
        guard let data = try? FileIO.read(path, limit: HTTPRangeReader.prefixLength + 4096),
              let entry = TileDiskCache.decode(data), entry.body.count >= 8 else { return nil }
        let size = entry.body.prefix(8).enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        let prefix = Data(entry.body.dropFirst(8))
        guard UInt64(prefix.count) <= size else { return nil }
        return (prefix, size, entry.freshness.etag)
    }

    private static func writeHead(_ path: String, folder: String, _ reader: HTTPRangeReader) {
        // An archive served whole (no range support) is not kept: only its first bytes would be.
        guard reader.prefix.count <= HTTPRangeReader.prefixLength, FileIO.makeDirectories(folder) == nil else { return }
        var body = Data((0..<8).map { UInt8(truncatingIfNeeded: reader.size >> (8 * UInt64($0))) })
        body += reader.prefix
        let entry = TileDiskCache.encode(body, HTTPFreshness(storable: true, expires: WallClock.now + HTTPFreshness.maxLifetime, etag: reader.etag))
        let tmp = "\(path).\(getpid()).tmp"
        if !(entry.withUnsafeBytes { FileIO.writeBytes($0, to: tmp) } && rename(tmp, path) == 0) { unlink(tmp) }
    }
}
