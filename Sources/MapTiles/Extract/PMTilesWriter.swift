import FoundationEssentials
import Glibc
import MapNetwork
import Platform

/// Writes a PMTiles v3 archive from tiles already on disk (an extract's journal), streamed:
/// one pass decides where each tile goes (identical tiles stored once, identical neighbours
/// as one run), then the header, directories and metadata are written, then the tile bytes
/// are copied in id order. Memory holds the directory entries, never the tiles.
public struct PMTilesWriter {
    public struct Info: Sendable {
        public var tileType: PMTilesHeader.TileType
        public var tileCompression: PMTilesHeader.Compression
        public var area: TileArea
        /// The metadata JSON object, uncompressed.
        public var metadata: Data
        public init(tileType: PMTilesHeader.TileType, tileCompression: PMTilesHeader.Compression, area: TileArea, metadata: Data) {
            self.tileType = tileType; self.tileCompression = tileCompression; self.area = area; self.metadata = metadata
        }
    }

    /// What was written.
    public struct Summary: Sendable, Equatable {
        public var addressedTiles: UInt64 = 0
        public var entries: UInt64 = 0
        public var contents: UInt64 = 0
        public var bytes: UInt64 = 0
    }

    /// The spec keeps the header and root directory within the first 16 KiB, so a reader's
    /// first request gets both.
    static let rootLimit = 16_384 - PMTilesHeader.size

