import FoundationEssentials
import Glibc
import MapNetwork
import Platform

/// A small document from the web that a map cannot be drawn without (a TileJSON, a sprite
/// sheet's index and picture), kept on disk with its freshness: a fresh copy is used without
/// asking, a stale one is asked for again, and offline, or when the server fails, the copy
/// kept is used whatever its age.
public enum KeptDocument {
    /// The body at `url`, checked by `valid` (which throws what is wrong with it), kept at
    /// `path` when given.
    public static func fetch(_ url: String, client: HTTPClient, keptIn path: String?, limit: Int, accept: String,
                             valid: (Data) throws -> Void) throws -> Data {
        let now = WallClock.now
        let kept = path.flatMap { try? FileIO.read($0, limit: limit + 4096) }.flatMap(TileDiskCache.decode)
        let usable = kept.flatMap { k in (try? valid(k.body)) == nil ? nil : k }
        if let usable, usable.freshness.isFresh(at: now) { return usable.body }
        switch client.get(url, headers: ["Accept: \(accept)"], limit: limit) {
        case let .response(r) where r.status == 200:
            let body = Gzip.isCompressed(r.body) && !accept.hasPrefix("image/") ? try Gzip.decompress(r.body, limit: limit) : r.body
            try valid(body)
            if let path { keep(body, HTTPFreshness(headers: r.headers, receivedAt: now), at: path) }
            return body
        case let .response(r):
            if let usable { return usable.body }
            // TRANSLATORS: %1$@ is an address, %2$@ an HTTP status code (404).
            throw TileSourceError(tr("%1$@: the server answered %2$@", shownInMessage(url), r.status))
        case let .failed(reason, _):
            if let usable { return usable.body }
            throw TileSourceError(tr("%@: %@", shownInMessage(url), reason))
        }
    }

    private static func keep(_ body: Data, _ freshness: HTTPFreshness, at path: String) {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        guard FileIO.makeDirectories(folder) == nil else { return }
        // Kept even when the server says not to store it: offline nothing else can say how the
        // map is drawn.
        let stored = HTTPFreshness(storable: true, expires: freshness.expires, etag: freshness.etag, lastModified: freshness.lastModified)
        let data = TileDiskCache.encode(body, stored)
        let tmp = path + ".tmp"
        _ = data.withUnsafeBytes { FileIO.writeBytes($0, to: tmp) }
        _ = rename(tmp, path)
    }
}
