import CZlib
import FoundationEssentials
import Glibc
import MapGeometry
import MapNetwork
import Platform

/// Tiles fetched from a server, kept on disk under `$XDG_CACHE_HOME/meridian/tiles/`, one
/// folder per source (its name and a hash of its address, so a changed URL starts afresh),
/// one file per tile: a small header (when it goes stale, its validators) and the bytes, with
/// a checksum. Writes go to a temporary file renamed into place, so a crash leaves the old
/// entry or none, never half of one; an entry that does not check out is deleted and counts
/// as missing. Past `capacity` bytes, the least recently used entries go. Paths are made
/// only from a checked source name, a hex hash and three integers: nothing a template or a
/// server says can lead outside the folder. Thread-safe.
public final class TileDiskCache: @unchecked Sendable {
    public struct Entry: Sendable {
        public let freshness: HTTPFreshness
        public let body: Data
    }

    public let directory: String
    public let capacity: Int
    let lock = Lock()
    /// Size and last use of every entry, by path; scanned from disk once, at first use.
    var known: [String: (size: Int, used: Double)]?
    var total = 0
    private var sequence = 0

    /// `root`: the tiles folder; `source`: whose tiles these are; `retina`: its @2x tiles
    /// (other pictures at the same z/x/y, kept apart).
    public convenience init(root: String, source: OnlineSource, retina: Bool = false, capacity: Int = 512 << 20) {
        let key = source.template.text + (retina && source.template.offersRetina ? " @2x" : "")
        self.init(root: root, name: source.name, key: key, capacity: capacity)
    }

    /// The cache of tiles from `key` (an address: a PMTiles archive's URL), in a folder named
    /// by `name` (a checked source name) and a hash of `key`.
    public init(root: String, name: String, key: String, capacity: Int = 512 << 20) {
        let hash = FNV1a.hash(key)
        precondition(OnlineSource.isValidName(name), "source names are checked when made")
        directory = root + "/" + name + "-" + String(hash & 0xFFFF_FFFF, radix: 16)
        self.capacity = capacity
    }

    /// The default root: `$XDG_CACHE_HOME/meridian/tiles`, else `~/.cache/meridian/tiles`.
    public static func defaultRoot(environment env: [String: String]) -> String {
        FileIO.userFolder("XDG_CACHE_HOME", else: ".cache", environment: env) + "/meridian/tiles"
    }

    func path(for tile: TileID) -> String { "\(directory)/\(tile.z)/\(tile.x)/\(tile.y).tile" }

    /// The entry for `tile`, stale or not; nil when there is none or it was damaged (then it
    /// is gone from disk too).
    public func entry(for tile: TileID, now: Double) -> Entry? {
        guard tile.isValid else { return nil }
        let p = path(for: tile)
        guard let data = try? FileIO.read(p, limit: Self.maxEntryBytes) else { return nil }
        guard let entry = Self.decode(data) else {
            remove(tile)
            return nil
        }
        touch(p, size: data.count, at: now)
        return entry
    }

    /// Keeps `body` for `tile` (unless its freshness forbids storing); false when the disk
    /// said no (full, read-only), which costs nothing but a fetch next time.
    @discardableResult
    public func store(_ body: Data, freshness: HTTPFreshness, for tile: TileID, now: Double) -> Bool {
        guard tile.isValid, freshness.storable, body.count <= HTTPClient.maxTileBytes else { return false }
        let p = path(for: tile)
        let folder = String(p[..<p.lastIndex(of: "/")!])
        guard FileIO.makeDirectories(folder) == nil else { return false }
        let bytes = Self.encode(body, freshness)
        lock.lock()
        sequence += 1
        let tmp = "\(p).\(getpid()).\(sequence).tmp"
        lock.unlock()
        let ok = bytes.withUnsafeBytes { FileIO.writeBytes($0, to: tmp) } && rename(tmp, p) == 0
        if !ok { unlink(tmp); return false }
        touch(p, size: bytes.count, at: now)
        evictIfNeeded()
        return true
    }

    /// Drops `tile`'s entry (its picture did not decode).
    public func remove(_ tile: TileID) {
        guard tile.isValid else { return }
        let p = path(for: tile)
        unlink(p)
        forget(p)
    }

    /// Refreshes an entry's freshness after a 304, keeping its bytes.
    public func refresh(_ tile: TileID, with freshness: HTTPFreshness, now: Double) {
        guard let old = entry(for: tile, now: now) else { return }
        store(old.body, freshness: old.freshness.refreshed(by: freshness), for: tile, now: now)
    }

    /// Bytes kept, as the index knows them.
    public var totalBytes: Int {
        lock.lock(); defer { lock.unlock() }
        loadIndexLocked()
        return total
    }

    /// A body and its header.
    static let maxEntryBytes = HTTPClient.maxTileBytes + 4096
}
