import FoundationEssentials
import MapCore
import MapGeometry
import MapTiles
import Platform

/// The names one vector tile holds, read for the search index: pieces of named streets, named
/// points (places, shops, stations, water, parks, peaks, airports) and house numbers (which
/// carry no street: the index joins them to the nearest one). Tiles of the OpenMapTiles schema
/// and of Protomaps' basemap v4 (`ProtomapsNames`) are read, each told by its own layers.
/// Pure, and fuzzed (fuzz-names): tiles are untrusted bytes.
public struct TileNames: Sendable, Equatable {
    /// The schemas whose names are read.
    public enum Schema: String, Sendable {
        case openMapTiles, protomaps

        /// A tile's schema from its layers' names: Protomaps' `roads`, `places`, `pois`… or
        /// OpenMapTiles' `transportation_name`, `place`, `poi`… (`water`, `landuse` and
        /// `landcover` are both's); nil for neither, and where both are there the more.
        public static func of(layers: [String]) -> Schema? {
            let names = Set(layers)
            let omt = names.intersection(openMapTilesLayers).count, pm = names.intersection(protomapsLayers).count
            if omt == 0 && pm == 0 { return nil }
            return pm > omt ? .protomaps : .openMapTiles
        }

        static let openMapTilesLayers: Set<String> = ["transportation", "transportation_name", "place", "poi", "housenumber", "building",
                                                      "boundary", "waterway", "water_name", "park", "mountain_peak", "aerodrome_label", "aeroway"]
        static let protomapsLayers: Set<String> = ["roads", "places", "pois", "buildings", "earth", "boundaries", "transit"]
    }

    /// The schema the tile's layers say, nil when neither (nothing was read).
    public var schema: Schema?

    /// A thing's name and its other names (other languages, other scripts), each at most
    /// `maxNameLength` characters.
    public struct Names: Sendable, Equatable, Hashable {
        public var name: String
        public var others: [String]
        public init(name: String, others: [String] = []) { self.name = name; self.others = others }
    }

    /// A piece of a named street (or path, or railway) within the tile.
    public struct Segment: Sendable, Equatable {
        public var names: Names
        /// OpenMapTiles' `class` (primary, minor, path, rail…).
        public var kind: String
        public var points: [Coordinate]
    }

    public struct Point: Sendable, Equatable {
        public var names: Names
        public var category: SearchResult.Category
        public var what: String
        public var coordinate: Coordinate
    }

    public struct HouseNumber: Sendable, Equatable {
        public var number: String
        public var coordinate: Coordinate
    }

    public var segments: [Segment] = []
    public var points: [Point] = []
    public var houseNumbers: [HouseNumber] = []

    public static let maxNameLength = 200
    static let maxOtherNames = 12

    /// The names of `tile`, whose bytes decoded to `vector`. Points are taken only inside the
    /// tile proper (not its buffer), so that a point near an edge is indexed once.
    public init(_ vector: VectorTile, tile: TileID) {
        schema = Schema.of(layers: vector.layers.map(\.name))
        let box = tile.mapRect
        for layer in vector.layers {
            guard layer.extent > 0 else { continue }
            let frame = Frame(box: box, extent: layer.extent)
            if schema == .protomaps {
                readProtomaps(layer, frame)
                continue
            }
            switch layer.name {
            case "transportation_name":
                for f in layer.features where f.type == .lineString {
                    guard let names = Self.names(f.properties) else { continue }
                    addSegments(f, names: names, kind: Self.text(f.properties["class"]) ?? "", frame)
                }
            case "housenumber":
                for f in layer.features {
                    guard let number = Self.text(f.properties["housenumber"]) else { continue }
                    addHouseNumber(f, number: number, frame)
                }
            case "place", "poi", "water_name", "park", "mountain_peak", "aerodrome_label":
                for f in layer.features {
                    guard let names = Self.names(f.properties) else { continue }
                    let (category, what) = Self.kind(layer: layer.name, f.properties)
                    addPoint(f, names: names, category: category, what: what, frame)
                }
            default:
                continue
            }
        }
    }

