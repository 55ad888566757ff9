import FoundationEssentials
import MapChrome
import MapCore
import MapGeometry
import MapNetwork
import MapSearch
import MapTiles
import Platform

/// The online geocoder as the window and `meridian search` use it: the one named in
/// geocoder.json (else Nominatim's public instance), with the app's User-Agent, its answers
/// cached under $XDG_CACHE_HOME/meridian/geocoder. One per process: its pace is the process's.
enum OnlineSearch {
    /// The geocoder, nil when configured off; `problem` says what is wrong with the file.
    static func geocoder(environment env: [String: String] = ProcessInfo.processInfo.environment) -> (Geocoder?, problem: String?) {
        let (config, problem) = GeocoderConfig.load(environment: env)
        guard config.enabled else { return (nil, problem) }
        let options = Geocoder.Options(cacheDirectory: Geocoder.defaultCacheDirectory(environment: env), language: GeocoderConfig.language(environment: env))
        var client = HTTPClient.Options(userAgent: Meridian.userAgent)
        client.offline = Meridian.catalog.isOffline
        return (Geocoder(config: config, client: HTTPClient(options: client), options: options), problem)
    }

    /// What the search box's Enter asks: `deliver` hears the geocoder's answer, or what went
    /// wrong in words a person reads (a replaced search, that it was replaced).
    static func search(_ geocoder: Geocoder, _ query: String, near: Coordinate?, log: Bool,
                       deliver: @escaping @Sendable (Result<[SearchResult], SearchLayer.OnlineFailure>) -> Void) {
        if log { FileIO.printError("search: asking online for \"\(query)\"") }
        geocoder.search(query, near: near) { outcome in
            switch outcome {
            case let .success(answer):
                if log { FileIO.printError("search: online answered \(answer.count) for \"\(query)\"") }
                // Ranked as offline results are, by how well the name matches what was typed
                // (the service's own order breaks ties): an exact online hit is not put below
                // letters found inside an offline name.
                let key = SearchText.key(query)
                let results = answer.map { r -> SearchResult in
                    var r = r
                    r.match = (SearchRanking.match(query: key, name: SearchText.key(r.name)) ?? 2) + r.match / 100
                    return r
                }
                deliver(.success(results))
            case .failure(.superseded):
                // A newer question took its place (W, or another Enter): the box stops waiting.
                deliver(.failure(SearchLayer.OnlineFailure("", superseded: true)))
            case let .failure(e):
                if log { FileIO.printError("search: online failed for \"\(query)\": \(e)") }
                deliver(.failure(SearchLayer.OnlineFailure(sentence(e.description), offline: e.isOffline)))
            }
        }
    }

    /// "the geocoder is busy…" → "The geocoder is busy…".
    static func sentence(_ s: String) -> String { s.prefix(1).uppercased() + s.dropFirst() }

    /// `meridian search --online`: the answer, waited for.
    static func askAndWait(_ query: String, near: Coordinate?) -> Result<[SearchResult], TileSourceError> {
        let (found, problem) = geocoder()
        if let problem { warn(problem) }
        // TRANSLATORS: geocoder.json is a file's name and "enabled": false what it says: not to translate.
        guard let geocoder = found else { return .failure(TileSourceError(tr("online search is off (geocoder.json says \"enabled\": false)"))) }
        let answer = LockedValue<Result<[SearchResult], GeocoderError>>()
        let done = Condition()
        geocoder.search(query, near: near) { outcome in
            done.lock()
            answer.set(outcome)
            done.broadcast()
            done.unlock()
        }
        done.lock()
        while answer.get() == nil { done.wait() }
        done.unlock()
        geocoder.stop()
        switch answer.get() {
        case let .success(results)?: return .success(results)
        // TRANSLATORS: what went wrong asking the online geocoder (`meridian search --online`).
        case let .failure(e)?: return .failure(TileSourceError(tr("online: %@", e)))
        case nil: return .failure(TileSourceError(tr("online: no answer")))
        }
    }
}
