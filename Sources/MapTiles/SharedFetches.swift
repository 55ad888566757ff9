import FoundationEssentials
import MapGeometry
import Platform

/// A data tile fetched once for the tiles drawn from it: at 512-point sizing four tiles of a
/// zoom come from one tile of the zoom above, and the loader asks for them at once. The first
/// to ask fetches; the others wait for its answer and take the bytes kept here, so a server is
/// asked once, not four times. A fetch that fails or finds nothing keeps nothing: the next
/// asker tries again itself.
final class SharedFetches: @unchecked Sendable { // under `arrived`'s lock
    private let arrived = Condition()
    private var running = Set<TileID>()
    private var recent: LRUCache<TileID, Data>

    init(keeping bytes: Int = 8 << 20) { recent = LRUCache(capacity: bytes) }

    func data(for tile: TileID, _ fetch: () throws -> Data?) throws -> Data? {
        arrived.lock()
        while running.contains(tile) { arrived.wait() }
        if let kept = recent.value(for: tile) { arrived.unlock(); return kept }
        running.insert(tile)
        arrived.unlock()
        var result: Data?
        defer {
            arrived.lock()
            running.remove(tile)
            if let result { _ = recent.insert(result, for: tile, cost: max(result.count, 64)) }
            arrived.broadcast()
            arrived.unlock()
        }
        result = try fetch()
        return result
    }
}
