import CSQLite
import FoundationEssentials
import Glibc
import Platform

public struct SQLiteError: Error, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
}

/// An SQLite connection shared by threads: one prepared statement per query, used under a
/// lock (SQLite's own mutex would serialise the calls anyway). Read-only for tile archives;
/// read-write for what Meridian keeps itself (the search index).
public final class SQLiteDatabase: @unchecked Sendable {
    private var db: OpaquePointer?
    private let lock = Lock()
    private var statements: [String: OpaquePointer] = [:]
    public let path: String

    public convenience init(readOnly path: String) throws {
        try self.init(path: path, writable: false)
    }

    /// Opens `path`; `writable` creates it when missing.
    public init(path: String, writable: Bool) throws {
        self.path = path
        guard writable || FileManager.default.fileExists(atPath: path) else { throw SQLiteError(description: tr("%@: no such file", path)) }
        let flags = (writable ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY) | SQLITE_OPEN_FULLMUTEX
        guard sqlite3_open_v2(path, &db, flags, nil) == SQLITE_OK else {
            let msg = db.map { String(cString: sqlite3_errmsg($0)) } ?? tr("cannot open")
            sqlite3_close(db)
            // TRANSLATORS: a database file, and what SQLite says is wrong with it.
            throw SQLiteError(description: tr("%@: %@", path, msg))
        }
        // Another process writing (a second window indexing): wait a little rather than fail.
        sqlite3_busy_timeout(db, 5000)
        // Touch the schema now, so "not a database" is reported at open, not at the first tile.
        _ = try rows("SELECT name FROM sqlite_master LIMIT 1") { _ in () }
    }

    deinit {
        for s in statements.values { sqlite3_finalize(s) }
        sqlite3_close(db)
    }

    public enum Value { case int(Int64), text(String), real(Double), blob(Data), null }

    /// Runs statements that return nothing (schema, transactions).
    public func exec(_ sql: String) throws {
        lock.lock(); defer { lock.unlock() }
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(db, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(db))
            sqlite3_free(message)
            throw SQLiteError(description: tr("%@: %@", path, text))
        }
    }

    /// Runs one statement that returns no rows, with bound parameters.
    public func run(_ sql: String, _ params: [Value] = []) throws {
        _ = try rows(sql, params) { _ in () }
    }

    /// Runs a query with bound parameters; `row` reads each result row from the statement.
    public func rows<T>(_ sql: String, _ params: [Value] = [], _ row: (OpaquePointer) throws -> T) throws -> [T] {
        var out: [T] = []
        try forEach(sql, params) { out.append(try row($0)) }
        return out
    }

    /// Runs a query and hands each row to `body` as it comes, holding none: for reading more
    /// than memory should (a city's staged names). The connection is busy meanwhile: write
    /// through another.
    public func forEach(_ sql: String, _ params: [Value] = [], _ body: (OpaquePointer) throws -> Void) throws {
        lock.lock(); defer { lock.unlock() }
        let st = try statement(sql)
        defer { sqlite3_reset(st); sqlite3_clear_bindings(st) }
        bind(st, params)
        while true {
            let rc = sqlite3_step(st)
            if rc == SQLITE_ROW { try body(st); continue }
            if rc == SQLITE_DONE { return }
            throw SQLiteError(description: tr("%@: %@", path, String(cString: sqlite3_errmsg(db))))
        }
    }

    private func bind(_ st: OpaquePointer, _ params: [Value]) {
        for (i, p) in params.enumerated() {
            switch p {
            case let .int(v): sqlite3_bind_int64(st, Int32(i + 1), v)
            case let .text(s): sqlite3_bind_text(st, Int32(i + 1), s, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            case let .real(v): sqlite3_bind_double(st, Int32(i + 1), v)
            case let .blob(d):
                _ = d.withUnsafeBytes { b in
                    sqlite3_bind_blob(st, Int32(i + 1), b.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(b.count),
                                      unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                }
            case .null: sqlite3_bind_null(st, Int32(i + 1))
            }
        }
    }

    private func statement(_ sql: String) throws -> OpaquePointer {
        if let s = statements[sql] { return s }
        var st: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &st, nil) == SQLITE_OK, let st else {
            throw SQLiteError(description: tr("%@: %@", path, String(cString: sqlite3_errmsg(db))))
        }
        statements[sql] = st
        return st
    }

    public static func text(_ st: OpaquePointer, _ col: Int32) -> String {
        sqlite3_column_text(st, col).map { String(cString: $0) } ?? ""
    }

    public static func int(_ st: OpaquePointer, _ col: Int32) -> Int64 { sqlite3_column_int64(st, col) }

    public static func real(_ st: OpaquePointer, _ col: Int32) -> Double { sqlite3_column_double(st, col) }

    public static func isNull(_ st: OpaquePointer, _ col: Int32) -> Bool { sqlite3_column_type(st, col) == SQLITE_NULL }

    public static func blob(_ st: OpaquePointer, _ col: Int32) -> Data {
        let n = Int(sqlite3_column_bytes(st, col))
        guard n > 0, let p = sqlite3_column_blob(st, col) else { return Data() }
        return Data(bytes: p, count: n)
    }
}
