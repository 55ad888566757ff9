import FoundationEssentials
import Platform

/// Which schema a source's vector tiles follow: the layers and attributes a style and the
/// search index read. Told once, when the source is opened, from its metadata (the layer ids,
/// then its name and version), else from the layer names of one of its low tiles.
public enum TileSchema: Sendable, Equatable, CustomStringConvertible {
    /// OpenMapTiles (OpenFreeMap, MapTiler, tilemaker's and Planetiler's default).
    case openMapTiles
    /// Protomaps' basemap, version 4 (`earth`, `roads`, `places`, `pois`…).
    case protomaps
    /// The embedded basemap's own (`land`, `lakes`, `places`…).
    case basemap
    /// Something else: its layers, as named.
    case unknown([String])

    /// Layers only OpenMapTiles has (others share `water`, `landuse`, `landcover`).
    static let openMapTilesLayers: Set<String> = ["transportation", "transportation_name", "place", "building", "housenumber", "poi",
                                                  "boundary", "waterway", "park", "mountain_peak", "water_name", "aeroway", "aerodrome_label"]
    /// Layers only Protomaps' basemap has.
    static let protomapsLayers: Set<String> = ["earth", "roads", "places", "pois", "buildings", "boundaries", "transit", "physical_line", "physical_point"]

    /// The schema of tiles with these layers; `name` and `version` (the metadata's) decide
    /// when the layers do not ("Protomaps Basemap" 4.x, or a name with OpenMapTiles in it).
    public static func detect(layers: [String], name: String? = nil, version: String? = nil) -> TileSchema {
        let set = Set(layers)
        if set.contains("land"), !set.contains("water"), !set.contains("transportation"), !set.contains("roads") { return .basemap }
        let omt = set.intersection(openMapTilesLayers).count, pm = set.intersection(protomapsLayers).count
        if pm > omt { return .protomaps }
        if omt > pm { return .openMapTiles }
        let said = (name ?? "").lowercased()
        if said.contains("protomaps") { return .protomaps }
        if said.contains("openmaptiles") { return .openMapTiles }
        // Only layers both have (water, landuse): version 4 is Protomaps' numbering of its own;
        // otherwise nothing says whose (and no credit is claimed for it).
        if !set.isDisjoint(with: ["water", "landuse", "landcover"]), (version ?? "").hasPrefix("4") { return .protomaps }
        return .unknown(layers)
    }

    /// The schema of a vector tile's bytes (inflated), nil when they do not decode, hold no
    /// layer, or only layers both schemas have.
    public static func detect(tile bytes: Data) -> TileSchema? {
        guard let tile = try? MVTDecoder.decode(bytes), !tile.layers.isEmpty else { return nil }
        let names = tile.layers.map(\.name)
        // A tile of the sea or a lake (only layers both schemas have) decides nothing.
        if Set(names).isSubset(of: ["water", "landuse", "landcover"]) { return nil }
        return detect(layers: names)
    }

    /// The schema told from the metadata's layers, name and version, else from the layers of
    /// the first of a source's tiles at `zooms` (probed) that holds any (`tile`: its bytes at a zoom,
    /// gzipped or not — a small area's lowest tiles may be empty): nil when nothing says.
    static func detect(layers: [String], name: String?, version: String?, probing zooms: [Int], tile: (Int) -> Data?) -> TileSchema? {
        if !layers.isEmpty { return detect(layers: layers, name: name, version: version) }
        let said = (name ?? "").lowercased()
        if said.contains("protomaps") { return .protomaps }
        if said.contains("openmaptiles") { return .openMapTiles }
        for z in zooms {
            guard let bytes = tile(z) else { continue }
            if let found = detect(tile: (Gzip.isCompressed(bytes) ? try? Gzip.decompress(bytes) : bytes) ?? bytes) { return found }
        }
        return nil
    }

    /// The zooms whose tiles tell a source's schema when its metadata does not: a few of the
    /// lowest (z0–z4), then the deepest.
    static func probeZooms(_ data: ClosedRange<Int>) -> [Int] {
        var zooms = Array(data.lowerBound...min(data.lowerBound + 4, data.upperBound))
        if !zooms.contains(data.upperBound) { zooms.append(data.upperBound) }
        return zooms
    }

    public var description: String {
        switch self {
        case .openMapTiles: return "OpenMapTiles"
        case .protomaps: return "Protomaps v4"
        case .basemap: return "Meridian basemap"
        case .unknown: return "unknown"
        }
    }

    /// What tiles of this schema owe when their metadata names no attribution.
    public var credit: String {
        switch self {
        case .openMapTiles: return VectorAttribution.openMapTiles
        case .protomaps: return "Protomaps © OpenStreetMap contributors"
        case .basemap, .unknown: return ""
        }
    }
}
