import FoundationEssentials
import MapGeometry
import Platform

/// A map with saved areas beneath it: tiles come from the map itself (online, fresher), and
/// where it cannot give one (out of reach, or failing) from a saved area that holds it. So
/// when the network goes, a saved area is still there at street level. While the map is out
/// of reach, tiles inside an area come straight from it, and one tile in a while still asks
/// the map, so that its coming back is noticed.
public final class AreaBackedSource: TileSource, @unchecked Sendable { // `lastProbe` and `saved` under `lock`
    /// A saved area: its tiles, where they lie, and the shallowest zoom it holds.
    public struct Area: Sendable {
        public let source: TileSource
        /// Where it has tiles (two rectangles for an area across the antimeridian).
        public let rects: [MapRect]
        public let minZoom: Int
        public init(source: TileSource, rects: [MapRect], minZoom: Int) {
            self.source = source; self.rects = rects; self.minZoom = minZoom
        }

        func holds(_ tile: TileID) -> Bool {
            guard tile.z >= minZoom else { return false }
            let r = tile.mapRect
            return rects.contains { $0.intersects(r) }
        }
    }

    public let primary: TileSource
    public var zoomShift: Int { primary.zoomShift }
    /// While the map is out of reach, how often a tile inside an area still asks it.
    public static let probeInterval = 10.0
    private let lock = Lock()
    private var lastProbe = -Double.infinity
    private var saved: [Area]

    public init(primary: TileSource, areas: [Area]) {
        self.primary = primary
        saved = areas
    }

    /// The areas beneath; an area saved or deleted while the map is shown changes them.
    public var areas: [Area] {
        get { lock.lock(); defer { lock.unlock() }; return saved }
        set { lock.lock(); saved = newValue; lock.unlock() }
    }

    public var name: String { primary.name }
    public var zoomRange: ClosedRange<Int> { primary.zoomRange }
    public var attribution: String { primary.attribution }
    public var attributionURL: String? { primary.attributionURL }
    public var concurrency: Int { primary.concurrency }
    public var isRemote: Bool { primary.isRemote }
    public var unreachable: String? { primary.unreachable }
    public func cancel(_ tiles: [TileID]) { primary.cancel(tiles) }
    public func decoded(_ tile: TileID, payload: TilePayload, ok: Bool) { primary.decoded(tile, payload: payload, ok: ok) }
    public func keptAhead(_ tile: TileID, payload: TilePayload) { primary.keptAhead(tile, payload: payload) }
    public func abandoned(_ tile: TileID) { primary.abandoned(tile) }

    public func payload(for tile: TileID) throws -> TilePayload? {
        let holders = areas.filter { $0.holds(tile) }
        guard !holders.isEmpty else { return try primary.payload(for: tile) }
        var failure: Error?
        if shouldAsk() {
            do {
                return try primary.payload(for: tile)
            } catch let e as TileLoadCancelled {
                throw e
            } catch {
                failure = error
            }
        }
        for area in holders {
            if let p = try? area.source.payload(for: tile) { return p }
        }
        if let failure { throw failure }
        // No area has it after all: the map says why it has none (its cache, or out of reach).
        return try primary.payload(for: tile)
    }

    /// Whether to ask the map first: always while it is reachable, once in a while when not.
    private func shouldAsk() -> Bool {
        let reachable = primary.unreachable == nil, now = WallClock.now
        lock.lock(); defer { lock.unlock() }
        guard reachable || now - lastProbe >= Self.probeInterval else { return false }
        lastProbe = now
        return true
    }
}
