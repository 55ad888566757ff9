import FoundationEssentials
import MapGeometry
import Platform

/// One directory of a PMTiles v3 archive (root or leaf), decoded: entries sorted by tile id,
/// each pointing at tile data (a run of `runLength` consecutive ids sharing one tile) or, with
/// a run length of 0, at a leaf directory. Decoding bounds everything it reads: the entry
/// count by the bytes there are, ids by overflow, lengths by what the format allows.
public struct PMTilesDirectory: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var tileID: UInt64
        /// Relative to the tile data section (tiles) or the leaf directory section (leaves).
        public var offset: UInt64
        public var length: UInt64
        /// Consecutive ids served by this tile; 0 means the entry is a leaf directory.
        public var runLength: UInt64
        public var isLeaf: Bool { runLength == 0 }
        public init(tileID: UInt64, offset: UInt64, length: UInt64, runLength: UInt64) {
            self.tileID = tileID; self.offset = offset; self.length = length; self.runLength = runLength
        }
    }

    public let entries: [Entry]

    public init(entries: [Entry]) { self.entries = entries }

    /// Decodes an uncompressed directory: a varint count, then the columns tile-id deltas,
    /// run lengths, lengths and offsets (0 = right after the previous entry, else offset + 1).
    public init(decoding bytes: [UInt8]) throws {
        var r = ProtobufReader(bytes)
        do {
            let count = try r.varint()
            // Every entry takes at least one byte in each of the four columns.
            guard count <= UInt64(bytes.count / 4) else {
                // TRANSLATORS: %1$@ is a number of entries, %2$@ of bytes.
                throw TileSourceError(tr("directory claims %1$@ entries in %2$@ bytes", count, bytes.count))
            }
            let n = Int(count)
            var ids = [UInt64](), runs = [UInt64](), lengths = [UInt64]()
            ids.reserveCapacity(n); runs.reserveCapacity(n); lengths.reserveCapacity(n)
            var last: UInt64 = 0
            for i in 0..<n {
                let delta = try r.varint()
                // TRANSLATORS: %@ is an entry's number.
                guard i == 0 || delta > 0 else { throw TileSourceError(tr("directory tile ids are not ascending at entry %@", i)) }
                let (id, overflow) = last.addingReportingOverflow(delta)
                guard !overflow else { throw TileSourceError(tr("directory tile id overflows at entry %@", i)) }
                ids.append(id)
                last = id
            }
            for _ in 0..<n {
                let run = try r.varint()
                guard run <= UInt64(UInt32.max) else { throw TileSourceError(tr("directory run length %@ is out of range", run)) }
                runs.append(run)
            }
            for _ in 0..<n {
                let length = try r.varint()
                guard length > 0, length <= UInt64(UInt32.max) else {
                    throw TileSourceError(tr("directory entry length %@ is out of range", length))
                }
                lengths.append(length)
            }
            var out = [Entry]()
            out.reserveCapacity(n)
            for i in 0..<n {
                let v = try r.varint()
                let offset: UInt64
                if v == 0 {
                    guard i > 0 else { throw TileSourceError(tr("the first directory entry has no offset")) }
                    let (o, overflow) = out[i - 1].offset.addingReportingOverflow(out[i - 1].length)
                    guard !overflow else { throw TileSourceError(tr("directory offset overflows at entry %@", i)) }
                    offset = o
                } else {
                    offset = v - 1
                }
                out.append(Entry(tileID: ids[i], offset: offset, length: lengths[i], runLength: runs[i]))
            }
            entries = out
        } catch let e as ProtobufError {
            throw TileSourceError(tr("directory is malformed: %@", e.description))
        }
    }

    /// The entry holding `tileID`: the last one whose id is at most `tileID`, when its run
    /// covers it; a leaf entry is returned as it is (the tile may be under it).
    public func find(_ tileID: UInt64) -> Entry? {
        var lo = 0, hi = entries.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            let id = entries[mid].tileID
            if id == tileID { return entries[mid] }
            if id < tileID { lo = mid + 1 } else { hi = mid - 1 }
        }
        // hi: the last entry below tileID, if any.
        guard hi >= 0 else { return nil }
        let e = entries[hi]
        if e.isLeaf || tileID - e.tileID < e.runLength { return e }
        return nil
    }
}

/// PMTiles' tile ids: tiles numbered zoom by zoom (all of zoom 0, then 1, …), and within a
/// zoom along a Hilbert curve, so that tiles near each other sit near each other in the file.
public enum PMTilesTileID {
    /// The id of `tile` (x, y in XYZ numbering). `tile` must be valid.
    public static func id(of tile: TileID) -> UInt64 {
        let z = UInt64(tile.z)
        let base = ((UInt64(1) << (2 * z)) - 1) / 3  // 4⁰ + 4¹ + … + 4^(z-1)
        let n = UInt64(1) << z
        var x = UInt64(tile.x), y = UInt64(tile.y), d: UInt64 = 0
        var s = n >> 1
        while s > 0 {
            let rx: UInt64 = x & s > 0 ? 1 : 0
            let ry: UInt64 = y & s > 0 ? 1 : 0
            d += s * s * ((3 * rx) ^ ry)
            rotate(n, &x, &y, rx, ry)
            s >>= 1
        }
        return base + d
    }

    /// The tile with id `id`; nil past the deepest zoom a `TileID` can have.
    public static func tile(for id: UInt64) -> TileID? {
        var base: UInt64 = 0
        for z in 0...TileID.maxZoom {
            let count = UInt64(1) << (2 * UInt64(z))
            if id - base < count { return tile(z: z, position: id - base) }
            base += count
        }
        return nil
    }

    private static func tile(z: Int, position: UInt64) -> TileID {
        let n = UInt64(1) << UInt64(z)
        var t = position, x: UInt64 = 0, y: UInt64 = 0, s: UInt64 = 1
        while s < n {
            let rx = 1 & (t >> 1)
            let ry = 1 & (t ^ rx)
            rotate(s, &x, &y, rx, ry)
            x += s * rx
            y += s * ry
            t >>= 2
            s <<= 1
        }
        return TileID(z: z, x: Int(x), y: Int(y))
    }

    /// The Hilbert curve's turn of a quadrant; x, y < n.
    private static func rotate(_ n: UInt64, _ x: inout UInt64, _ y: inout UInt64, _ rx: UInt64, _ ry: UInt64) {
        guard ry == 0 else { return }
        if rx == 1 { x = n - 1 - x; y = n - 1 - y }
        swap(&x, &y)
    }
}
