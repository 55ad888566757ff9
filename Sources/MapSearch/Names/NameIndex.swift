import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapTiles
import Platform

/// A street map's search index (built by `NameIndexBuilder`): every name its tiles hold, in
/// SQLite FTS5 — word prefixes (`names`, diacritics folded by `SearchText.key`) and letters
/// inside words (`inside`, trigrams) — beside a table of what each name is and where. Kept
/// under `$XDG_CACHE_HOME/meridian/search/`, one file per map file (by its path), holding the
/// map file's identity: a changed file is indexed again.
public final class NameIndex: PlaceSearching, @unchecked Sendable { // immutable; its databases lock each call
    public let path: String
    public let title: String
    public let features: Int
    /// The identity of the map file it was built from (`NameArchive.identity`).
    public let identity: String
    private let db: SQLiteDatabase
    /// What-is-here asks on its own connection, so that a lookup on a worker never holds up
    /// a keystroke's search on the frame's thread.
    private let lookups: SQLiteDatabase

    /// Bumped when what the file holds changes: older indexes are built again (7: Protomaps
    /// tiles are read, whose earlier indexes are empty).
    static let schema = "7"

    /// `$XDG_CACHE_HOME/meridian/search`, else `~/.cache/meridian/search`.
    public static func folder(environment env: [String: String]) -> String {
        FileIO.userFolder("XDG_CACHE_HOME", else: ".cache", environment: env) + "/meridian/search"
    }

    /// The index file of the map file at `path` (by its absolute path's hash: FNV-1a).
    public static func file(for path: String, in folder: String) -> String {
        let hash = FNV1a.hash(path)
        let name = path.split(separator: "/").last.map { String($0.prefix(40).map { $0.isLetter || $0.isNumber ? $0 : "-" }) } ?? "map"
        return folder + "/" + name + "-" + String(hash, radix: 16) + ".sqlite"
    }

    /// The complete index of `archive` in `folder`, nil when there is none yet (or it is
    /// of another version of the file).
    public static func open(_ archive: NameArchive, folder: String) -> NameIndex? { open(path: archive.path, folder: folder) }

    /// The complete index of the map file at `path`, when it is of the file as it is now:
    /// found without reading the map (a window's start opens every saved area's index).
    public static func open(path: String, folder: String) -> NameIndex? {
        let file = file(for: path, in: folder)
        guard let identity = NameArchive.identity(of: path), FileIO.exists(file), let db = try? SQLiteDatabase(readOnly: file),
              (try? meta(db, "complete")) == "1", (try? meta(db, "identity")) == identity,
              (try? meta(db, "schema")) == schema else { return nil }
        let title = (try? meta(db, "title")).flatMap { $0 } ?? path
        guard let lookups = try? SQLiteDatabase(readOnly: file) else { return nil }
        return NameIndex(db: db, lookups: lookups, path: path, title: title, identity: identity)
    }

    private init(db: SQLiteDatabase, lookups: SQLiteDatabase, path: String, title: String, identity: String) {
        self.db = db
        self.lookups = lookups
        self.path = path
        self.title = title
        self.identity = identity
        features = (try? Self.meta(db, "features")).flatMap { $0.flatMap { Int($0) } } ?? 0
    }

    static func meta(_ db: SQLiteDatabase, _ key: String) throws -> String? {
        let has = try db.rows("SELECT 1 FROM sqlite_master WHERE name = 'meta'") { _ in true }
        guard !has.isEmpty else { return nil }
        return try db.rows("SELECT value FROM meta WHERE key = ?", [.text(key)]) { SQLiteDatabase.text($0, 0) }.first
    }

    /// Cells of 0.02° of latitude by 0.04° of longitude (about 2 km at 60°): a row's cell is a
    /// word of its full-text row ("qqc4508y5624x"; no name has such a word), so that "near
    /// the view" is asked as the nine cells around it.
    static let cellHeight = 0.02, cellWidth = 0.04

    static func cellWord(_ c: Coordinate, _ dy: Int = 0, _ dx: Int = 0) -> String {
        // Whole cells from the south-west corner of the world: never negative.
        let y = Int(saturating: (c.latitude + 90) / cellHeight) + dy, x = (Int(saturating: (c.longitude + 180) / cellWidth) + dx + 9000) % 9000
        return "qqc\(y)y\(x)x"
    }

