import CSQLite
import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// Writes an MBTiles 1.3 file: metadata and tiles (rows in TMS order) in one transaction, the
/// index made at the end. What the basemap builder makes, and `meridian extract --out X.mbtiles`.
public final class MBTilesWriter {
    private let path: String
    private var db: OpaquePointer?
    private var insert: OpaquePointer?

    /// Creates `path`, replacing any file there.
    public init(path: String) throws {
        self.path = path
        unlink(path)
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw ExtractError.failed(tr("%@: cannot create", path)) }
        try exec("""
            PRAGMA page_size = 4096;
            CREATE TABLE metadata (name TEXT, value TEXT);
            CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
            BEGIN;
            """)
        guard sqlite3_prepare_v2(db, "INSERT INTO tiles VALUES (?, ?, ?, ?)", -1, &insert, nil) == SQLITE_OK else { throw failure() }
    }

    deinit {
        sqlite3_finalize(insert)
        sqlite3_close(db)
    }

    private func failure() -> ExtractError {
        let code = sqlite3_errcode(db), text = String(cString: sqlite3_errmsg(db))
        return code == SQLITE_FULL ? .diskFull(tr("%@: %@", path, text)) : .failed(tr("%@: %@", path, text))
    }

    private func exec(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw failure() }
    }

    public func metadata(_ name: String, _ value: String) throws {
        var st: OpaquePointer?
        sqlite3_prepare_v2(db, "INSERT INTO metadata VALUES (?, ?)", -1, &st, nil)
        defer { sqlite3_finalize(st) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        sqlite3_bind_text(st, 1, name, -1, transient)
        sqlite3_bind_text(st, 2, value, -1, transient)
        guard sqlite3_step(st) == SQLITE_DONE else { throw failure() }
    }

    public func tile(_ t: TileID, _ data: Data) throws {
        sqlite3_reset(insert)
        sqlite3_bind_int(insert, 1, Int32(t.z))
        sqlite3_bind_int(insert, 2, Int32(t.x))
        sqlite3_bind_int(insert, 3, Int32(t.tmsY))
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        _ = data.withUnsafeBytes { sqlite3_bind_blob(insert, 4, $0.baseAddress, Int32(data.count), transient) }
        guard sqlite3_step(insert) == SQLITE_DONE else { throw failure() }
    }

    /// Commits, indexes and compacts the file; `vacuum` is for files shipped (the basemap).
    public func finish(vacuum: Bool = false) throws {
        sqlite3_finalize(insert)
        insert = nil
        try exec("COMMIT; CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);" + (vacuum ? " VACUUM;" : ""))
        guard sqlite3_close(db) == SQLITE_OK else { throw failure() }
        db = nil
    }
}
