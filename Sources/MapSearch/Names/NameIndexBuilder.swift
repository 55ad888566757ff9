import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapTiles
import Platform

/// Builds a street map's search index from its tiles. Each tile of the deepest zoom is read
/// (`TileNames`): its street pieces, named points and addresses (house numbers joined to the
/// tile's streets) are staged in a file beside the index (`.part`), a few dozen tiles per
/// transaction with the count done, so that a build stopped anywhere resumes where it was.
/// Once every tile is read, the index is written into a new file from the staging, streamed
/// (a street's pieces are merged name by name: memory holds one name's pieces, not a city's),
/// and renamed into place; then the staging goes. Runs on a worker; `cancel()` stops it
/// at the next batch of tiles (what the batch staged is kept), or while the rows are written
/// (written again from the staging next time).
public final class NameIndexBuilder: @unchecked Sendable { // immutable but `cancelled`, a ThreadFlag
    public let archive: NameArchive
    public let file: String
    private let cancelled = LockedValue<Bool>()

    /// Tiles per transaction: the most a stop loses.
    let batch: Int

    public init(archive: NameArchive, folder: String, batch: Int = 32) {
        self.archive = archive
        self.batch = max(1, batch)
        file = NameIndex.file(for: archive.path, in: folder)
    }

    public func cancel() { cancelled.set(true) }

    public struct Outcome: Sendable {
        /// Tiles read in this run (a resumed build reads only the rest).
        public var tilesRead: Int
        /// Tiles that could not be read or decoded (skipped, and said).
        public var broken: [String]
        public var features: Int
        /// Whether any tile read (in this run or a stopped one before it) was of a schema
        /// `TileNames` reads: when none was, a map without rows has names of another kind.
        public var readsSchema: Bool
    }

    public struct Cancelled: Error {}

    /// Another process (a second window, `meridian search`) builds this index now.
    public struct Busy: Error, CustomStringConvertible {
        public var description: String { tr("its search index is being built by another Meridian") }
    }

    /// Builds (or finishes) the index; `progress` hears the share done, 0…1, now and then.
    /// Returns at once when the index is already complete for this file.
    @discardableResult
    public func build(progress: (Double) -> Void = { _ in }) throws -> Outcome {
        let folder = String(file[..<(file.lastIndex(of: "/") ?? file.endIndex)])
        // TRANSLATORS: a folder or file, and what is wrong with it.
        if let problem = FileIO.makeDirectories(folder) { throw SQLiteError(description: tr("%@: %@", folder, problem)) }
        // One builder per index on the machine: a lock file beside it, held while building.
        let lock = open(file + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw SQLiteError(description: tr("%@: %@", file + ".lock", FileIO.reason())) }
        defer { close(lock) }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else { throw Busy() }
        if NameIndex.open(path: archive.path, folder: folder) != nil { return Outcome(tilesRead: 0, broken: [], features: 0, readsSchema: true) }
        let staging = file + ".part"
        var db: SQLiteDatabase
        do {
            db = try SQLiteDatabase(path: staging, writable: true)
            if try NameIndex.meta(db, "identity") != archive.identity || NameIndex.meta(db, "schema") != NameIndex.schema {
                // Another file, or another version of it, or of us: start again.
                db = try restart(staging)
            }
        } catch {
            // A staging file that is not a database (a crash mid-write, a full disk): afresh.
            db = try restart(staging)
        }
        let total = archive.tiles.count
        var done = min(max(0, Int(try NameIndex.meta(db, "done") ?? "0") ?? 0), total)
        let start = done
        var broken: [String] = []
        var readsSchema = try NameIndex.meta(db, "tileschema") != nil
        while done < total {
            if cancelled.get() == true { throw Cancelled() }
            let batch = archive.tiles[done..<min(done + self.batch, total)]
            try db.exec("BEGIN")
            do {
                for tile in batch {
                    // A tile that cannot be read or decoded costs its own names, not the index;
                    // only writing the staging can fail the build.
                    let names: TileNames
                    do {
                        guard let bytes = try archive.read(tile) else { continue }
                        names = TileNames(try MVTDecoder.decode(bytes), tile: tile)
                    } catch {
                        // TRANSLATORS: %1$@ is a tile's z/x/y, %2$@ why it cannot be read.
                        if broken.count < 20 { broken.append(tr("tile %1$@: %2$@", tile, error)) }
                        continue
                    }
                    try stage(names, into: db)
                    if let schema = names.schema, !readsSchema {
                        try db.run("INSERT OR REPLACE INTO meta VALUES ('tileschema', ?)", [.text(schema.rawValue)])
                        readsSchema = true
                    }
                }
                done += batch.count
                try db.run("INSERT OR REPLACE INTO meta VALUES ('done', ?)", [.text(String(done))])
                try db.exec("COMMIT")
            } catch {
                try? db.exec("ROLLBACK")
                throw error
            }
            progress(0.8 * Double(done) / Double(max(total, 1)))
        }
        if cancelled.get() == true { throw Cancelled() }
        let count = try finish(from: db, progress: progress)
        unlink(staging)
        progress(1)
        return Outcome(tilesRead: done - start, broken: broken, features: count, readsSchema: readsSchema)
    }

