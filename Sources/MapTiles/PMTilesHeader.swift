import FoundationEssentials
import Platform

/// The fixed 127-byte header that starts a PMTiles v3 archive
/// (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md): where the root
/// directory, the metadata, the leaf directories and the tile data lie, how they are
/// compressed, and what the tiles are. Parsing checks every section against the archive's
/// size, so nothing read later can point outside the file.
public struct PMTilesHeader: Sendable, Equatable {
    public static let size = 127

    public enum Compression: UInt8, Sendable, CustomStringConvertible {
        case unknown = 0, none = 1, gzip = 2, brotli = 3, zstd = 4
        public var description: String { ["unknown", "none", "gzip", "brotli", "zstd"][Int(rawValue)] }
    }

    public enum TileType: UInt8, Sendable, CustomStringConvertible {
        case unknown = 0, mvt = 1, png = 2, jpeg = 3, webp = 4, avif = 5
        public var description: String { ["unknown", "mvt", "png", "jpeg", "webp", "avif"][Int(rawValue)] }
    }

    /// A section of the archive: bytes `offset ..< offset + length`.
    public struct Section: Sendable, Hashable {
        public var offset: UInt64
        public var length: UInt64
        public init(offset: UInt64, length: UInt64) { self.offset = offset; self.length = length }
        /// One past the last byte; nil when the sum does not fit (a hostile header).
        public var end: UInt64? {
            let (e, overflow) = offset.addingReportingOverflow(length)
            return overflow ? nil : e
        }
    }

    public var rootDirectory: Section
    public var metadata: Section
    public var leafDirectories: Section
    public var tileData: Section
    public var addressedTiles: UInt64
    public var tileEntries: UInt64
    public var tileContents: UInt64
    public var clustered: Bool
    public var internalCompression: Compression
    public var tileCompression: Compression
    public var tileType: TileType
    public var minZoom: Int
    public var maxZoom: Int
    /// Bounds and centre in degrees × 10⁷, as stored.
    public var minLonE7: Int32, minLatE7: Int32, maxLonE7: Int32, maxLatE7: Int32
    public var centerZoom: Int
    public var centerLonE7: Int32, centerLatE7: Int32

    /// Reads and checks a header. `bytes` starts at the archive's first byte (at least 127 of
    /// them); `archiveSize` is the whole archive's length. Throws a sentence naming what is wrong.
    public init(_ bytes: Data, archiveSize: UInt64) throws {
        let b = [UInt8](bytes.prefix(Self.size))
        guard b.count == Self.size else {
            // TRANSLATORS: %1$@ and %2$@ are numbers of bytes.
            throw TileSourceError(tr("too short for a PMTiles archive (%1$@ bytes, the header alone is %2$@)", b.count, Self.size))
        }
        guard b[0..<7].elementsEqual("PMTiles".utf8) else {
            throw TileSourceError(tr("not a PMTiles archive (no 'PMTiles' at the start)"))
        }
        guard b[7] == 3 else {
            // TRANSLATORS: %@ is a version number; `pmtiles convert` is a command: keep it as it is.
            guard b[7] >= 3 else { throw TileSourceError(tr("PMTiles version %@ is not supported, only version 3; convert it with `pmtiles convert`", b[7])) }
            throw TileSourceError(tr("PMTiles version %@ is not supported, only version 3", b[7]))
        }
        func u64(_ at: Int) -> UInt64 { (0..<8).reduce(UInt64(0)) { $0 | UInt64(b[at + $1]) << (8 * UInt64($1)) } }
        func i32(_ at: Int) -> Int32 { Int32(bitPattern: (0..<4).reduce(UInt32(0)) { $0 | UInt32(b[at + $1]) << (8 * UInt32($1)) }) }
        rootDirectory = Section(offset: u64(8), length: u64(16))
        metadata = Section(offset: u64(24), length: u64(32))
        leafDirectories = Section(offset: u64(40), length: u64(48))
        tileData = Section(offset: u64(56), length: u64(64))
        addressedTiles = u64(72); tileEntries = u64(80); tileContents = u64(88)
        clustered = b[96] == 1
        guard let ic = Compression(rawValue: b[97]) else { throw TileSourceError(tr("unknown internal compression %@", b[97])) }
        guard let tc = Compression(rawValue: b[98]) else { throw TileSourceError(tr("unknown tile compression %@", b[98])) }
        guard let tt = TileType(rawValue: b[99]) else { throw TileSourceError(tr("unknown tile type %@", b[99])) }
        internalCompression = ic; tileCompression = tc; tileType = tt
        minZoom = Int(b[100]); maxZoom = Int(b[101])
        minLonE7 = i32(102); minLatE7 = i32(106); maxLonE7 = i32(110); maxLatE7 = i32(114)
        centerZoom = Int(b[118]); centerLonE7 = i32(119); centerLatE7 = i32(123)

        guard minZoom <= maxZoom else { throw TileSourceError(tr("min zoom %1$@ is above max zoom %2$@", minZoom, maxZoom)) }
        // Each section, with the sentence said when it lies past the end: its length, its offset, the archive's size.
        let sections: [(Section, (UInt64, UInt64, UInt64) -> String)] = [
            // TRANSLATORS: %1$@ is a number of bytes, %2$@ an offset, %3$@ the archive's size in bytes.
            (rootDirectory, { tr("the root directory (%1$@ bytes at %2$@) lies past the end of the archive (%3$@ bytes)", $0, $1, $2) }),
            (metadata, { tr("the metadata (%1$@ bytes at %2$@) lies past the end of the archive (%3$@ bytes)", $0, $1, $2) }),
            (leafDirectories, { tr("the leaf directories (%1$@ bytes at %2$@) lies past the end of the archive (%3$@ bytes)", $0, $1, $2) }),
            (tileData, { tr("the tile data (%1$@ bytes at %2$@) lies past the end of the archive (%3$@ bytes)", $0, $1, $2) }),
        ]
        for (s, pastTheEnd) in sections {
            guard let end = s.end, end <= archiveSize else { throw TileSourceError(pastTheEnd(s.length, s.offset, archiveSize)) }
        }
        guard rootDirectory.length > 0 else { throw TileSourceError(tr("the root directory is empty")) }
    }
}