    /// Writes the tiles `records` (any order; absent ones are skipped) read through `read`, to
    /// `path` (created or replaced; the caller renames it into place).
    public static func write(_ records: [ExtractJournal.Record], read: (ExtractJournal.Record) throws -> Data,
                             info: Info, to path: String) throws -> Summary {
        let tiles = records.filter { !$0.absent }.sorted { $0.tileID < $1.tileID }
        // Pass 1: offsets in the tile data section; identical contents share one (compared
        // byte for byte, not trusted to a checksum).
        var entries = [PMTilesDirectory.Entry](), sources = [ExtractJournal.Record]()
        var seen = [UInt64: [(record: ExtractJournal.Record, offset: UInt64)]]()
        var end: UInt64 = 0
        var summary = Summary()
        for t in tiles {
            let key = UInt64(t.crc) << 32 | UInt64(t.length)
            var offset: UInt64?
            if let candidates = seen[key] {
                let bytes = try read(t)
                for c in candidates where try read(c.record) == bytes { offset = c.offset; break }
            }
            if offset == nil {
                offset = end
                seen[key, default: []].append((t, end))
                sources.append(t)
                end += UInt64(t.length)
            }
            summary.addressedTiles += 1
            if let last = entries.last, last.offset == offset!, last.tileID + last.runLength == t.tileID {
                entries[entries.count - 1].runLength += 1
            } else {
                entries.append(PMTilesDirectory.Entry(tileID: t.tileID, offset: offset!, length: UInt64(t.length), runLength: 1))
            }
        }
        summary.entries = UInt64(entries.count)
        summary.contents = UInt64(sources.count)
        let (root, leaves) = try directories(entries)
        let meta = try Gzip.compress([UInt8](info.metadata))

        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ExtractJournal.failure(errno, path) }
        defer { close(fd) }
        func put(_ d: Data) throws {
            guard d.withUnsafeBytes({ FileIO.writeAll(fd, $0) }) else { throw ExtractJournal.failure(errno, path) }
        }
        var sections = [PMTilesHeader.Section]()
        var at = UInt64(PMTilesHeader.size)
        for length in [root.count, meta.count, leaves.count, Int(end)] {
            sections.append(PMTilesHeader.Section(offset: at, length: UInt64(length)))
            at += UInt64(length)
        }
        try put(header(sections, summary, info))
        try put(root); try put(meta); try put(leaves)
        // Pass 2: the tile bytes in id order, a buffer's worth at a time.
        var buffer = Data()
        for s in sources {
            buffer += try read(s)
            if buffer.count >= 1 << 20 { try put(buffer); buffer.removeAll(keepingCapacity: true) }
        }
        try put(buffer)
        guard fsync(fd) == 0 else { throw ExtractJournal.failure(errno, path) }
        summary.bytes = at
        return summary
    }

    /// The root directory and the leaf directories (gzipped), as the spec's writers make
    /// them: all entries in the root when it fits, else leaves of a size that grows until the
    /// root of their entries fits.
    static func directories(_ entries: [PMTilesDirectory.Entry]) throws -> (root: Data, leaves: Data) {
        let whole = try Gzip.compress(encode(entries))
        if whole.count <= rootLimit { return (whole, Data()) }
        var leafSize = 4096
        while true {
            var rootEntries = [PMTilesDirectory.Entry](), leaves = Data()
            for start in stride(from: 0, to: entries.count, by: leafSize) {
                let leaf = try Gzip.compress(encode(Array(entries[start..<min(start + leafSize, entries.count)])))
                rootEntries.append(PMTilesDirectory.Entry(tileID: entries[start].tileID, offset: UInt64(leaves.count), length: UInt64(leaf.count), runLength: 0))
                leaves += leaf
            }
            let root = try Gzip.compress(encode(rootEntries))
            if root.count <= rootLimit { return (root, leaves) }
            leafSize *= 2
        }
    }

    /// A directory's bytes: count, id deltas, run lengths, lengths, offsets (0 for "right
    /// after the previous entry", else offset + 1), each a varint column.
    static func encode(_ entries: [PMTilesDirectory.Entry]) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(entries.count * 6 + 8)
        func varint(_ v: UInt64) {
            var v = v
            while v >= 0x80 { out.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
            out.append(UInt8(v))
        }
        varint(UInt64(entries.count))
        var last: UInt64 = 0
        for e in entries { varint(e.tileID - last); last = e.tileID }
        for e in entries { varint(e.runLength) }
        for e in entries { varint(e.length) }
        for (i, e) in entries.enumerated() {
            if i > 0, entries[i - 1].offset + entries[i - 1].length == e.offset { varint(0) } else { varint(e.offset + 1) }
        }
        return out
    }

    static func header(_ s: [PMTilesHeader.Section], _ summary: Summary, _ info: Info) -> Data {
        var h = [UInt8]("PMTiles".utf8) + [3]
        func u64(_ v: UInt64) { for i in 0..<8 { h.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) } }
        func i32(_ v: Double) {
            let e7 = Int32(clamping: Int64(saturating: (v * 1e7).rounded()))
            for i in 0..<4 { h.append(UInt8(truncatingIfNeeded: UInt32(bitPattern: e7) >> (8 * UInt32(i)))) }
        }
        for section in s { u64(section.offset); u64(section.length) }
        u64(summary.addressedTiles); u64(summary.entries); u64(summary.contents)
        let a = info.area
        h += [1, PMTilesHeader.Compression.gzip.rawValue, info.tileCompression.rawValue, info.tileType.rawValue,
              UInt8(a.zooms.lowerBound), UInt8(a.zooms.upperBound)]
        // Bounds across the antimeridian are given as every longitude (the spec has no way
        // to say "wraps"); the saved area's own metadata keeps the exact box.
        let (west, east) = a.crossesAntimeridian ? (-180.0, 180.0) : (a.west, a.east)
        i32(west); i32(a.south); i32(east); i32(a.north)
        h.append(UInt8((a.zooms.lowerBound + a.zooms.upperBound) / 2))
        var centre = a.crossesAntimeridian ? (a.west + a.east + 360) / 2 : (a.west + a.east) / 2
        if centre > 180 { centre -= 360 }
        i32(centre); i32((a.south + a.north) / 2)
        return Data(h)
    }

    /// Copies the archive at `path` to `output` with `metadata` (a JSON object,
    /// uncompressed) in place of its own: the directories and tile bytes are copied as they
    /// are, their sections moved. Renaming a saved area rewrites no tile.
    public static func rewrite(_ path: String, metadata: Data, to output: String) throws {
        let reader = try FileRangeReader(path: path)
        let archive = try PMTilesArchive(reader: reader, name: path)
        var head = [UInt8](try reader.read(offset: 0, length: PMTilesHeader.size))
        let h = archive.header
        let meta: Data
        switch h.internalCompression {
        case .gzip: meta = try Gzip.compress([UInt8](metadata))
        case .none: meta = metadata
        // TRANSLATORS: %2$@ is a compression's name (brotli, zstd).
        default: throw ExtractError.failed(tr("%1$@: its metadata is compressed with %2$@, which this program does not write", path, h.internalCompression))
        }
        let fd = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ExtractJournal.failure(errno, output) }
        defer { close(fd) }
        // Header, root, metadata, leaves, tiles: each section where the last one ends.
        let sections: [(PMTilesHeader.Section?, Data?)] = [(h.rootDirectory, nil), (nil, meta), (h.leafDirectories, nil), (h.tileData, nil)]
        var at = UInt64(PMTilesHeader.size)
        for (i, (section, data)) in sections.enumerated() {
            let length = section?.length ?? UInt64(data?.count ?? 0)
            for b in 0..<8 {
                head[8 + 16 * i + b] = UInt8(truncatingIfNeeded: at >> (8 * UInt64(b)))
                head[16 + 16 * i + b] = UInt8(truncatingIfNeeded: length >> (8 * UInt64(b)))
            }
            at += length
        }
        func put(_ d: Data) throws {
            guard d.withUnsafeBytes({ FileIO.writeAll(fd, $0) }) else { throw ExtractJournal.failure(errno, output) }
        }
        try put(Data(head))
        for (section, data) in sections {
            if let data { try put(data); continue }
            guard let section else { continue }
            var done: UInt64 = 0
            while done < section.length {
                let n = Int(min(section.length - done, 1 << 20))
                try put(try reader.read(offset: section.offset + done, length: n))
                done += UInt64(n)
            }
        }
        guard fsync(fd) == 0 else { throw ExtractJournal.failure(errno, output) }
    }
}
