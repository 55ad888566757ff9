import Platform

/// A source as the style declares it; which of them the app can read is the caller's business.
public struct StyleSource: Sendable {
    public var type: String
    public var url: String?
    public var tiles: [String]
    public var minzoom: Int?
    public var maxzoom: Int?
    public var attribution: String?

    public init(type: String, url: String? = nil, tiles: [String] = [], minzoom: Int? = nil, maxzoom: Int? = nil, attribution: String? = nil) {
        self.type = type; self.url = url; self.tiles = tiles; self.minzoom = minzoom; self.maxzoom = maxzoom; self.attribution = attribution
    }

    init(json: JSONValue, path: String) throws {
        guard case let .object(o) = json else { throw StyleError(path: path, reason: "expected an object") }
        guard case let .string(type)? = o["type"] else { throw StyleError(path: "\(path).type", reason: "expected a string") }
        func zoom(_ key: String) -> Int? {
            guard let d = o[key]?.number, d.isFinite else { return nil }
            return Int(saturating: min(30, max(0, d)))
        }
        self.init(type: type, url: o["url"]?.string, tiles: (o["tiles"]?.array ?? []).compactMap(\.string).prefix(64).map { $0 },
                  minzoom: zoom("minzoom"), maxzoom: zoom("maxzoom"), attribution: o["attribution"]?.string)
    }
}
