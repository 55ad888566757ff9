import FoundationEssentials
import MapCore
import MapNetwork
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

    /// The routing databases kept beside saved areas (`AREA.pmtiles.routing`).
    static func savedAreaDatabases(environment env: [String: String]) -> [RoutinoDatabase] {
        let folder = SavedArea.folder(environment: env)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".pmtiles.routing") && !$0.hasPrefix(".") }.sorted().compactMap { name in
            if case let .success(db) = RoutinoDatabase.open(folder + "/" + name) { return db } else { return nil }
        }
    }

    /// The OpenStreetMap extracts sources.json names (`"type": "osm"`), and what is wrong there.
    static func sourcesExtracts(environment env: [String: String]) -> (paths: [String], problems: [String]) {
        let file = FileIO.userFolder("XDG_CONFIG_HOME", else: ".config", environment: env) + "/meridian/sources.json"
        guard FileIO.exists(file), let data = try? FileIO.read(file, limit: 1 << 20) else { return ([], []) }
        return OSMExtractEntries.read(data, file: file, home: FileIO.home(environment: env))
    }

    /// `progress` hears about database builds (they take seconds for a town, minutes for a country).
    /// `areas`: the user's standing data too: the saved areas' routing data and sources.json's extracts.
    static func make(osm: [String], offline: Bool, areas withAreas: Bool = true, environment env: [String: String] = ProcessInfo.processInfo.environment,
                     progress: (String) -> Void = { warn($0) }) -> Made {
        var made = offlineEngines(osm: osm, areas: withAreas, environment: env, progress: progress)
        if !offline {
            let online = onlineEngine(environment: env)
            made.problems += online.problems
            made.engines += online.engines
            made.online = online.online
        }
        return made
    }

    /// Routino over each extract and saved area's data (the extracts' databases built first
    /// where missing: slow).
    static func offlineEngines(osm: [String], areas withAreas: Bool, environment env: [String: String],
                               progress: (String) -> Void) -> Made {
        var made = Made()
        // Saved areas' routing data ("Directions offline too"), beside each area.
        let areas = withAreas ? savedAreaDatabases(environment: env) : []
        var osm = osm
        if withAreas {
            let listed = sourcesExtracts(environment: env)
            made.problems += listed.problems
            osm += listed.paths.filter { p in !osm.contains { FileIO.absolute($0) == p } }
        }
        if !osm.isEmpty || !areas.isEmpty {
            switch RoutinoPrograms.find(environment: env) {
            case let .failure(e): made.problems.append(e.description)
            case let .success(programs):
                let root = RoutinoDatabase.defaultCacheRoot(environment: env)
                for file in osm {
                    let path = FileIO.absolute(file)
                    if RoutinoDatabase.cachedIfCurrent(osm: path, cacheRoot: root, programs: programs) == nil {
                        // TRANSLATORS: %@ is the path of an OpenStreetMap extract.
                        progress(tr("building routing data for %@…", path))
                    }
                    switch RoutinoDatabase.cached(osm: path, cacheRoot: root, programs: programs, environment: env) {
                    case let .success((db, _)): made.engines.append(RoutinoEngine(database: db, programs: programs))
                    case let .failure(e): made.problems.append(e.description)
                    }
                }
                for db in areas {
                    guard db.version == programs.version() else {
                        // TRANSLATORS: %1$@ is a folder of routing data, %2$@ and %3$@ versions of Routino (the one that built it, the one installed), %4$@ a command to run (not to translate).
                        made.problems.append(tr("The directions of %1$@ were built by Routino %2$@, not %3$@: build them again with %4$@", db.directory, db.version,
                                                programs.version(), "meridian extract --update \(db.directory.dropLast(".routing".count)) --directions"))
                        continue
                    }
                    made.engines.append(RoutinoEngine(database: db, programs: programs))
                }
            }
        }
        return made
    }

    /// The online service routing.json names (none when it says `"enabled": false`).
    static func onlineEngine(environment env: [String: String]) -> Made {
        var made = Made()
        let (config, problem) = RoutingConfig.load(environment: env)
        if let problem { made.problems.append(problem) }
        if config.enabled {
            var options = HTTPClient.Options(userAgent: Meridian.userAgent)
            options.offline = Meridian.catalog.isOffline
            let engine = OSRMEngine(config: config, client: HTTPClient(options: options))
            made.engines.append(engine)
            made.online = engine
        }
        return made
    }
}
