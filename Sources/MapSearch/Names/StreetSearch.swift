import FoundationEssentials
import MapCore
import MapGeometry
import Platform

/// Everything the search box finds offline, in one order: the built-in places and every
/// street map index there is (`SearchRanking` ranks them together). Immutable: a new index
/// makes a new one.
public struct StreetSearch: PlaceSearching {
    public let places: PlaceIndex?
    public let indexes: [NameIndex]

    public init(places: PlaceIndex?, indexes: [NameIndex]) {
        self.places = places
        self.indexes = indexes
    }

    public func search(_ query: String, near: Coordinate?, zoom: Double?, limit: Int) -> [SearchResult] {
        var lists = indexes.map { $0.search(query, near: near, zoom: zoom, limit: limit) }
        if let places { lists.append(places.search(query, near: near, zoom: zoom, limit: limit)) }
        return SearchRanking.merge(lists, near: near, zoom: zoom, limit: limit)
    }

    /// What lies at `c` (`NameIndex.nearest`), from the map whose answer is nearest; nil
    /// where no index covers it.
    public func whatIsHere(_ c: Coordinate) -> WhatIsHere? {
        var best: WhatIsHere?, bestD = Double.infinity
        for index in indexes {
            let found = index.nearest(to: c)
            guard found.thing != nil || found.area != nil else { continue }
            let d = found.thing.map { NameFeatures.flatDistance(c, $0.coordinate) } ?? 1e9
            if best == nil || d < bestD { best = WhatIsHere(thing: found.thing, area: found.area); bestD = d }
        }
        return best
    }
}
