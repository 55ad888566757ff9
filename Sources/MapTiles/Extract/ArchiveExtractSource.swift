import FoundationEssentials
import MapGeometry
import MapNetwork
import Platform

/// An extract's tiles from a PMTiles archive, local or on the web. The archive's directories
/// say where each tile lies; tiles near each other in the archive (PMTiles orders them along
/// a Hilbert curve, so a box's tiles mostly are) are read with one request: ranges less than
/// `maxGap` apart are joined, up to `maxRead` bytes a request.
public final class ArchiveExtractSource: ExtractSource, @unchecked Sendable { // `made` and `stopped` under `lock`
    public let archive: PMTilesArchive
    public let name: String
    public let isRemote: Bool
    private let lock = Lock()
    private var made = 0
    private var stopped = false

    /// Bytes between two tiles read anyway rather than asked for in two requests.
    public static let maxGap: UInt64 = 64 << 10
    /// The most one request reads.
    public static let maxRead: UInt64 = 4 << 20

    public init(archive: PMTilesArchive, name: String) throws {
        let h = archive.header
        guard h.tileType != .unknown else { throw ExtractError.refused(tr("%@: the archive does not say what its tiles are", name)) }
        guard h.minZoom <= h.maxZoom, h.maxZoom <= TileID.maxZoom else {
            // TRANSLATORS: %1$@ is an archive, %2$@…%3$@ the range of zooms it claims.
            throw ExtractError.refused(tr("%1$@: zooms %2$@…%3$@ are out of range", name, h.minZoom, h.maxZoom))
        }
        self.archive = archive
        self.name = name
        isRemote = archive.reader is HTTPRangeReader
    }

    public var zoomRange: ClosedRange<Int> { archive.header.minZoom...archive.header.maxZoom }
    public var tileType: PMTilesHeader.TileType? { archive.header.tileType }
    public var tileCompression: PMTilesHeader.Compression? { archive.header.tileCompression }
    public var concurrency: Int { isRemote ? 4 : 2 }
    public var batchSize: Int { 256 }
    public var bytesPerTile: UInt64 {
        let h = archive.header
        guard h.tileContents > 0, h.addressedTiles > 0 else { return 20_000 }
        // The archive's own average, of what it holds (deep tiles dominate any area).
        return max(1_000, h.tileData.length / h.tileContents)
    }

    public var metadata: [String: JSONValue] {
        guard let data = try? archive.metadata(), case let .object(o)? = try? JSONValue.parse(data) else { return [:] }
        return o
    }

    public var requests: Int {
        lock.lock(); defer { lock.unlock() }
        return made
    }

    /// A remote archive's ETag: the archive changed on the server when it differs.
    public var revision: String? { (archive.reader as? HTTPRangeReader)?.etag }

    /// The OpenStreetMap data's date, when the archive's maker wrote it (planetiler does).
    public var dataDate: String? {
        let meta = metadata
        for key in ["planetiler:osm:osmosisreplicationtime", "osm_date", "date"] {
            if case let .string(s)? = meta[key], let d = ExtractDates.day(in: s) { return d }
        }
        return nil
    }

    public func fetch(_ ids: [UInt64]) throws -> [ExtractTile] {
        // Where each tile lies (leaf directories are read, and kept, as they are needed).
        var places = [(index: Int, offset: UInt64, length: Int)]()
        for (i, id) in ids.enumerated() {
            guard let at = try retrying(stopped: isStopped, { try archive.locate(id) }) else { continue }
            places.append((i, at.offset, at.length))
        }
        places.sort { $0.offset < $1.offset }
        var out = [Data?](repeating: nil, count: ids.count)
        for run in Self.coalesce(places.map { ($0.offset, UInt64($0.length)) }) {
            let bytes = try retrying(stopped: isStopped) { try archive.reader.read(offset: run.offset, length: Int(run.length)) }
            // Bytes of the first request (kept by the reader) cost no request.
            if let http = archive.reader as? HTTPRangeReader, run.offset + run.length > UInt64(http.prefix.count) { lock.lock(); made += 1; lock.unlock() }
            for p in places[run.members] {
                let start = bytes.startIndex + Int(p.offset - run.offset)
                out[p.index] = bytes.subdata(in: start..<start + p.length)
            }
        }
        return out.map { ExtractTile($0) }
    }

    /// Ranges (sorted by offset) joined into reads: which ranges each read serves, and what it
    /// reads. Overlapping ranges (identical tiles stored once) share a read.
    static func coalesce(_ ranges: [(offset: UInt64, length: UInt64)]) -> [(offset: UInt64, length: UInt64, members: Range<Int>)] {
        var out = [(offset: UInt64, length: UInt64, members: Range<Int>)]()
        var start = 0
        while start < ranges.count {
            let first = ranges[start].offset
            var end = first + ranges[start].length, next = start + 1
            while next < ranges.count {
                let r = ranges[next]
                let newEnd = max(end, r.offset + r.length)
                guard r.offset <= end + maxGap, newEnd - first <= maxRead else { break }
                end = newEnd
                next += 1
            }
            out.append((first, end - first, start..<next))
            start = next
        }
        return out
    }

    private func isStopped() -> Bool {
        lock.lock(); defer { lock.unlock() }
        return stopped
    }

    public func cancel() {
        lock.lock(); stopped = true; lock.unlock()
    }
}
