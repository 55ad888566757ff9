import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import Platform

/// The one order of search results, whatever found them: first how well the name matches
/// what was typed (the whole name, its start, whole words, the starts of words, then letters
/// inside a word), then what it is (a town before a street before a café of the same name),
/// then how near it is to the view (and, for built-in places, how many live there). How much
/// nearness counts follows the view's scale (`nearness(zoom:)`).
public enum SearchRanking {
    /// How well `name` (a `SearchText.key`) matches `query` (a key too), nil when it does not:
    /// 6 the whole name, 5 its start, 4 whole words, 3 starts of words, 1 letters inside a word.
    /// `other` names (another language's) count one less.
    public static func match(query: String, name: String, other: Bool = false) -> Double? {
        guard !query.isEmpty, !name.isEmpty else { return nil }
        var q: Double
        if name == query {
            q = 6
        } else if name.hasPrefix(query), name.dropFirst(query.count).first == " " {
            q = 5.5
        } else if name.hasPrefix(query) {
            q = 5
        } else {
            let words = SearchText.words(name), typed = SearchText.words(query)
            var all = 4.0
            for (i, t) in typed.enumerated() {
                let last = i == typed.count - 1
                if words.contains(t) { continue }
                if last, words.contains(where: { $0.hasPrefix(t) }) { all = min(all, 3); continue }
                if words.contains(where: { $0.contains(t) }) { all = min(all, 1); continue }
                return nil
            }
            q = all
        }
        return other ? q - 1 : q
    }

    /// How much nearness to the view's centre counts, by the view's zoom. A view of a city or
    /// less (zoom 10 and more) says where the place meant is: nearness in full, above the kind
    /// ("aleks" in Helsinki is its street before a town in Russia). A view of a continent or
    /// the world (zoom 5 and less) says little: the kind and size decide, wherever the view
    /// is and whatever lies in it ("zur" is Zürich over Europe and over Africa, not Zuru in
    /// Nigeria), nearness only ordering things alike (less than a step of kind: 12). In
    /// between, a straight line. Without a zoom (a bare point), as at a street.
    public static func nearness(zoom: Double?) -> Double {
        guard let zoom, zoom.isFinite else { return nearnessInFull }
        let t = min(max((zoom - continentZoom) / (cityZoom - continentZoom), 0), 1)
        return nearnessAcross + (nearnessInFull - nearnessAcross) * t
    }

    static let cityZoom = 10.0, continentZoom = 5.0
    static let nearnessInFull = 150.0, nearnessAcross = 10.0

    /// The result's score: higher is better. Match quality outweighs everything, then the
    /// category, then nearness (log scale: 100 m and 200 m differ as much as 10 km and 20 km),
    /// weighed by the view's `zoom` (`nearness(zoom:)`).
    public static func score(_ r: SearchResult, near: Coordinate?, zoom: Double? = nil) -> Double {
        let category = Double(SearchResult.Category.allCases.count - r.category.rawValue)
        var near01 = 0.0
        if let near {
            let metres = TrackStatistics.distance(near.latitude, near.longitude, r.coordinate.latitude, r.coordinate.longitude)
            // 0 at 20,000 km, about 1 at 10 m.
            near01 = max(0, min(1, 1 - log2(max(metres, 10) / 10) / 21))
        }
        let people = r.population > 0 ? min(log10(Double(r.population)), 8) / 8 : 0
        // Things of one name are put in kind order by `merge`, whatever their nearness.
        return r.match * 1000 + category * 12 + near01 * nearness(zoom: zoom) + people * 9
    }

