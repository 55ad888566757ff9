import MapGeometry
import Platform

/// When tiles that stand in for missing ones are loaded: a missing tile's parent, or a
/// fallback layer's under the map's own tiles (the embedded basemap under online tiles). While the tiles
/// they stand in for are still on their way, only after `grace`: a quick server's tiles come
/// first, and no stand-in is drawn for nothing (a quarter MiB and up to several milliseconds a
/// tile). Once the loader has settled (no tile there, the server down), at once.
struct StandInGate {
    static let grace = 0.4
    /// When each tile held back was first wanted (`MonotonicClock` seconds).
    private var since: [TileID: Double] = [:]

    /// Of the stand-ins the frame wants, those to load now. `loading`: the tiles they stand
    /// in for are still being loaded.
    mutating func admit(_ wanted: [TileID], loading: Bool, now: Double) -> [TileID] {
        guard loading, !wanted.isEmpty else {
            since.removeAll()
            return wanted
        }
        var next: [TileID: Double] = [:]
        var due: [TileID] = []
        for t in wanted {
            let first = since[t] ?? now
            next[t] = first
            if now - first >= Self.grace { due.append(t) }
        }
        since = next
        return due
    }

    /// When the next tile held back is due; nil when none is.
    var nextDue: Double? { since.values.min().map { $0 + Self.grace } }
}