    /// Where a layer's tile coordinates lie: its tile's box and its extent.
    struct Frame {
        var box: MapRect
        var extent: Int

        func coordinate(_ p: VectorTile.Point) -> Coordinate {
            let unit = box.size.width / Double(extent)
            return WebMercator.unproject(MapPoint(x: box.minX + Double(p.x) * unit, y: box.minY + Double(p.y) * unit))
        }

        func inside(_ p: VectorTile.Point) -> Bool { p.x >= 0 && p.y >= 0 && Int(p.x) < extent && Int(p.y) < extent }
    }

    /// A named line's parts as street pieces.
    mutating func addSegments(_ f: VectorTile.Feature, names: Names, kind: String, _ frame: Frame) {
        for part in f.parts where part.count >= 2 {
            // Points far outside the tile (hostile or broken) are no street.
            let points = part.prefix(100_000).map(frame.coordinate)
            if points.allSatisfy(\.isValid) { segments.append(Segment(names: names, kind: kind, points: points)) }
        }
    }

    /// A named point, when its anchor lies in the tile proper.
    mutating func addPoint(_ f: VectorTile.Feature, names: Names, category: SearchResult.Category, what: String, _ frame: Frame) {
        guard let p = Self.anchor(f), frame.inside(p) else { return }
        points.append(Point(names: names, category: category, what: what, coordinate: frame.coordinate(p)))
    }

    /// A house number, when its anchor lies in the tile proper.
    mutating func addHouseNumber(_ f: VectorTile.Feature, number: String, _ frame: Frame) {
        guard let p = Self.anchor(f), frame.inside(p) else { return }
        houseNumbers.append(HouseNumber(number: String(number.prefix(24)), coordinate: frame.coordinate(p)))
    }

    /// A feature's point: the point itself, or the middle of a line's or polygon's first ring
    /// (OpenMapTiles gives POIs, water names and parks as points or centroids mostly).
    static func anchor(_ f: VectorTile.Feature) -> VectorTile.Point? {
        guard let part = f.parts.first, !part.isEmpty else { return nil }
        if f.type == .point || part.count == 1 { return part[0] }
        var x = 0.0, y = 0.0
        for p in part { x += Double(p.x); y += Double(p.y) }
        // Int32 points: their mean is an Int32 too.
        return VectorTile.Point(x: Int32(saturating: x / Double(part.count)), y: Int32(saturating: y / Double(part.count)))
    }

    static func text(_ v: VectorTile.Value?) -> String? {
        guard let s = v?.string else { return nil }
        let t = s.trimmed
        return t.isEmpty ? nil : t
    }

    /// Every name a feature carries: `name`, else `name:latin`, `name_int`, `name_en`; the
    /// rest (`name:xx`, `name_xx`; Protomaps' `name2`, `name3`, the name's parts in other
    /// scripts) as other names, those in `firstLanguages` first: a Protomaps feature may
    /// carry 41 languages, more than are kept.
    static func names(_ properties: [String: VectorTile.Value]) -> Names? {
        var main: String?
        for key in ["name", "name:latin", "name_int", "name_en", "name:en"] {
            if let n = text(properties[key]) { main = n; break }
        }
        guard let main else { return nil }
        let name = String(main.prefix(maxNameLength))
        var others: [String] = []
        let keys = properties.keys.filter { $0.hasPrefix("name:") || $0.hasPrefix("name_") || $0 == "name2" || $0 == "name3" }
            .map { (rank: firstLanguages.firstIndex(of: String($0.dropFirst(5))) ?? firstLanguages.count, key: $0) }
            .sorted { ($0.rank, $0.key) < ($1.rank, $1.key) }.map(\.key)
        for key in keys {
            guard others.count < maxOtherNames, let n = text(properties[key]) else { continue }
            let other = String(n.prefix(maxNameLength))
            guard other != name, !others.contains(where: { value(of: $0) == other }) else { continue }
            var language = key.dropFirst(5)
            // Protomaps has Chinese as zh-Hans and zh-Hant only; a reader's language is "zh".
            if language == "zh-Hans", properties["name:zh"] == nil { language = "zh" }
            let isLanguage = (2...7).contains(language.count) && language.allSatisfy { $0.isASCII && ($0.isLetter || $0 == "-") } && language != "latin"
            others.append(isLanguage ? language.lowercased() + String(languageMark) + other : other)
        }
        return Names(name: name, others: others)
    }

