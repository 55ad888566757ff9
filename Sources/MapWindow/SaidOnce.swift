import Platform

/// Problems the user is told of once: a tile's failure once per reason (offline, every tile
/// fails the same way), the X server's failure to draw once.
struct SaidOnce {
    private var reasons = Set<String>()
    private var serverFailure = false

    /// Whether `message` ("tile 9/260/175 from osm: reason") gives a reason not said yet.
    mutating func tileFailure(_ message: String) -> Bool {
        // The reason is what repeats.
        let reason = message.split(separator: ":", maxSplits: 1).last.map(String.init) ?? message
        guard reasons.insert(reason).inserted else { return false }
        if reasons.count > 256 { reasons = [reason] }
        return true
    }

    /// Whether the X server's failure is news.
    mutating func serverFailed() -> Bool {
        defer { serverFailure = true }
        return !serverFailure
    }
}