    /// Results from several finders, in score order, at most `limit`, each thing once (a
    /// street in two overlapping maps, a town both built in and in a map's tiles).
    public static func merge(_ lists: [[SearchResult]], near: Coordinate?, zoom: Double? = nil, limit: Int) -> [SearchResult] {
        var scored: [(result: SearchResult, score: Double, key: String)] = []
        // Things alike share a name: only those of one name are compared (a letter typed
        // can find hundreds of names; comparing every pair cost 100 ms).
        var byName: [String: [Int]] = [:]
        for r in lists.joined() {
            let s = score(r, near: near, zoom: zoom)
            let key = SearchText.key(r.name)
            if let i = byName[key]?.first(where: { isAlike(scored[$0].result, r) }) {
                if s > scored[i].score { scored[i] = (r, s, key) }
                continue
            }
            byName[key, default: []].append(scored.count)
            scored.append((r, s, key))
        }
        let sorted = scored.sorted { $0.score > $1.score }
        var ranked = sorted.map(\.result)
        // Of one name, a town before a street before a café, wherever each is: the places
        // the name holds in the list are given out again in that order.
        var slots: [String: [Int]] = [:]
        for (i, s) in sorted.enumerated() { slots[s.key, default: []].append(i) }
        for indices in slots.values where indices.count > 1 {
            let group = indices.map { ranked[$0] }.enumerated().sorted { ($0.element.category, $0.offset) < ($1.element.category, $1.offset) }
            for (slot, r) in zip(indices, group) { ranked[slot] = r.element }
        }
        return Array(ranked.prefix(limit))
    }

    /// The same thing found twice (of one name): of near categories, within a few hundred metres.
    static func isAlike(_ a: SearchResult, _ b: SearchResult) -> Bool {
        let places: ClosedRange<Int> = SearchResult.Category.city.rawValue...SearchResult.Category.neighbourhood.rawValue
        let kinds = a.category == b.category || (places.contains(a.category.rawValue) && places.contains(b.category.rawValue))
        guard kinds else { return false }
        let reach = places.contains(a.category.rawValue) ? 5000.0 : 300.0
        return TrackStatistics.distance(a.coordinate.latitude, a.coordinate.longitude, b.coordinate.latitude, b.coordinate.longitude) < reach
    }

    /// "350 m NE", "1.2 km", as a row says how far a result is from the view's centre.
    public static func distanceText(from: Coordinate, to: Coordinate, imperial: Bool) -> String {
        guard from.isValid, to.isValid else { return "" }
        let metres = TrackStatistics.distance(from.latitude, from.longitude, to.latitude, to.longitude)
        let distance = TrackStatistics.distanceText(metres, imperial: imperial)
        // TRANSLATORS: in a search result's row: the result is at the view's centre.
        guard metres >= 30 else { return tr("here") }
        // The bearing of a short distance, on a flat earth: good for the eight points.
        let dy = to.latitude - from.latitude
        let dx = Coordinate.wrapLongitude(to.longitude - from.longitude) * cos(from.latitude * .pi / 180)
        let degrees = atan2(dx, dy) * 180 / .pi
        let sector = ((degrees + 360 + 22.5).truncatingRemainder(dividingBy: 360)) / 45
        guard sector.isFinite else { return distance }
        return tr(compassPoints[min(max(0, Int(saturating: sector)), 7)], distance)
    }

    /// A distance and the way to go, clockwise from north.
    private static let compassPoints: [StaticString] = [
        // TRANSLATORS: how far and which way a search result is from the view's centre: %@ is
        // a distance ("350 m"), the letters a compass point (N, NE, E, SE, S, SW, W, NW).
        N_("%@ N"), N_("%@ NE"), N_("%@ E"), N_("%@ SE"), N_("%@ S"), N_("%@ SW"), N_("%@ W"), N_("%@ NW"),
    ]

    /// What a row says of a result: what it is, where, how far ("street · Kluuvi, 350 m NE"),
    /// and whether it came from the geocoder ("online · cathedral").
    public static func detail(_ r: SearchResult, from: Coordinate?, imperial: Bool) -> String {
        // Online results say so first, where a cut row still shows it.
        // TRANSLATORS: a search result that an online geocoder found; %@ says what it is ("cathedral").
        let what = PlaceKinds.shown(r.what)
        var s = r.isOnline ? tr("online · %@", what) : what
        var place: [String] = []
        if let a = r.area, !a.isEmpty, a != r.name { place.append(a) }
        if let from, from.isValid, r.coordinate.isValid { place.append(distanceText(from: from, to: r.coordinate, imperial: imperial)) }
        if !place.isEmpty { s += " · " + place.joined(separator: ", ") }
        return s
    }
}