    /// The languages Meridian is translated into, and English: their names are kept first.
    static let firstLanguages = ["en", "sv", "fi", "de", "fr", "es", "it", "nl", "pl", "pt", "cs", "uk", "ja", "zh", "zh-Hans", "zh-Hant"]

    /// Between a language's code and its name in an other name ("sv␞Alexandersgatan"): the
    /// index keeps which language each name is in, for rows in the reader's.
    static let languageMark: Character = "\u{1E}"

    /// An other name without its language.
    public static func value(of other: String) -> String {
        guard let i = other.firstIndex(of: languageMark) else { return other }
        return String(other[other.index(after: i)...])
    }

    /// The name in the first of `languages` that `others` has one in.
    public static func name(in languages: [String], others: [String]) -> String? {
        for l in languages {
            let prefix = l + String(languageMark)
            if let o = others.first(where: { $0.hasPrefix(prefix) }) { return String(o.dropFirst(prefix.count)) }
        }
        return nil
    }

    /// What a named point is, from its layer and OpenMapTiles' class and subclass.
    static func kind(layer: String, _ p: [String: VectorTile.Value]) -> (SearchResult.Category, String) {
        let cls = text(p["class"]) ?? "", sub = text(p["subclass"]) ?? ""
        switch layer {
        case "place":
            switch cls {
            case "continent", "country": return (.country, "country")
            case "state", "province": return (.region, cls)
            case "city": return (.city, "city")
            case "town": return (.town, "town")
            case "village", "hamlet": return (.village, cls)
            case "suburb", "quarter": return (.suburb, "district")
            case "island", "islet": return (.other, "island")
            default: return (.neighbourhood, cls.isEmpty ? "place" : words(cls))
            }
        case "water_name": return (.water, cls.isEmpty ? "water" : words(cls))
        case "park": return (.park, cls.isEmpty ? "park" : words(cls))
        case "aerodrome_label": return (.airport, "airport")
        case "mountain_peak":
            var what = cls.isEmpty ? "peak" : words(cls)
            if let ele = p["ele"]?.number, ele.isFinite, abs(ele) < 10_000 {
                what += " · " + Self.metres(ele)
            }
            return (.peak, what)
        default: // poi
            switch (cls, sub) {
            case ("railway", "station"), ("railway", "halt"): return (.station, "railway station")
            case ("railway", "subway"): return (.station, "metro station")
            case ("railway", "tram_stop"): return (.poi, "tram stop")
            case ("bus", "bus_station"): return (.station, "bus station")
            case ("ferry_terminal", _): return (.station, "ferry terminal")
            case ("aerialway", "station"): return (.station, "cable car station")
            case ("park", _): return (.park, "park")
            default:
                let word = sub.isEmpty ? cls : sub
                return (.poi, word.isEmpty ? "place" : words(word))
            }
        }
    }

    /// "department_store" → "department store"; a few words as people write them.
    static func words(_ s: String) -> String {
        switch s {
        case "cafe": return "café"
        case "subway": return "metro"
        case "atm": return "ATM"
        default: return String(s.prefix(40).map { $0 == "_" ? " " : $0 })
        }
    }

    /// "1,245 m" (whole metres).
    static func metres(_ v: Double) -> String {
        let m = Int(saturating: v.rounded())
        let digits = String(abs(m))
        var grouped = ""
        for (i, ch) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { grouped.append(",") }
            grouped.append(ch)
        }
        return (m < 0 ? "−" : "") + grouped + " m"
    }
}
