import FoundationEssentials
import MapGeometry
import MapNetwork
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
                // TRANSLATORS: %1$@ and %2$@ are numbers of bytes.
                throw TileSourceError(tr("too short for a PMTiles archive (%1$@ bytes, the header alone is %2$@)", size, PMTilesHeader.size))
            }
            let header = try PMTilesHeader(try reader.read(offset: 0, length: PMTilesHeader.size), archiveSize: size)
            self.header = header
            root = try Self.directory(reader, header, header.rootDirectory, what: .rootDirectory)
        } catch let e as TileSourceError {
            // TRANSLATORS: %1$@ is an archive (a file or an address), %2$@ what is wrong with it.
            throw TileSourceError(tr("%1$@: %2$@", name, e.description))
        }
    }

    /// The archive's JSON metadata, decompressed (empty when there is none).
    public func metadata() throws -> Data {
        guard header.metadata.length > 0 else { return Data() }
        do {
            return try Self.section(reader, header, header.metadata, what: .metadata)
        } catch let e as TileSourceError {
            throw TileSourceError(tr("%1$@: %2$@", name, e.description))
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
            // TRANSLATORS: %1$@ is an archive, %2$@ a tile's z/x/y, %3$@ what is wrong.
            throw TileSourceError(tr("%1$@: tile %2$@: %3$@", name, tile, e.description))
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
                    throw TileSourceError(tr("tile of %1$@ bytes, larger than %2$@ MiB", entry.length, Self.maxTileBytes >> 20))
                }
                guard let end = PMTilesHeader.Section(offset: entry.offset, length: entry.length).end,
                      end <= header.tileData.length else {
                    // TRANSLATORS: %1$@ is a number of bytes, %2$@ an offset.
                    throw TileSourceError(tr("tile (%1$@ bytes at %2$@) lies past the tile data section", entry.length, entry.offset))
                }
                return (header.tileData.offset + entry.offset, Int(entry.length))
            }
            guard depth < Self.maxDepth - 1 else { break }
            guard visited.insert(entry.offset).inserted else {
                // TRANSLATORS: %@ is an offset in the archive.
                throw TileSourceError(tr("leaf directory at %@ points back to itself", entry.offset))
            }
            directory = try leaf(entry)
        }
        throw TileSourceError(tr("leaf directories nest deeper than %@ levels", Self.maxDepth - 1))
    }

    /// A leaf directory, from the cache or read and decoded.
    public func leaf(_ entry: PMTilesDirectory.Entry) throws -> PMTilesDirectory {
        let section = PMTilesHeader.Section(offset: entry.offset, length: entry.length)
        lock.lock()
        let cached = leaves.value(for: section)
        lock.unlock()
        if let cached { return cached }
        guard let end = section.end, end <= header.leafDirectories.length else {
            // TRANSLATORS: %1$@ is a number of bytes, %2$@ an offset.
            throw TileSourceError(tr("leaf directory (%1$@ bytes at %2$@) lies past the leaf directory section", entry.length, entry.offset))
        }
        let absolute = PMTilesHeader.Section(offset: header.leafDirectories.offset + entry.offset, length: entry.length)
        let directory = try Self.directory(reader, header, absolute, what: .leafDirectory(at: entry.offset))
        lock.lock()
        leaves.insert(directory, for: section, cost: 64 + directory.entries.count * 32)
        lock.unlock()
        return directory
    }

    /// A part of the archive read whole, as its errors name it.
    enum Part {
        case rootDirectory, metadata
        case leafDirectory(at: UInt64)

        /// What is wrong with the part, said with its name.
        func said(_ problem: String) -> String {
            switch self {
            // TRANSLATORS: %@ is what is wrong with a PMTiles archive's root directory.
            case .rootDirectory: return tr("root directory: %@", problem)
            // TRANSLATORS: %@ is what is wrong with a PMTiles archive's metadata.
            case .metadata: return tr("metadata: %@", problem)
            // TRANSLATORS: %1$@ is an offset in a PMTiles archive, %2$@ what is wrong with the directory there.
            case let .leafDirectory(at): return tr("leaf directory at %1$@: %2$@", at, problem)
            }
        }

        /// The part is larger than `limit` MiB.
        func tooLarge(_ length: UInt64, limit: Int) -> String {
            switch self {
            // TRANSLATORS: %1$@ is a number of bytes, %2$@ of MiB.
            case .rootDirectory: return tr("root directory of %1$@ bytes, larger than %2$@ MiB", length, limit)
            case .metadata: return tr("metadata of %1$@ bytes, larger than %2$@ MiB", length, limit)
            // TRANSLATORS: %1$@ is an offset in a PMTiles archive, %2$@ a number of bytes, %3$@ of MiB.
            case let .leafDirectory(at): return tr("leaf directory at %1$@ of %2$@ bytes, larger than %3$@ MiB", at, length, limit)
            }
        }
    }

    private static func directory(_ reader: RangeReader, _ header: PMTilesHeader, _ section: PMTilesHeader.Section,
                                  what: Part) throws -> PMTilesDirectory {
        let bytes = try self.section(reader, header, section, what: what)
        do { return try PMTilesDirectory(decoding: [UInt8](bytes)) } catch let e as TileSourceError {
            throw TileSourceError(what.said(e.description))
        }
    }

    /// A section's bytes, read and undone from the archive's internal compression.
    private static func section(_ reader: RangeReader, _ header: PMTilesHeader, _ section: PMTilesHeader.Section,
                                what: Part) throws -> Data {
        guard section.length <= UInt64(maxDirectoryBytes) else {
            throw TileSourceError(what.tooLarge(section.length, limit: maxDirectoryBytes >> 20))
        }
        let raw = try reader.read(offset: section.offset, length: Int(section.length))
        do {
            return try decompress(raw, header.internalCompression, limit: maxDirectoryBytes)
        } catch let e as TileSourceError {
            throw TileSourceError(what.said(e.description))
        }
    }

    /// `data` undone from `compression`; brotli and zstd are refused (no library for them here).
    static func decompress(_ data: Data, _ compression: PMTilesHeader.Compression, limit: Int) throws -> Data {
        switch compression {
        case .none: return data
        case .gzip: return try Gzip.decompress(data, limit: limit)
        case .unknown: return Gzip.isCompressed(data) ? try Gzip.decompress(data, limit: limit) : data
        // TRANSLATORS: %@ is a compression's name (brotli, zstd); gzip is one too.
        case .brotli, .zstd: throw TileSourceError(tr("%@ compression is not supported (only gzip or none)", compression))
        }
    }
}
