import CSQLite
import CZlib
import Foundation

/// Writes small .mbtiles files for tests: metadata rows and tiles given as raw bytes, so a test
/// can store exactly the (gzipped, crafted, broken) bytes a third-party file would hold.
public enum MBTilesFixture {
    public struct Failure: Error, CustomStringConvertible { public let description: String }

    /// Creates `path` with `metadata` and `tiles` ((z, x, y in XYZ) → bytes; stored TMS-flipped).
    public static func write(_ path: String, metadata: [String: String], tiles: [(z: Int, x: Int, y: Int, data: Data)]) throws {
        try? FileManager.default.removeItem(atPath: path)
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw Failure(description: "cannot create \(path)") }
        defer { sqlite3_close(db) }
        let schema = """
            CREATE TABLE metadata (name TEXT, value TEXT);
            CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
            """
        guard sqlite3_exec(db, schema, nil, nil, nil) == SQLITE_OK else { throw Failure(description: "schema") }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (k, v) in metadata {
            var st: OpaquePointer?
            sqlite3_prepare_v2(db, "INSERT INTO metadata VALUES (?, ?)", -1, &st, nil)
            sqlite3_bind_text(st, 1, k, -1, transient)
            sqlite3_bind_text(st, 2, v, -1, transient)
            guard sqlite3_step(st) == SQLITE_DONE else { throw Failure(description: "metadata insert") }
            sqlite3_finalize(st)
        }
        for t in tiles {
            var st: OpaquePointer?
            sqlite3_prepare_v2(db, "INSERT INTO tiles VALUES (?, ?, ?, ?)", -1, &st, nil)
            sqlite3_bind_int64(st, 1, Int64(t.z))
            sqlite3_bind_int64(st, 2, Int64(t.x))
            sqlite3_bind_int64(st, 3, Int64((1 << t.z) - 1 - t.y))
            _ = t.data.withUnsafeBytes { sqlite3_bind_blob(st, 4, $0.baseAddress, Int32($0.count), transient) }
            guard sqlite3_step(st) == SQLITE_DONE else { throw Failure(description: "tile insert") }
            sqlite3_finalize(st)
        }
    }

    /// `data` as a gzip stream (what tippecanoe and planetiler store), with zlib itself.
    public static func gzip(_ data: Data) -> Data {
        var s = z_stream()
        // 15 + 16: the largest window, with a gzip header and trailer.
        deflateInit2_(&s, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&s) }
        var input = [UInt8](data)
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&s, UInt(input.count))) + 64)
        let n: Int = input.withUnsafeMutableBufferPointer { i in
            out.withUnsafeMutableBufferPointer { o in
                s.next_in = i.baseAddress; s.avail_in = UInt32(i.count)
                s.next_out = o.baseAddress; s.avail_out = UInt32(o.count)
                deflate(&s, Z_FINISH)
                return o.count - Int(s.avail_out)
            }
        }
        return Data(out.prefix(n))
    }
}
