import FoundationEssentials
import MapGeometry
import Glibc
import Platform

/// Where an extract's tiles come from: a PMTiles archive (local or on the web), an MBTiles
/// file, or a tile server that allows bulk downloads. Tiles are asked for in batches of
/// ascending ids, so an archive can read neighbours together.
public protocol ExtractSource: AnyObject, Sendable {
    /// What the user named it (a path, a URL, a source name): kept in the saved area.
    var name: String { get }
    /// The zooms it has tiles at.
    var zoomRange: ClosedRange<Int> { get }
    /// The tiles' type and compression when the source says; nil: told by the tiles' bytes.
    var tileType: PMTilesHeader.TileType? { get }
    var tileCompression: PMTilesHeader.Compression? { get }
    /// Its own metadata (attribution, vector layers…), carried into the extract.
    var metadata: [String: JSONValue] { get }
    /// Batches fetched at once, and tiles per batch.
    var concurrency: Int { get }
    var batchSize: Int { get }
    /// A typical tile's size, for the estimate before the extract starts.
    var bytesPerTile: UInt64 { get }
    /// Requests made over the network so far (0 for files).
    var requests: Int { get }
    /// Which version of the map the tiles are of, when the source can tell: a remote
    /// archive's ETag, a tile server's tile address (OpenFreeMap's names its planet's date).
    /// An extract resumed against another revision starts again rather than mix two.
    var revision: String? { get }
    /// When the map's data is from ("2026-11-20"), when the source says.
    var dataDate: String? { get }
    /// The stored bytes of each tile of `ids` (ascending), nil where the source has none,
    /// with what a later update asks the server whether it changed (its ETag or date).
    /// Network failures are retried; what still fails is thrown.
    func fetch(_ ids: [UInt64]) throws -> [ExtractTile]
    /// Gives up waits under way (an extract being stopped).
    func cancel()
}

/// One tile as an extract source gives it.
public struct ExtractTile: Sendable, Equatable {
    /// Its stored bytes; nil: the source has no such tile.
    public var data: Data?
    /// The server's ETag or else its Last-Modified date (`TileValidators.validator`), for an
    /// update's conditional request; nil from files.
    public var validator: String?
    /// Whether an update found it unchanged on the server (its bytes are the old ones).
    public var unchanged: Bool
    public init(_ data: Data?, validator: String? = nil, unchanged: Bool = false) {
        self.data = data; self.validator = validator; self.unchanged = unchanged
    }
}

extension ExtractSource {
    public var revision: String? { nil }
    public var dataDate: String? { nil }

    /// What the tiles are, from the source or else from the first tile's bytes.
    func kind(sniffing sample: Data?) -> (PMTilesHeader.TileType, PMTilesHeader.Compression) {
        let gzipped = sample.map(Gzip.isCompressed) ?? false
        let type = tileType ?? sample.map(Self.sniff) ?? .unknown
        let compression = tileCompression ?? (gzipped ? .gzip : .none)
        return (type, compression)
    }

    /// A tile's type from its first bytes: pictures by their signatures, the rest (protobuf,
    /// or gzip around it) a vector tile.
    static func sniff(_ d: Data) -> PMTilesHeader.TileType {
        if d.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return .png }
        if d.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if d.count >= 12, d.starts(with: Array("RIFF".utf8)), d.dropFirst(8).starts(with: Array("WEBP".utf8)) { return .webp }
        return .mvt
    }
}

/// Retries `body` on failure, waiting longer each time (1, 2, 4 s), unless `stopped` says the
/// extract is stopping. The last failure is thrown.
func retrying<T>(_ attempts: Int = 4, stopped: () -> Bool, _ body: () throws -> T) throws -> T {
    var wait = 1.0
    for attempt in 1... {
        do { return try body() } catch {
            // A refusal (a 403, a policy) is an answer, not a hiccup: asking again changes nothing.
            if case ExtractError.refused? = error as? ExtractError { throw error }
            if attempt >= attempts || stopped() { throw error }
        }
        var slept = 0.0
        while slept < wait, !stopped() { usleep(100_000); slept += 0.1 }
        wait *= 2
    }
    fatalError("unreachable")
}
