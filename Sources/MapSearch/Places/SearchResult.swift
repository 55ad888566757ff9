import FoundationEssentials
import MapGeometry
import Platform

/// One thing a search found — a built-in place, a name from a street map's own tiles, or an
/// online geocoder's answer — in the one form the search box, `meridian search` and the
/// what-is-here callout show.
public struct SearchResult: Sendable, Equatable {
    /// What kind of thing it is, in the order people expect same-named things: a town
    /// before a street before a café.
    public enum Category: Int, Sendable, Comparable, CaseIterable {
        case country = 0, region, city, town, village, suburb, neighbourhood
        case airport, station, street, address, water, park, peak, poi, other

        public static func < (a: Category, b: Category) -> Bool { a.rawValue < b.rawValue }

        /// Its name for programs (`meridian search --json`): English, never translated.
        public var name: String {
            switch self {
            case .country: return "country"
            case .region: return "region"
            case .city: return "city"
            case .town: return "town"
            case .village: return "village"
            case .suburb: return "district"
            case .neighbourhood: return "neighbourhood"
            case .airport: return "airport"
            case .station: return "station"
            case .street: return "street"
            case .address: return "address"
            case .water: return "water"
            case .park: return "park"
            case .peak: return "peak"
            case .poi, .other: return "place"
            }
        }

        /// Its name in a result row, when nothing more precise is known (in the reader's
        /// language; `name` is the one for programs).
        public var word: String {
            // TRANSLATORS: what a search result is, in its row ("street · Kluuvi, 350 m NE").
            switch self {
            case .country: return trc("kind of place", "country")
            case .region: return trc("kind of place", "region")
            case .city: return trc("kind of place", "city")
            case .town: return trc("kind of place", "town")
            case .village: return trc("kind of place", "village")
            case .suburb: return trc("kind of place", "district")
            case .neighbourhood: return trc("kind of place", "neighbourhood")
            case .airport: return trc("kind of place", "airport")
            case .station: return trc("kind of place", "station")
            case .street: return trc("kind of place", "street")
            case .address: return trc("kind of place", "address")
            case .water: return trc("kind of place", "water")
            case .park: return trc("kind of place", "park")
            case .peak: return trc("kind of place", "peak")
            case .poi: return trc("kind of place", "place")
            case .other: return trc("kind of place", "place")
            }
        }

        /// A zoom that shows one whole.
        public var zoom: Double {
            switch self {
            case .country: return 5
            case .region: return 7
            case .city: return 11
            case .town: return 13
            case .village, .suburb: return 14
            case .neighbourhood, .airport: return 15
            case .street, .water, .park, .peak: return 16
            case .station, .poi, .address, .other: return 17
            }
        }
    }

    /// Where the result came from: the places built in, a street map's index (by the map's
    /// title), or an online geocoder (whose data must be credited beside it).
    public enum Origin: Sendable, Equatable, Hashable {
        case builtIn
        case offline(String)
        case online(credit: String)
    }

    public var name: String
    public var category: Category
    /// What it is in words: "street", "café", "railway station", "peak · 1,245 m".
    public var what: String
    /// The district, town or country it lies in, when known ("Kluuvi", "Finland").
    public var area: String?
    public var coordinate: Coordinate
    /// A zoom that shows it whole.
    public var zoom: Double
    /// A street's whole line (its pieces), to draw once it is chosen; empty for points.
    public var line: [[Coordinate]]
    public var origin: Origin
    /// How well its name matched what was typed (higher is better; see `SearchRanking`).
    public var match: Double
    /// How many live there, when known (built-in places): the larger of two towns first.
    public var population: Int

    public init(name: String, category: Category, what: String? = nil, area: String? = nil, coordinate: Coordinate,
                zoom: Double? = nil, line: [[Coordinate]] = [], origin: Origin, match: Double = 0, population: Int = 0) {
        self.name = name
        self.category = category
        self.what = what ?? category.word
        self.area = area
        self.coordinate = coordinate
        self.zoom = zoom ?? category.zoom
        self.line = line
        self.origin = origin
        self.match = match
        self.population = population
    }

    public var isOnline: Bool { if case .online = origin { return true } else { return false } }
}