    private func restart(_ staging: String) throws -> SQLiteDatabase {
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(staging + suffix) }
        let db = try SQLiteDatabase(path: staging, writable: true)
        try db.exec("""
            PRAGMA journal_mode = DELETE;
            CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
            CREATE TABLE staged_segments(name TEXT, others TEXT, kind TEXT, points BLOB);
            CREATE TABLE staged_points(name TEXT, others TEXT, category INTEGER, what TEXT, lat REAL, lon REAL);
            """)
        for (k, v) in [("schema", NameIndex.schema), ("identity", archive.identity), ("path", archive.path),
                       ("title", archive.title), ("tiles", String(archive.tiles.count)), ("done", "0")] {
            try db.run("INSERT INTO meta VALUES (?, ?)", [.text(k), .text(v)])
        }
        return db
    }

    /// A tile's names into the staging, as `NameFeatures.staged` gives them (house numbers
    /// joined to the tile's streets here, so that a city's streets need not be held at once).
    private func stage(_ names: TileNames, into db: SQLiteDatabase) throws {
        let (segments, points) = NameFeatures.staged(names)
        for s in segments {
            try db.run("INSERT INTO staged_segments VALUES (?, ?, ?, ?)",
                       [.text(s.names.name), .text(NameIndex.joinOthers(s.names.others)), .text(s.kind), .blob(LineCoding.encode([s.points]))])
        }
        for p in points {
            try db.run("INSERT INTO staged_points VALUES (?, ?, ?, ?, ?, ?)",
                       [.text(p.names.name), .text(NameIndex.joinOthers(p.names.others)), .int(Int64(p.category.rawValue)), .text(p.what),
                        .real(p.coordinate.latitude), .real(p.coordinate.longitude)])
        }
    }

    /// The index, written into a new file from the staging and renamed into place: rows by
    /// category (points before streets, streets, then the rest), each with its district, and
    /// the two full-text tables.
    private func finish(from staging: SQLiteDatabase, progress: (Double) -> Void) throws -> Int {
        let fresh = file + ".new"
        for suffix in ["", "-journal"] { unlink(fresh + suffix) }
        defer { unlink(fresh) }
        let out = try SQLiteDatabase(path: fresh, writable: true)
        try out.exec("""
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
            CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
            CREATE TABLE features(id INTEGER PRIMARY KEY, name TEXT, others TEXT, keys TEXT, category INTEGER, what TEXT, area TEXT,
                                  lat INTEGER, lon INTEGER, south INTEGER, west INTEGER, north INTEGER, east INTEGER, line BLOB);
            CREATE VIRTUAL TABLE names USING fts5(key, others, content='', tokenize='unicode61 remove_diacritics 2', prefix='1 2 3',
                                                  detail='none', columnsize=0);
            CREATE VIRTUAL TABLE inside USING fts5(key, content='', tokenize='trigram', columnsize=0);
            BEGIN;
            """)
        // (Word prefixes need no positions and no ranking needs column sizes: `detail='none'`
        // and `columnsize=0` keep only what is asked. Letters inside a word are a phrase of
        // trigrams, which needs positions.)
        // Districts and towns, for each row's "where": few enough to hold.
        let street = Int64(SearchResult.Category.street.rawValue)
        let places = try staging.rows("SELECT name, category, lat, lon FROM staged_points WHERE category BETWEEN ? AND ?",
                                      [.int(Int64(SearchResult.Category.city.rawValue)), .int(Int64(SearchResult.Category.neighbourhood.rawValue))]) { st in
            TileNames.Point(names: TileNames.Names(name: SQLiteDatabase.text(st, 0)),
                            category: SearchResult.Category(rawValue: Int(clamping: SQLiteDatabase.int(st, 1))) ?? .neighbourhood, what: "",
                            coordinate: Coordinate(latitude: SQLiteDatabase.real(st, 2), longitude: SQLiteDatabase.real(st, 3)))
        }.filter(\.coordinate.isValid)
        let areas = AreaFinder(places)
        var count = 0
        func insert(_ f: NameFeature) throws {
            var f = f
            if f.category >= .suburb { f.area = areas.area(of: f.coordinate, except: f.names.name, townOnly: f.category <= .neighbourhood) }
            count += 1
            // Writing a city's rows takes a while: a stop is heard (the staging stays).
            if count % 4096 == 0, cancelled.get() == true { throw Cancelled() }
            let id = Int64(count), b = f.bounds
            let key = SearchText.key(f.names.name), otherKeys = f.names.others.map { SearchText.key(TileNames.value(of: $0)) }
            try out.run("INSERT INTO features VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        [.int(id), .text(f.names.name), .text(NameIndex.joinOthers(f.names.others)), .text(NameIndex.joinOthers([key] + otherKeys)),
                         .int(Int64(f.category.rawValue)), .text(f.what), f.area.map { .text($0) } ?? .null,
                         e7(f.coordinate.latitude), e7(f.coordinate.longitude)]
                        // A street's extent, for what-is-here; a point's is itself.
                        + (f.line.isEmpty ? [.null, .null, .null, .null] : [e7(b.south), e7(b.west), e7(b.north), e7(b.east)])
                        + [f.line.isEmpty ? .null : .blob(LineCoding.encode(f.line))])
            // Beside its other names, the cell it lies in, as a word no name has: "near the
            // view" is then one more word of the query, which FTS5 answers from its lists.
            try out.run("INSERT INTO names(rowid, key, others) VALUES (?, ?, ?)",
                        [.int(id), .text(key), .text((otherKeys + [NameIndex.cellWord(f.coordinate)]).joined(separator: " "))])
            try out.run("INSERT INTO inside(rowid, key) VALUES (?, ?)", [.int(id), .text(key)])
        }
        // The same point twice (a node and an area's centre, a tile's edge): once.
        func points(_ condition: String) throws {
            try staging.forEach("""
                SELECT name, others, category, what, min(lat), min(lon) FROM staged_points WHERE \(condition)
                GROUP BY name, category, CAST(lat * 2000 AS INTEGER), CAST(lon * 1000 AS INTEGER) ORDER BY category, rowid
                """, [.int(street)]) { st in
                let c = Coordinate(latitude: SQLiteDatabase.real(st, 4), longitude: SQLiteDatabase.real(st, 5))
                guard c.isValid, let category = SearchResult.Category(rawValue: Int(clamping: SQLiteDatabase.int(st, 2))) else { return }
                try insert(NameFeature(names: TileNames.Names(name: SQLiteDatabase.text(st, 0), others: NameIndex.splitOthers(SQLiteDatabase.text(st, 1))),
                                       category: category, what: SQLiteDatabase.text(st, 3), area: nil, coordinate: c, line: []))
            }
        }
        try points("category < ?")
        progress(0.85)
        // Streets, one name at a time.
        var name: String?, pieces: [TileNames.Segment] = []
        func flush() throws {
            for street in NameFeatures.mergeStreets(pieces) { try insert(street) }
            pieces.removeAll(keepingCapacity: true)
        }
        try staging.forEach("SELECT name, others, kind, points FROM staged_segments ORDER BY name") { st in
            let n = SQLiteDatabase.text(st, 0)
            if n != name { try flush(); name = n }
            guard let points = LineCoding.decode(SQLiteDatabase.blob(st, 3)).first else { return }
            pieces.append(TileNames.Segment(names: TileNames.Names(name: n, others: NameIndex.splitOthers(SQLiteDatabase.text(st, 1))),
                                            kind: SQLiteDatabase.text(st, 2), points: points))
        }
        try flush()
        progress(0.95)
        try points("category > ?")
        let meta: [(String, String)] = [("schema", NameIndex.schema), ("identity", archive.identity), ("path", archive.path),
                                        ("title", archive.title), ("features", String(count)), ("complete", "1")]
        for (k, v) in meta { try out.run("INSERT INTO meta VALUES (?, ?)", [.text(k), .text(v)]) }
        try out.exec("""
            CREATE INDEX features_where ON features(category, lat);
            INSERT INTO names(names) VALUES ('optimize'); INSERT INTO inside(inside) VALUES ('optimize');
            COMMIT;
            """)
        // Whole on disk before it takes the index's name (journal off: the rename is the commit).
        try out.exec("PRAGMA journal_mode = DELETE")
        guard fsyncFile(fresh), rename(fresh, file) == 0 else {
            // TRANSLATORS: %1$@ is the search index's file, %2$@ the system's reason.
            throw SQLiteError(description: tr("%1$@: cannot put the index in place: %2$@", file, FileIO.reason()))
        }
        return count
    }

    private func fsyncFile(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return fsync(fd) == 0
    }
}

