import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import Platform

/// Builds a street map's search index from its tiles: each tile of the deepest zoom is read
/// (`TileNames`) and its names staged in the index file, a few dozen tiles per transaction
/// with the count done beside them, so that a build stopped anywhere resumes where it was.
/// Once every tile is read the rows are made (`NameFeatures`) and the full-text tables
/// written, in one transaction. Runs on a worker; `cancel()` stops it between tiles.
public final class NameIndexBuilder: @unchecked Sendable {
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
    }

    public struct Cancelled: Error {}

    /// Builds (or finishes) the index; `progress` hears the share done, 0…1, now and then.
    /// Returns at once when the index is already complete for this file.
    @discardableResult
    public func build(progress: (Double) -> Void = { _ in }) throws -> Outcome {
        let folder = String(file[..<(file.lastIndex(of: "/") ?? file.endIndex)])
        if let problem = FileIO.makeDirectories(folder) { throw SQLiteError(description: "\(folder): \(problem)") }
        var db = try SQLiteDatabase(path: file, writable: true)
        if try NameIndex.meta(db, "identity") != archive.identity || NameIndex.meta(db, "schema") != NameIndex.schema {
            // Another file, or another version of it, or of us: start again.
            db = try restart(db)
        }
        if try NameIndex.meta(db, "complete") == "1" { return Outcome(tilesRead: 0, broken: [], features: 0) }
        let total = archive.tiles.count
        var done = min(max(0, Int(try NameIndex.meta(db, "done") ?? "0") ?? 0), total)
        let start = done
        var broken: [String] = []
        while done < total {
            if cancelled.get() == true { throw Cancelled() }
            let batch = archive.tiles[done..<min(done + self.batch, total)]
            try db.exec("BEGIN")
            do {
                for tile in batch {
                    do {
                        guard let bytes = try archive.read(tile) else { continue }
                        try stage(TileNames(try MVTDecoder.decode(bytes), tile: tile), into: db)
                    } catch let e as SQLiteError {
                        throw e
                    } catch {
                        // A broken tile costs its own names, not the index.
                        if broken.count < 20 { broken.append("tile \(tile): \(error)") }
                    }
                }
                done += batch.count
                try db.run("INSERT OR REPLACE INTO meta VALUES ('done', ?)", [.text(String(done))])
                try db.exec("COMMIT")
            } catch {
                try? db.exec("ROLLBACK")
                throw error
            }
            progress(0.9 * Double(done) / Double(max(total, 1)))
        }
        if cancelled.get() == true { throw Cancelled() }
        let count = try finish(db)
        progress(1)
        return Outcome(tilesRead: done - start, broken: broken, features: count)
    }

    private func restart(_ db: SQLiteDatabase) throws -> SQLiteDatabase {
        unlink(file)
        unlink(file + "-journal")
        unlink(file + "-wal")
        let db = try SQLiteDatabase(path: file, writable: true)
        try db.exec("""
            PRAGMA journal_mode = DELETE;
            CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
            CREATE TABLE staged_segments(name TEXT, others TEXT, kind TEXT, points BLOB);
            CREATE TABLE staged_points(name TEXT, others TEXT, category INTEGER, what TEXT, lat REAL, lon REAL);
            CREATE TABLE staged_numbers(number TEXT, lat REAL, lon REAL);
            """)
        for (k, v) in [("schema", NameIndex.schema), ("identity", archive.identity), ("path", archive.path),
                       ("title", archive.title), ("tiles", String(archive.tiles.count)), ("done", "0")] {
            try db.run("INSERT INTO meta VALUES (?, ?)", [.text(k), .text(v)])
        }
        return db
    }

    private func stage(_ names: TileNames, into db: SQLiteDatabase) throws {
        for s in names.segments {
            try db.run("INSERT INTO staged_segments VALUES (?, ?, ?, ?)",
                       [.text(s.names.name), .text(NameIndex.joinOthers(s.names.others)), .text(s.kind), .blob(LineCoding.encode([s.points]))])
        }
        for p in names.points {
            try db.run("INSERT INTO staged_points VALUES (?, ?, ?, ?, ?, ?)",
                       [.text(p.names.name), .text(NameIndex.joinOthers(p.names.others)), .int(Int64(p.category.rawValue)), .text(p.what),
                        .real(p.coordinate.latitude), .real(p.coordinate.longitude)])
        }
        for n in names.houseNumbers {
            try db.run("INSERT INTO staged_numbers VALUES (?, ?, ?)", [.text(n.number), .real(n.coordinate.latitude), .real(n.coordinate.longitude)])
        }
    }

    /// The rows and the full-text tables, from what the tiles staged; then the staging goes.
    private func finish(_ db: SQLiteDatabase) throws -> Int {
        let segments = try db.rows("SELECT name, others, kind, points FROM staged_segments") { st -> TileNames.Segment? in
            guard let points = LineCoding.decode(SQLiteDatabase.blob(st, 3)).first else { return nil }
            return TileNames.Segment(names: TileNames.Names(name: SQLiteDatabase.text(st, 0), others: NameIndex.splitOthers(SQLiteDatabase.text(st, 1))),
                                     kind: SQLiteDatabase.text(st, 2), points: points)
        }.compactMap { $0 }
        let points = try db.rows("SELECT name, others, category, what, lat, lon FROM staged_points") { st -> TileNames.Point? in
            let c = Coordinate(latitude: SQLiteDatabase.real(st, 4), longitude: SQLiteDatabase.real(st, 5))
            guard c.isValid, let category = SearchResult.Category(rawValue: Int(clamping: SQLiteDatabase.int(st, 2))) else { return nil }
            return TileNames.Point(names: TileNames.Names(name: SQLiteDatabase.text(st, 0), others: NameIndex.splitOthers(SQLiteDatabase.text(st, 1))),
                                   category: category, what: SQLiteDatabase.text(st, 3), coordinate: c)
        }.compactMap { $0 }
        let numbers = try db.rows("SELECT number, lat, lon FROM staged_numbers") { st -> TileNames.HouseNumber? in
            let c = Coordinate(latitude: SQLiteDatabase.real(st, 1), longitude: SQLiteDatabase.real(st, 2))
            return c.isValid ? TileNames.HouseNumber(number: SQLiteDatabase.text(st, 0), coordinate: c) : nil
        }.compactMap { $0 }
        let features = NameFeatures.make(segments: segments, points: points, numbers: numbers)
        try db.exec("BEGIN")
        do {
            try db.exec("""
                DROP TABLE IF EXISTS features; DROP TABLE IF EXISTS names; DROP TABLE IF EXISTS inside;
                CREATE TABLE features(id INTEGER PRIMARY KEY, name TEXT, others TEXT, category INTEGER, what TEXT, area TEXT,
                                      lat INTEGER, lon INTEGER, south INTEGER, west INTEGER, north INTEGER, east INTEGER, line BLOB);
                CREATE INDEX features_where ON features(category, lat);
                CREATE VIRTUAL TABLE names USING fts5(key, others, content='', tokenize='unicode61 remove_diacritics 2', prefix='1 2 3');
                CREATE VIRTUAL TABLE inside USING fts5(key, content='', tokenize='trigram');
                """)
            for (i, f) in features.enumerated() {
                let id = Int64(i + 1), b = f.bounds
                try db.run("INSERT INTO features VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           [.int(id), .text(f.names.name), .text(NameIndex.joinOthers(f.names.others)), .int(Int64(f.category.rawValue)),
                            .text(f.what), f.area.map { .text($0) } ?? .null, e7(f.coordinate.latitude), e7(f.coordinate.longitude)]
                           // A street's extent, for what-is-here; a point's is itself.
                           + (f.line.isEmpty ? [.null, .null, .null, .null] : [e7(b.south), e7(b.west), e7(b.north), e7(b.east)])
                           + [f.line.isEmpty ? .null : .blob(LineCoding.encode(f.line))])
                let key = SearchText.key(f.names.name)
                try db.run("INSERT INTO names(rowid, key, others) VALUES (?, ?, ?)",
                           [.int(id), .text(key), .text(f.names.others.map(SearchText.key).joined(separator: " "))])
                try db.run("INSERT INTO inside(rowid, key) VALUES (?, ?)", [.int(id), .text(key)])
            }
            try db.exec("""
                DROP TABLE staged_segments; DROP TABLE staged_points; DROP TABLE staged_numbers;
                INSERT INTO names(names) VALUES ('optimize'); INSERT INTO inside(inside) VALUES ('optimize');
                """)
            try db.run("INSERT OR REPLACE INTO meta VALUES ('features', ?)", [.text(String(features.count))])
            try db.run("INSERT OR REPLACE INTO meta VALUES ('complete', '1')")
            try db.exec("COMMIT")
        } catch {
            try? db.exec("ROLLBACK")
            throw error
        }
        // The staging's pages back to the disk.
        try? db.exec("VACUUM")
        return features.count
    }
}

/// Degrees as whole 1e-7 degrees (a centimetre): four bytes in SQLite where a REAL takes eight.
/// Only valid coordinates reach here (|degrees| ≤ 180 fits an Int32 at this scale).
func e7(_ degrees: Double) -> SQLiteDatabase.Value { .int(Int64((degrees * 1e7).rounded())) }

/// A street's line as stored: for each piece its point count (u32), then latitude and
/// longitude in 1e-7 degrees (i32), little-endian. Read back with every length checked.
enum LineCoding {
    static func encode(_ pieces: [[Coordinate]]) -> Data {
        var out = Data()
        func put<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        for piece in pieces {
            put(UInt32(piece.count))
            for c in piece {
                put(Int32((c.latitude * 1e7).rounded()))
                put(Int32((c.longitude * 1e7).rounded()))
            }
        }
        return out
    }

    static func decode(_ data: Data) -> [[Coordinate]] {
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
            if piece.allSatisfy(\.isValid) { out.append(piece) }
        }
        return out
    }
}
