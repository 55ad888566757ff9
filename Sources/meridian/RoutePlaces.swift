import FoundationEssentials
import MapCore
import MapGeometry
import MapSearch
import MapTiles
import MeridianKit
import Platform

/// The places a route goes through as typed on the command line (`meridian route`, the
/// window's `--route`): coordinates, else the offline search's first result for a name.
enum RoutePlaces {
    struct Problem: Error { let text: String }

    /// A place found: where, and what it was found as (nil: coordinates were typed).
    struct Place: Sendable {
        var coordinate: Coordinate
        var name: String?
    }

    /// `texts` as places, in order, or the first that is none; names are searched in the
    /// built-in places, the street maps `tiles` and the saved areas, read once for all of them
    /// and only when a name is given (what the search found is said on stderr).
    static func resolve(_ texts: [String], tiles: [String]) -> Result<[Place], Problem> {
        var search: StreetSearch?
        var places: [Place] = []
        for text in texts {
            switch resolve(text, search: &search, tiles: tiles) {
            case let .success(place): places.append(place)
            case let .failure(problem): return .failure(problem)
            }
        }
        return .success(places)
    }

    private static func resolve(_ text: String, search: inout StreetSearch?, tiles: [String]) -> Result<Place, Problem> {
        switch CoordinateParser.parse(text) {
        case let .success(place)?: return .success(Place(coordinate: place.coordinate))
        case let .failure(problem)?: return .failure(Problem(text: "\(text): \(problem)"))
        case nil: break
        }
        let searcher = search ?? StreetSearch(places: Resources.places(), indexes: (try? Search.indexes(for: tiles + SearchIndexes.savedAreas())) ?? [])
        search = searcher
        let found = searcher.search(text, near: nil, limit: 1)
        guard let first = found.first else { return .failure(Problem(text: tr("\"%@\": no place of that name is known offline (give coordinates, or --tiles FILE)", text))) }
        if let area = first.area {
            // TRANSLATORS: %1$@ is the name typed, %2$@ the place found, %3$@ the area it is in (a town, a map), %4$@ its coordinates.
            warn(tr("\"%1$@\": taking %2$@, %3$@ at %4$@", text, first.name, area, first.coordinate))
        } else {
            // TRANSLATORS: %1$@ is the name typed, %2$@ the place found, %3$@ its coordinates.
            warn(tr("\"%1$@\": taking %2$@ at %3$@", text, first.name, first.coordinate))
        }
        return .success(Place(coordinate: first.coordinate, name: first.name))
    }
}
