import FoundationEssentials
import MapChrome
import MapCore
import MapGeometry

/// The online geocoder as the window and `meridian search` use it.
enum OnlineSearch {
    static let credit = "© OpenStreetMap contributors · Nominatim"

    typealias Ask = @Sendable (String, Coordinate?, @escaping @Sendable (Result<[SearchResult], SearchLayer.OnlineFailure>) -> Void) -> Void

    static func make(logFrames: Bool) -> Ask? { nil }
}
