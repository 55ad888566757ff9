import FoundationEssentials
import Glibc
import MapGeometry
import MapTiles
import Platform

/// A local street map file (`.mbtiles`, `.pmtiles`, a saved area) as the search index reads
/// it: its identity, its title, and the vector tiles of its deepest zoom, which hold every
/// name the map has.
public struct NameArchive: Sendable {
    public let path: String
    /// What progress and results call it ("Helsinki").
    public let title: String
    /// Size, modification time and inode: a file changed or replaced gets a new index.
    public let identity: String
    /// The deepest zoom's tiles, in a fixed order (resuming counts in it).
    public let tiles: [TileID]
    /// The tile's bytes, uncompressed; nil where the file has none.
    public let read: @Sendable (TileID) throws -> Data?

    /// More tiles than this at the deepest zoom (200,000 z14 tiles: a country of 100,000 km²
    /// or so) is more than a map of towns to index on a desktop: it is said, not indexed.
    public static let maxTiles = 200_000

    public enum Failure: Error, CustomStringConvertible {
        case notVector(String), tooLarge(String, Int), unreadable(String, String)
        public var description: String {
            switch self {
            // TRANSLATORS: %@ is a map file.
            case let .notVector(p): return tr("%@ holds pictures, not vector tiles: it has no names to search", p)
            case let .tooLarge(p, n):
                // TRANSLATORS: %2$@ is a map file, %1$d its number of tiles, %3$@ the most that is indexed.
                return trn("%2$@ holds %1$d tile at its deepest zoom, more than %3$@: too large to index here",
                           "%2$@ holds %1$d tiles at its deepest zoom, more than %3$@: too large to index here", n, p, NameArchive.maxTiles)
            // TRANSLATORS: a map file, and why it cannot be read.
            case let .unreadable(p, why): return tr("%@: %@", p, why)
            }
        }
    }

    public init(path: String) throws {
        guard let id = Self.identity(of: path) else { throw Failure.unreadable(path, tr("no such file")) }
        self.path = path
        identity = id
        let file = path.split(separator: "/").last.map(String.init) ?? path
        let plain = file.split(separator: ".").dropLast().joined(separator: ".")
        if path.hasSuffix(".pmtiles") {
            let source = try PMTilesSource(path: path)
            guard source.isVector else { throw Failure.notVector(path) }
            title = (try? SavedArea(path: path).title) ?? plain
            tiles = try Self.deepest(source.archive, path: path)
            read = { try source.data(for: $0) }
        } else {
            let source = try MBTilesSource(path: path)
            guard source.isVector else { throw Failure.notVector(path) }
            title = source.metadata["name"].flatMap { $0.isEmpty ? nil : String($0.prefix(60)) } ?? plain
            tiles = try Self.deepest(source.database, path: path)
            read = { tile in
                guard let stored = try source.data(for: tile) else { return nil }
                return Gzip.isCompressed(stored) ? try Gzip.decompress(stored) : stored
            }
        }
    }

    /// "size:mtime:inode" of the file, nil when it is not there.
    public static func identity(of path: String) -> String? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return "\(st.st_size):\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec):\(st.st_ino)"
    }

    private static func deepest(_ db: SQLiteDatabase, path: String) throws -> [TileID] {
        let z = try db.rows("SELECT max(zoom_level) FROM tiles") { Int(SQLiteDatabase.int($0, 0)) }.first ?? 0
        guard (0...TileID.maxZoom).contains(z) else { return [] }
        let count = try db.rows("SELECT count(*) FROM tiles WHERE zoom_level = ?", [.int(Int64(z))]) { Int(SQLiteDatabase.int($0, 0)) }.first ?? 0
        guard count <= maxTiles else { throw Failure.tooLarge(path, count) }
        let n = 1 << z
        let tiles = try db.rows("SELECT tile_column, tile_row FROM tiles WHERE zoom_level = ?", [.int(Int64(z))]) { st -> TileID? in
            let x = SQLiteDatabase.int(st, 0), row = SQLiteDatabase.int(st, 1)
            guard (0..<Int64(n)).contains(x), (0..<Int64(n)).contains(row) else { return nil }
            return TileID(z: z, x: Int(x), y: n - 1 - Int(row))
        }
        return tiles.compactMap { $0 }.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
    }

    private static func deepest(_ archive: PMTilesArchive, path: String) throws -> [TileID] {
        let z = min(max(archive.header.maxZoom, 0), TileID.maxZoom)
        let first = PMTilesTileID.id(of: TileID(z: z, x: 0, y: 0))
        let end = first + (UInt64(1) << (2 * UInt64(z)))
        var ids: [UInt64] = []
        // Directories nest at most `maxDepth` deep; a leaf met twice is a loop.
        var seen = Set<UInt64>()
        func walk(_ directory: PMTilesDirectory, depth: Int) throws {
            for e in directory.entries {
                if e.isLeaf {
                    guard depth + 1 < PMTilesArchive.maxDepth, seen.insert(e.offset).inserted else { continue }
                    try walk(try archive.leaf(e), depth: depth + 1)
                    continue
                }
                guard e.tileID < end, e.tileID &+ e.runLength > first else { continue }
                let lo = max(e.tileID, first), hi = min(e.tileID &+ e.runLength, end)
                guard hi > lo else { continue }
                guard ids.count + Int(min(hi - lo, UInt64(maxTiles + 1))) <= maxTiles else { throw Failure.tooLarge(path, ids.count + Int(min(hi - lo, UInt64(maxTiles)))) }
                ids.append(contentsOf: lo..<hi)
            }
        }
        try walk(archive.root, depth: 0)
        return ids.compactMap(PMTilesTileID.tile(for:)).sorted { ($0.y, $0.x) < ($1.y, $1.x) }
    }
}
