import CSQLite
import Foundation
import MapGeometry

/// Writes an MBTiles 1.3 file: metadata and tiles (rows in TMS order) in one transaction.
final class MBTilesWriter {
    private var db: OpaquePointer?
    private var insert: OpaquePointer?

    init(path: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw PN2Error(description: "\(path): cannot create") }
        try exec("""
            PRAGMA page_size = 4096;
            CREATE TABLE metadata (name TEXT, value TEXT);
            CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
            BEGIN;
            """)
        guard sqlite3_prepare_v2(db, "INSERT INTO tiles VALUES (?, ?, ?, ?)", -1, &insert, nil) == SQLITE_OK else {
            throw PN2Error(description: "prepare: \(String(cString: sqlite3_errmsg(db)))")
        }
    }

    func exec(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw PN2Error(description: "sqlite: \(String(cString: sqlite3_errmsg(db)))")
        }
    }

    func metadata(_ name: String, _ value: String) throws {
        var st: OpaquePointer?
        sqlite3_prepare_v2(db, "INSERT INTO metadata VALUES (?, ?)", -1, &st, nil)
        defer { sqlite3_finalize(st) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        sqlite3_bind_text(st, 1, name, -1, transient)
        sqlite3_bind_text(st, 2, value, -1, transient)
        guard sqlite3_step(st) == SQLITE_DONE else { throw PN2Error(description: "metadata \(name)") }
    }

    func tile(_ t: TileID, _ data: Data) throws {
        sqlite3_reset(insert)
        sqlite3_bind_int(insert, 1, Int32(t.z))
        sqlite3_bind_int(insert, 2, Int32(t.x))
        sqlite3_bind_int(insert, 3, Int32(t.tmsY))
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        _ = data.withUnsafeBytes { sqlite3_bind_blob(insert, 4, $0.baseAddress, Int32(data.count), transient) }
        guard sqlite3_step(insert) == SQLITE_DONE else { throw PN2Error(description: "insert \(t): \(String(cString: sqlite3_errmsg(db)))") }
    }

    func finish() throws {
        sqlite3_finalize(insert)
        insert = nil
        try exec("COMMIT; CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row); VACUUM;")
        sqlite3_close(db)
        db = nil
    }
}
