import Platform

/// A source as the style declares it; which of them the app can read is the caller's business.
public struct StyleSource: Sendable {
    public var type: String
    public var url: String?
    public var tiles: [String]
    public var minzoom: Int?
    public var maxzoom: Int?
    public var attribution: String?
    /// Pixels across one of its tiles: 512 unless the style says (MapLibre's default), so a
    /// tile of zoom z covers what Meridian's 256-point tiles of zoom z + 1 do.
    public var tileSize: Int
    /// A raster-dem source's encoding of heights in colours: "terrarium" or "mapbox" (the default).
    public var encoding: String?

    public init(type: String, url: String? = nil, tiles: [String] = [], minzoom: Int? = nil, maxzoom: Int? = nil, attribution: String? = nil,
                tileSize: Int = 512, encoding: String? = nil) {
        self.type = type; self.url = url; self.tiles = tiles; self.minzoom = minzoom; self.maxzoom = maxzoom; self.attribution = attribution
        self.tileSize = tileSize; self.encoding = encoding
    }

    init(json: JSONValue, path: String) throws {
        guard case let .object(o) = json else { throw StyleError(path: path, reason: "expected an object") }
        guard case let .string(type)? = o["type"] else { throw StyleError(path: "\(path).type", reason: "expected a string") }
        func zoom(_ key: String) -> Int? {
            guard let d = o[key]?.number, d.isFinite else { return nil }
            return Int(saturating: min(30, max(0, d)))
        }
        // A tile size other than 256 or 512 is not one a tile server makes: 512, as unsaid.
        let size = o["tileSize"]?.number == 256 ? 256 : 512
        self.init(type: type, url: o["url"]?.string, tiles: (o["tiles"]?.array ?? []).compactMap(\.string).prefix(64).map { $0 },
                  minzoom: zoom("minzoom"), maxzoom: zoom("maxzoom"), attribution: o["attribution"]?.string, tileSize: size,
                  encoding: o["encoding"]?.string)
    }
}
