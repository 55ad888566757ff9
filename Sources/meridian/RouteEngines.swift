import FoundationEssentials
import MapCore
import MapRouting
import MapTiles
import Platform

/// The route engines the app offers: Routino over a database for each OpenStreetMap extract
/// it was given (built once, kept under the cache), then the online service of routing.json
/// unless `--offline`. Problems are said, not fatal: a missing Routino still leaves online
/// routing, a broken routing.json the default service.
enum RouteEngines {
    struct Made {
        var engines: [RouteEngine] = []
        var problems: [String] = []
        /// The online engine, if any (its requests are counted in tests and the bench).
        var online: OSRMEngine?
    }

    /// `progress` hears about database builds (they take seconds for a town, minutes for a country).
    static func make(osm: [String], offline: Bool, environment env: [String: String] = ProcessInfo.processInfo.environment,
                     progress: (String) -> Void = { warn($0) }) -> Made {
        var made = Made()
        if !osm.isEmpty {
            switch RoutinoPrograms.find(environment: env) {
            case let .failure(e): made.problems.append(e.description)
            case let .success(programs):
                let root = RoutinoDatabase.defaultCacheRoot(environment: env)
                for file in osm {
                    let path = SearchIndexes.absolute(file)
                    if RoutinoDatabase.cachedIfCurrent(osm: path, cacheRoot: root, programs: programs) == nil {
                        progress("building routing data for \(path)…")
                    }
                    switch RoutinoDatabase.cached(osm: path, cacheRoot: root, programs: programs, environment: env) {
                    case let .success((db, _)): made.engines.append(RoutinoEngine(database: db, programs: programs))
                    case let .failure(e): made.problems.append(e.description)
                    }
                }
            }
        }
        if !offline {
            let (config, problem) = RoutingConfig.load(environment: env)
            if let problem { made.problems.append(problem) }
            if config.enabled {
                let engine = OSRMEngine(config: config, client: HTTPClient(options: .init(userAgent: Meridian.userAgent)))
                made.engines.append(engine)
                made.online = engine
            }
        }
        return made
    }
}
