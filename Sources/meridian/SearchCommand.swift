import ArgumentParser
import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapSearch
import MapTiles
import MeridianKit
import Platform

/// `meridian search`: what the search box finds, printed, for scripts.
struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: tr("Find places, streets, addresses and points of interest, as the search box does."),
        discussion: tr("Offline, from the built-in places and the names in street maps: the file given with --tiles and every saved area (each is indexed the first time, then kept under ~/.cache/meridian/search). With --online the geocoder named in ~/.config/meridian/geocoder.json (by default OpenStreetMap's Nominatim, at most one request a second) is asked too. Results are ranked by how well the name matches, what it is, and how near it is to --near."))

    @Argument(help: ArgumentHelp(tr("What to find.")))
    var query: String

    @Option(name: .long, help: ArgumentHelp(tr("Rank by nearness to this point."), valueName: "LAT,LON"))
    var near: String?

    @Option(name: .long, help: ArgumentHelp(tr("The zoom of a view at --near: at 5 or less (a continent) a place's kind and size outweigh its nearness, at 10 or more (a city) nearness counts in full; without it, as at a street."), valueName: "Z"))
    var zoom: Double?

    @Option(name: .long, help: ArgumentHelp(tr("A street map file to search too (.mbtiles or .pmtiles)."), valueName: "FILE"))
    var tiles: [String] = []

    @Flag(name: .long, help: ArgumentHelp(tr("Ask the online geocoder too.")))
    var online = false

    @Flag(name: .long, help: ArgumentHelp(tr("Print JSON.")))
    var json = false

    @Option(name: .long, help: ArgumentHelp(tr("How many results.")))
    var limit = 10

    func run() throws {
        var center: Coordinate?
        if let near {
            guard let c = Coordinate(parsing: near) else { throw ValidationError(tr("--near %@: LAT,LON in degrees", near)) }
            center = c
        }
        if let z = zoom, !(z.isFinite && z >= Camera.minZoom && z <= Camera.maxZoom) {
            throw ValidationError(tr("--zoom must be between %d and %d, got %@", Int(saturating: Camera.minZoom), Int(saturating: Camera.maxZoom), z))
        }
        guard (1...100).contains(limit) else { throw ValidationError(tr("--limit: 1 to 100")) }
        for t in tiles where !SearchIndexes.isIndexable(t) {
            throw ValidationError(tr("--tiles %@: not a local .mbtiles or .pmtiles file", t))
        }
        let places = Resources.places()
        if places == nil { warn(tr("the built-in places (places.tsv) cannot be read")) }
        let indexes = try Self.indexes(for: tiles + SearchIndexes.savedAreas())
        var results = StreetSearch(places: places, indexes: indexes).search(query, near: center, zoom: zoom, limit: limit)
        if online {
            switch OnlineSearch.askAndWait(query, near: center) {
            case let .success(found): results = SearchRanking.merge([results, found], near: center, zoom: zoom, limit: limit)
            case let .failure(problem): warn(problem.description)
            }
        }
        if json {
            print(Self.json(results, near: center))
        } else if results.isEmpty {
            warn(tr("nothing found for \"%@\"", query))
        } else {
            for r in results {
                print(r.name + "\t" + SearchRanking.detail(r, from: center, imperial: false) + "\t" + r.coordinate.description)
            }
            let credits = Set(results.compactMap { if case let .online(c) = $0.origin { return c } else { return nil } })
            // TRANSLATORS: %@ is the geocoder's credit (© OpenStreetMap contributors).
            for c in credits.sorted() { print(tr("online results: %@", c)) }
        }
    }

    /// The indexes of `paths`, built first where missing (progress on stderr).
    static func indexes(for paths: [String]) throws -> [NameIndex] {
        let folder = NameIndex.folder(environment: ProcessInfo.processInfo.environment)
        var out: [NameIndex] = []
        for path in paths.map(FileIO.absolute) {
            if let ready = NameIndex.open(path: path, folder: folder) { out.append(ready); continue }
            do {
                let archive = try NameArchive(path: path)
                var last = -10
                let outcome = try NameIndexBuilder(archive: archive, folder: folder).build { share in
                    let percent = Int(saturating: share * 100)
                    // TRANSLATORS: %1$@ is the street map's title, %2$d a percentage done.
                    if percent >= last + 10 { last = percent; warn(tr("Indexing %1$@… %2$d %%", archive.title, percent)) }
                }
                if !outcome.broken.isEmpty {
                    // English says "tile(s)", as it always has.
                    // TRANSLATORS: %2$@ is the file; %3$@ what is wrong with the first broken tile.
                    warn(trn("%2$@: %1$d broken tile(s) skipped (%3$@)", "%2$@: %1$d broken tile(s) skipped (%3$@)", outcome.broken.count, path, outcome.broken[0]))
                }
                if let ready = NameIndex.open(archive, folder: folder) { out.append(ready) }
            } catch {
                warn(tr("cannot search %@: %@", path, error))
            }
        }
        return out
    }

    static func json(_ results: [SearchResult], near: Coordinate?) -> String {
        let rows: [JSONValue] = results.map { r in
            var o: [String: JSONValue] = [
                "name": .string(r.name), "category": .string(r.category.name), "what": .string(r.what),
                "lat": .number(r.coordinate.latitude), "lon": .number(r.coordinate.longitude), "zoom": .number(r.zoom),
                "detail": .string(SearchRanking.detail(r, from: near, imperial: false)),
            ]
            if let a = r.area { o["area"] = .string(a) }
            switch r.origin {
            case .builtIn: o["origin"] = .string("built-in")
            case let .offline(map): o["origin"] = .string("offline"); o["map"] = .string(map)
            case let .online(credit): o["origin"] = .string("online"); o["credit"] = .string(credit)
            }
            if let near {
                o["distance_m"] = .number(TrackStatistics.distance(near.latitude, near.longitude, r.coordinate.latitude, r.coordinate.longitude).rounded())
            }
            if !r.line.isEmpty {
                o["line"] = .array(r.line.map { part in .array(part.map { .array([.number($0.longitude), .number($0.latitude)]) }) })
            }
            return .object(o)
        }
        guard let data = try? JSONEncoder().encode(JSONValue.array(rows)) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }
}