    static func cellWords(around c: Coordinate) -> [String] {
        (-1...1).flatMap { dy in (-1...1).map { dx in cellWord(c, dy, dx) } }
    }

    /// Other names stored in one column, apart by a character no name holds.
    static func joinOthers(_ others: [String]) -> String { others.joined(separator: "\u{1F}") }
    static func splitOthers(_ s: String) -> [String] { s.isEmpty ? [] : s.split(separator: "\u{1F}").map(String.init) }

    // MARK: - Searching

    /// Candidates looked at per query: the first ones by category (rows are numbered so).
    static let candidates = 160

    public func search(_ query: String, near: Coordinate?, zoom: Double?, limit: Int) -> [SearchResult] {
        let key = SearchText.key(query)
        let words = SearchText.words(key)
        guard !words.isEmpty, limit > 0 else { return [] }
        // Every word as a prefix of a word of the name (or of another name). CROSS JOIN keeps
        // the full-text match the outer loop: SQLite would otherwise walk every row of
        // `features` and ask the match of each (130 ms for one letter, against 1).
        let select = "SELECT \(Self.joinedColumns) FROM names CROSS JOIN features f ON f.id = names.rowid"
        var rows: [Row] = []
        var seen = Set<Int64>()
        func add(_ found: [Row]) { for r in found where seen.insert(r.id).inserted { rows.append(r) } }
        let prefixes = words.map { "\"\($0)\"*" }.joined(separator: " ")
        // The candidates are the first rows by category: in a large map "Broadway 1" or a
        // street near the view can lie past them. So the whole words are asked first, and
        // when the prefixes fill the candidates, those in the cells around the view too.
        // (Both are among the prefixes' matches: asked only when those are more than taken.)
        let byPrefix = (try? db.rows(select + " WHERE names MATCH ? LIMIT \(Self.candidates)", [.text(prefixes)], Self.row)) ?? []
        if byPrefix.count == Self.candidates {
            add((try? db.rows(select + " WHERE names MATCH ? LIMIT 60", [.text(words.map { "\"\($0)\"" }.joined(separator: " "))], Self.row)) ?? [])
            if let near, near.isValid {
                let cells = Self.cellWords(around: near).map { "\"\($0)\"" }.joined(separator: " OR ")
                add((try? db.rows(select + " WHERE names MATCH ? LIMIT 60", [.text(prefixes + " AND (" + cells + ")")], Self.row)) ?? [])
            }
        }
        add(byPrefix)
        // Letters inside a word ("katu" in Aleksanterinkatu), when words found too few.
        if rows.count < limit, key.count >= 3 {
            add((try? db.rows("""
                SELECT \(Self.joinedColumns) FROM inside CROSS JOIN features f ON f.id = inside.rowid
                WHERE inside MATCH ? LIMIT \(Self.candidates)
                """, [.text("\"\(key)\"")], Self.row)) ?? [])
        }
        // Scored here on the keys stored beside each row (folding hundreds of names per
        // keystroke cost milliseconds); the best few go on to be merged with other finders.
        var results: [(id: Int64, result: SearchResult, score: Double)] = []
        for row in rows {
            var r = row.result
            r.origin = .offline(title)
            let keys = row.keys
            let best = keys.first.flatMap { SearchRanking.match(query: key, name: $0) }
            let other = best == 6 ? nil : keys.dropFirst().lazy.compactMap { SearchRanking.match(query: key, name: $0, other: true) }.max()
            r.match = max(best ?? 0, other ?? 0, 1)
            results.append((row.id, r, SearchRanking.score(r, near: near, zoom: zoom)))
        }
        results.sort { $0.score > $1.score }
        let ranked = SearchRanking.merge([results.prefix(limit * 3).map(\.result)], near: near, zoom: zoom, limit: limit)
        // The chosen few get their lines (a street is drawn whole once chosen).
        return ranked.map { r in
            guard r.category == .street, let id = results.first(where: { $0.result == r })?.id else { return r }
            var r = r
            r.line = line(id)
            return r
        }
    }

    /// The columns `row` reads, in its order, and as named when joined to a full-text table.
    private static let columns = "id, name, keys, category, what, area, lat, lon, others"
    private static let joinedColumns = "f.id, f.name, f.keys, f.category, f.what, f.area, f.lat, f.lon, f.others"

    /// A row as read: its id, what it is, and the keys of its names (its own first).
    private struct Row { var id: Int64; var result: SearchResult; var keys: [String] }

