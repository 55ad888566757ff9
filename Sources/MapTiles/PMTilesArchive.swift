import FoundationEssentials
import MapGeometry
import Platform

/// A PMTiles v3 archive read through a `RangeReader`: the header and root directory once, leaf
/// directories as tiles need them (kept in a bounded LRU), tiles on demand. Hostile archives
/// are refused with a sentence naming the archive and the fault: sections past the end,
/// directories or tiles too large, leaves that point back at themselves or nest too deep.
/// Thread-safe: reads run unlocked, only the leaf cache is shared.
public final class PMTilesArchive: @unchecked Sendable {
    public let name: String
    public let header: PMTilesHeader
    public let reader: RangeReader
    public let root: PMTilesDirectory

    /// A directory larger than this once decompressed is not one a real archive holds.
    public static let maxDirectoryBytes = 16 << 20
    /// Nor is a tile larger than this.
    public static let maxTileBytes = 8 << 20
    /// Directories read for one tile: the root and up to three levels of leaves (the spec's
    /// writers use one; readers follow at most three).
    public static let maxDepth = 4
    /// What decoded leaf directories may take in memory (about 24 bytes per entry).
    public static let leafCacheBytes = 16 << 20

    private let lock = Lock()
    private var leaves = LRUCache<PMTilesHeader.Section, PMTilesDirectory>(capacity: PMTilesArchive.leafCacheBytes)

    /// Opens the archive: reads and checks the header and the root directory. `name` (a path
    /// or URL) prefixes every error.
    public init(reader: RangeReader, name: String) throws {
        self.name = name
        self.reader = reader
        do {
            let size = reader.size
            guard size >= UInt64(PMTilesHeader.size) else {
                throw TileSourceError("too short for a PMTiles archive (\(size) bytes, the header alone is \(PMTilesHeader.size))")
            }
            let header = try PMTilesHeader(try reader.read(offset: 0, length: PMTilesHeader.size), archiveSize: size)
            self.header = header
            root = try Self.directory(reader, header, header.rootDirectory, what: "root directory")
        } catch let e as TileSourceError {
            throw TileSourceError("\(name): \(e.description)")
        }
    }

    /// The archive's JSON metadata, decompressed (empty when there is none).
    public func metadata() throws -> Data {
        guard header.metadata.length > 0 else { return Data() }
        do {
            return try Self.section(reader, header, header.metadata, what: "metadata")
        } catch let e as TileSourceError {
            throw TileSourceError("\(name): \(e.description)")
        }
    }

    /// The stored bytes of `tile` (still in the archive's tile compression), nil where the
    /// archive has none.
    public func tileData(_ tile: TileID) throws -> Data? {
        guard tile.isValid else { return nil }
        do {
            guard let (offset, length) = try locate(PMTilesTileID.id(of: tile)) else { return nil }
            return try reader.read(offset: offset, length: length)
        } catch let e as TileSourceError {
            throw TileSourceError("\(name): tile \(tile): \(e.description)")
        }
    }

    /// Where the tile with PMTiles id `id` lies in the archive: absolute offset and length.
    public func locate(_ id: UInt64) throws -> (offset: UInt64, length: Int)? {
        var directory = root
        var visited = Set<UInt64>()
        for depth in 0..<Self.maxDepth {
            guard let entry = directory.find(id) else { return nil }
            if !entry.isLeaf {
                guard entry.length <= UInt64(Self.maxTileBytes) else {
                    throw TileSourceError("tile of \(entry.length) bytes, larger than \(Self.maxTileBytes >> 20) MiB")
                }
                guard let end = PMTilesHeader.Section(offset: entry.offset, length: entry.length).end,
                      end <= header.tileData.length else {
                    throw TileSourceError("tile (\(entry.length) bytes at \(entry.offset)) lies past the tile data section")
                }
                return (header.tileData.offset + entry.offset, Int(entry.length))
            }
            guard depth < Self.maxDepth - 1 else { break }
            guard visited.insert(entry.offset).inserted else {
                throw TileSourceError("leaf directory at \(entry.offset) points back to itself")
            }
            directory = try leaf(entry)
        }
        throw TileSourceError("leaf directories nest deeper than \(Self.maxDepth - 1) levels")
    }

    /// A leaf directory, from the cache or read and decoded.
    func leaf(_ entry: PMTilesDirectory.Entry) throws -> PMTilesDirectory {
        let section = PMTilesHeader.Section(offset: entry.offset, length: entry.length)
        lock.lock()
        let cached = leaves.value(for: section)
        lock.unlock()
        if let cached { return cached }
        guard let end = section.end, end <= header.leafDirectories.length else {
            throw TileSourceError("leaf directory (\(entry.length) bytes at \(entry.offset)) lies past the leaf directory section")
        }
        let absolute = PMTilesHeader.Section(offset: header.leafDirectories.offset + entry.offset, length: entry.length)
        let directory = try Self.directory(reader, header, absolute, what: "leaf directory at \(entry.offset)")
        lock.lock()
        leaves.insert(directory, for: section, cost: 64 + directory.entries.count * 32)
        lock.unlock()
        return directory
    }

    private static func directory(_ reader: RangeReader, _ header: PMTilesHeader, _ section: PMTilesHeader.Section,
                                  what: String) throws -> PMTilesDirectory {
        let bytes = try self.section(reader, header, section, what: what)
        do { return try PMTilesDirectory(decoding: [UInt8](bytes)) } catch let e as TileSourceError {
            throw TileSourceError("\(what): \(e.description)")
        }
    }

    /// A section's bytes, read and undone from the archive's internal compression.
    private static func section(_ reader: RangeReader, _ header: PMTilesHeader, _ section: PMTilesHeader.Section,
                                what: String) throws -> Data {
        guard section.length <= UInt64(maxDirectoryBytes) else {
            throw TileSourceError("\(what) of \(section.length) bytes, larger than \(maxDirectoryBytes >> 20) MiB")
        }
        let raw = try reader.read(offset: section.offset, length: Int(section.length))
        do {
            return try decompress(raw, header.internalCompression, limit: maxDirectoryBytes)
        } catch let e as TileSourceError {
            throw TileSourceError("\(what): \(e.description)")
        }
    }

    /// `data` undone from `compression`; brotli and zstd are refused (no library for them here).
    static func decompress(_ data: Data, _ compression: PMTilesHeader.Compression, limit: Int) throws -> Data {
        switch compression {
        case .none: return data
        case .gzip: return try Gzip.decompress(data, limit: limit)
        case .unknown: return Gzip.isCompressed(data) ? try Gzip.decompress(data, limit: limit) : data
        case .brotli, .zstd: throw TileSourceError("\(compression) compression is not supported (only gzip or none)")
        }
    }
}
