import FoundationEssentials
import MapGeometry
import Platform

/// What the search box asks as each key is typed: the best results for the text, near the
/// view. The box asks on the frame's thread, as a text field filters a list: an answer must
/// come in a few milliseconds (the street indexes and the built-in places together take
/// 3 ms at p99 for a 1,600-tile city: `meridian bench --only streets`). Slow work — building
/// an index, asking online, what-is-here — happens on workers.
public protocol PlaceSearching: Sendable {
    /// Near a view of that zoom: how much nearness counts follows how much of the earth the
    /// view shows (`SearchRanking.nearness(zoom:)`); nil, as at a street.
    func search(_ query: String, near: Coordinate?, zoom: Double?, limit: Int) -> [SearchResult]
}

extension PlaceSearching {
    /// Near a point, as at a street.
    public func search(_ query: String, near: Coordinate?, limit: Int) -> [SearchResult] {
        search(query, near: near, zoom: nil, limit: limit)
    }
}

extension PlaceIndex: PlaceSearching {
    /// The built-in places as results: a city of a hundred thousand or more, a town of ten
    /// thousand, else a village; where, by its country.
    public func search(_ query: String, near: Coordinate?, zoom: Double?, limit: Int) -> [SearchResult] {
        let found = matches(query, limit: max(limit * 3, 24)).map { m -> SearchResult in
            let p = m.place
            let category: SearchResult.Category = p.population >= 100_000 ? .city : p.population >= 10_000 ? .town : .village
            return SearchResult(name: p.name, category: category, area: p.country, coordinate: p.coordinate, zoom: p.zoom,
                                origin: .builtIn, match: m.match, population: p.population)
        }
        return SearchRanking.merge([found], near: near, zoom: zoom, limit: limit)
    }
}
