import Foundation

/// Writes small PMTiles v3 archives for tests and fuzz seeds, independently of the reader in
/// MapTiles (its own Hilbert numbering and directory encoding, from the spec), so that the two
/// check each other. Tiles are stored as given: a test passes gzipped bytes when it says the
/// tile compression is gzip. `assemble` builds archives from raw parts, for hostile ones.
public enum PMTilesFixture {
    public struct Entry: Sendable {
        public var tileID: UInt64, offset: UInt64, length: UInt64, runLength: UInt64
        public init(tileID: UInt64, offset: UInt64, length: UInt64, runLength: UInt64) {
            self.tileID = tileID; self.offset = offset; self.length = length; self.runLength = runLength
        }
    }

    public struct Options: Sendable {
        /// Directories and metadata gzipped (internal compression 2) or not (1).
        public var gzipDirectories = true
        /// 1 mvt, 2 png, 3 jpeg, 4 webp, 5 avif.
        public var tileType: UInt8 = 1
        /// 1 none, 2 gzip, 3 brotli, 4 zstd.
        public var tileCompression: UInt8 = 1
        /// Entries per leaf directory; nil puts every entry in the root.
        public var leafSize: Int?
        public var metadata = #"{"attribution":"© Test contributors","vector_layers":[{"id":"water"}]}"#
        public init() {}
    }

    /// An archive holding `tiles` (z, x, y in XYZ). Identical consecutive tiles share one entry
    /// (a run); identical tiles anywhere share their bytes.
    public static func archive(_ tiles: [(z: Int, x: Int, y: Int, data: Data)], options: Options = Options()) -> Data {
        let sorted = tiles.map { (id: tileID(z: $0.z, x: $0.x, y: $0.y), data: $0.data) }.sorted { $0.id < $1.id }
        var tileData = Data(), entries: [Entry] = [], stored: [Data: UInt64] = [:]
        for t in sorted {
            if let last = entries.last, last.tileID + last.runLength == t.id, stored[t.data] == last.offset {
                entries[entries.count - 1].runLength += 1
                continue
            }
            let offset = stored[t.data] ?? UInt64(tileData.count)
            if stored[t.data] == nil { stored[t.data] = offset; tileData += t.data }
            entries.append(Entry(tileID: t.id, offset: offset, length: UInt64(t.data.count), runLength: 1))
        }
        var root = entries, leaves = Data()
        if let size = options.leafSize {
            root = []
            for start in stride(from: 0, to: entries.count, by: size) {
                let leaf = compress(encode(Array(entries[start..<min(start + size, entries.count)])), options.gzipDirectories)
                root.append(Entry(tileID: entries[start].tileID, offset: UInt64(leaves.count), length: UInt64(leaf.count), runLength: 0))
                leaves += leaf
            }
        }
        let zooms = tiles.map(\.z)
        return assemble(root: encode(root), leaves: leaves, tileData: tileData, options: options,
                        minZoom: UInt8(zooms.min() ?? 0), maxZoom: UInt8(zooms.max() ?? 0))
    }

    /// header | root directory | metadata | leaf directories | tile data. `root` is an
    /// uncompressed directory (compressed here as the options say); `leaves` is stored as is.
    public static func assemble(root: [UInt8], leaves: Data, tileData: Data, options: Options = Options(),
                                minZoom: UInt8 = 0, maxZoom: UInt8 = 14, version: UInt8 = 3) -> Data {
        let rootBytes = compress(root, options.gzipDirectories)
        let meta = compress(Array(options.metadata.utf8), options.gzipDirectories)
        var h = [UInt8]("PMTiles".utf8) + [version]
        func u64(_ v: Int) { for i in 0..<8 { h.append(UInt8(truncatingIfNeeded: UInt64(v) >> (8 * UInt64(i)))) } }
        func i32(_ v: Int32) { for i in 0..<4 { h.append(UInt8(truncatingIfNeeded: UInt32(bitPattern: v) >> (8 * UInt32(i)))) } }
        var at = 127
        for part in [rootBytes, meta, leaves, tileData] { u64(at); u64(part.count); at += part.count }
        u64(0); u64(0); u64(0)
        h += [0, options.gzipDirectories ? 2 : 1, options.tileCompression, options.tileType, minZoom, maxZoom]
        i32(-1_800_000_000); i32(-850_000_000); i32(1_800_000_000); i32(850_000_000)
        h.append(minZoom); i32(0); i32(0)
        return Data(h) + rootBytes + meta + leaves + tileData
    }

    /// A directory, uncompressed: count, id deltas, run lengths, lengths, offsets (0 when
    /// right after the previous entry, else offset + 1).
    public static func encode(_ entries: [Entry]) -> [UInt8] {
        var out: [UInt8] = []
        func varint(_ v: UInt64) {
            var v = v
            while v >= 0x80 { out.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
            out.append(UInt8(v))
        }
        varint(UInt64(entries.count))
        var last: UInt64 = 0
        for e in entries { varint(e.tileID &- last); last = e.tileID }
        for e in entries { varint(e.runLength) }
        for e in entries { varint(e.length) }
        for (i, e) in entries.enumerated() {
            if i > 0, entries[i - 1].offset + entries[i - 1].length == e.offset { varint(0) } else { varint(e.offset + 1) }
        }
        return out
    }

    public static func compress(_ bytes: [UInt8], _ gzip: Bool) -> Data {
        gzip ? MBTilesFixture.gzip(Data(bytes)) : Data(bytes)
    }

    /// The spec's tile id: tiles of lower zooms first, then the Hilbert index at zoom z.
    public static func tileID(z: Int, x: Int, y: Int) -> UInt64 {
        var acc: UInt64 = 0
        for level in 0..<z { acc += UInt64(1) << (2 * UInt64(level)) }
        let n = 1 << z
        var x = x, y = y, d = 0, s = n / 2
        while s > 0 {
            let rx = (x & s) > 0 ? 1 : 0, ry = (y & s) > 0 ? 1 : 0
            d += s * s * ((3 * rx) ^ ry)
            if ry == 0 {
                if rx == 1 { x = s - 1 - x; y = s - 1 - y }
                (x, y) = (y, x)
            }
            s /= 2
        }
        return acc + UInt64(d)
    }
}
