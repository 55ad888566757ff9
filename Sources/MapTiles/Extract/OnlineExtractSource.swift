import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// An extract's tiles from a tile server, only one whose `sources.json` entry says it allows
/// bulk downloads (OpenStreetMap's and OpenTopoMap's do not). Requests go a few at a time,
/// with the client's User-Agent; a 404 is a tile the server does not have; 429 and 5xx are
/// asked again after a pause (the server's Retry-After, in seconds or as a date, when it
/// gives one, up to a minute).
public final class OnlineExtractSource: ExtractSource, @unchecked Sendable {
    public let source: OnlineSource
    private let client: HTTPClient
    private let lock = Lock()
    private var made = 0
    private var stopped = false

    public init(_ source: OnlineSource, client: HTTPClient) throws {
        if let refusal = source.bulkRefusal { throw ExtractError.refused(refusal) }
        self.source = source
        self.client = client
    }

    public var name: String { source.name }
    public var zoomRange: ClosedRange<Int> { source.zoomRange }
    public var tileType: PMTilesHeader.TileType? { source.kind == .vector ? .mvt : nil }
    public var tileCompression: PMTilesHeader.Compression? { nil }
    public var concurrency: Int { 2 }
    public var batchSize: Int { 8 }
    public var bytesPerTile: UInt64 { source.kind == .vector ? 30_000 : 20_000 }
    public var metadata: [String: JSONValue] {
        ["name": .string(source.title), "attribution": .string(source.attribution)]
    }

    public var requests: Int {
        lock.lock(); defer { lock.unlock() }
        return made
    }

    public func fetch(_ ids: [UInt64]) throws -> [Data?] {
        try ids.map { id in
            guard let tile = PMTilesTileID.tile(for: id) else { return nil }
            return try retrying(5, stopped: isStopped) { try get(tile) }
        }
    }

    private func get(_ tile: TileID) throws -> Data? {
        let url = source.template.url(for: tile)
        lock.lock(); made += 1; lock.unlock()
        switch client.get(url) {
        case let .failed(reason, _):
            throw ExtractError.failed("\(source.name): tile \(tile): \(reason)")
        case let .response(r):
            switch r.status {
            case 200: return r.body.isEmpty ? nil : r.body
            case 204, 404: return nil
            case 429, 500...599:
                // Asked to slow down: wait as told (bounded), then the retry asks again.
                if let after = r.header("Retry-After").flatMap({ HTTPFreshness.retryAfter($0, now: WallClock.now) }), after.isFinite, after > 0 {
                    var slept = 0.0
                    while slept < min(after, 60), !isStopped() { usleep(100_000); slept += 0.1 }
                }
                throw ExtractError.failed("\(source.name): tile \(tile): the server answered \(r.status)")
            default:
                throw ExtractError.refused("\(source.name): tile \(tile): the server answered \(r.status)")
            }
        }
    }

    private func isStopped() -> Bool {
        lock.lock(); defer { lock.unlock() }
        return stopped
    }

    public func cancel() {
        lock.lock(); stopped = true; lock.unlock()
    }
}