    private static func row(_ st: OpaquePointer) -> Row {
        let c = Coordinate(latitude: Double(SQLiteDatabase.int(st, 6)) / 1e7, longitude: Double(SQLiteDatabase.int(st, 7)) / 1e7)
        let category = SearchResult.Category(rawValue: Int(clamping: SQLiteDatabase.int(st, 3))) ?? .other
        let area = SQLiteDatabase.isNull(st, 5) ? nil : SQLiteDatabase.text(st, 5)
        return Row(id: SQLiteDatabase.int(st, 0),
                   // Named in the reader's language where the map has it.
                   result: SearchResult(name: TileNames.name(in: Localization.languages, others: splitOthers(SQLiteDatabase.text(st, 8))) ?? SQLiteDatabase.text(st, 1), category: category, what: SQLiteDatabase.text(st, 4), area: area,
                                        coordinate: c.isValid ? c : Coordinate(latitude: 0, longitude: 0), origin: .builtIn),
                   keys: splitOthers(SQLiteDatabase.text(st, 2)))
    }

    func line(_ id: Int64, on connection: SQLiteDatabase? = nil) -> [[Coordinate]] {
        (try? (connection ?? db).rows("SELECT line FROM features WHERE id = ?", [.int(id)]) { LineCoding.decode(SQLiteDatabase.blob($0, 0)) })?.first ?? []
    }

    // MARK: - What is here

    /// What lies at `c`: the nearest address within `addressMetres`, else the nearest street
    /// within `streetMetres` (by its line); and the district or town around it.
    public func nearest(to c: Coordinate, addressMetres: Double = 40, streetMetres: Double = 80) -> (thing: SearchResult?, area: String?) {
        guard c.isValid else { return (nil, nil) }
        let dLat = streetMetres / 111_000, dLon = dLat / max(cos(c.latitude * .pi / 180), 0.01)
        let k = addressMetres / streetMetres
        // Points by where they are; streets by their extent.
        let near = ((try? lookups.rows("""
            SELECT \(Self.columns) FROM features
            WHERE category = ? AND lat BETWEEN ? AND ? AND lon BETWEEN ? AND ?
            """, [.int(Int64(SearchResult.Category.address.rawValue)), e7(c.latitude - dLat * k), e7(c.latitude + dLat * k),
                  e7(c.longitude - dLon * k), e7(c.longitude + dLon * k)], Self.row)) ?? [])
            .map { ($0, NameFeatures.flatDistance(c, $0.result.coordinate)) }.min { $0.1 < $1.1 }
        var thing: Row?
        if let near, near.1 <= addressMetres { thing = near.0 }
        if thing == nil {
            var best = streetMetres
            let streets = (try? lookups.rows("""
                SELECT \(Self.columns) FROM features
                WHERE category = ? AND north >= ? AND south <= ? AND east >= ? AND west <= ?
                """, [.int(Int64(SearchResult.Category.street.rawValue)), e7(c.latitude - dLat), e7(c.latitude + dLat),
                      e7(c.longitude - dLon), e7(c.longitude + dLon)], Self.row)) ?? []
            for r in streets {
                for part in line(r.id, on: lookups) where part.count >= 2 {
                    for i in 1..<part.count {
                        let d = NameFeatures.segmentDistance(c, part[i - 1], part[i])
                        if d < best { best = d; thing = r }
                    }
                }
            }
        }
        var result = thing?.result
        result?.origin = .offline(title)
        return (result, result?.area ?? nearestArea(c))
    }

    /// The map's districts and towns, read once (the first what-is-here that needs them),
    /// not at every lookup.
    private let areas = LockedValue<AreaFinder>()

    private func nearestArea(_ c: Coordinate) -> String? {
        if let finder = areas.get() { return finder.area(of: c, except: "") }
        let places = (try? lookups.rows("""
            SELECT \(Self.columns) FROM features WHERE category BETWEEN ? AND ?
            """, [.int(Int64(SearchResult.Category.city.rawValue)), .int(Int64(SearchResult.Category.neighbourhood.rawValue))], Self.row)) ?? []
        let finder = AreaFinder(places.map { TileNames.Point(names: TileNames.Names(name: $0.result.name), category: $0.result.category, what: "",
                                                             coordinate: $0.result.coordinate) })
        areas.set(finder)
        return finder.area(of: c, except: "")
    }
}