/// Degrees as whole 1e-7 degrees (a centimetre): four bytes in SQLite where a REAL takes eight.
/// Only valid coordinates reach here (|degrees| ≤ 180 fits an Int32 at this scale).
func e7(_ degrees: Double) -> SQLiteDatabase.Value { .int(Int64(saturating: (degrees * 1e7).rounded())) }

/// A street's line as stored: for each piece its point count (u32), then latitude and
/// longitude in 1e-7 degrees (i32), little-endian. Read back with every length checked.
public enum LineCoding {
    public static func encode(_ pieces: [[Coordinate]]) -> Data {
        var out = Data()
        func put<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        for piece in pieces {
            put(UInt32(piece.count))
            for c in piece {
                put(Int32(saturating: (c.latitude * 1e7).rounded()))
                put(Int32(saturating: (c.longitude * 1e7).rounded()))
            }
        }
        return out
    }

    public static func decode(_ data: Data) -> [[Coordinate]] {
        let b = [UInt8](data)
        var at = 0
        func u32() -> UInt32? {
            guard at + 4 <= b.count else { return nil }
            defer { at += 4 }
            return UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
        }
        var out: [[Coordinate]] = []
        while let n = u32() {
            guard Int(n) <= (b.count - at) / 8 else { return out }
            var piece: [Coordinate] = []
            piece.reserveCapacity(Int(n))
            for _ in 0..<n {
                guard let lat = u32(), let lon = u32() else { return out }
                piece.append(Coordinate(latitude: Double(Int32(bitPattern: lat)) / 1e7, longitude: Double(Int32(bitPattern: lon)) / 1e7))
            }
            // A line of fewer than two points is none (a damaged file's).
            if piece.count >= 2, piece.allSatisfy(\.isValid) { out.append(piece) }
        }
        return out
    }
}
