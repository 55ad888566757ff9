import CZlib
import FoundationEssentials
import Platform

/// Inflates gzip (or zlib) streams, as most third-party vector MBTiles store their tiles.
/// The output is bounded: a small tile that inflates to gigabytes is bad input, not a task.
public enum Gzip {
    /// What an inflated tile may grow to. Real vector tiles are well under a few megabytes.
    public static let defaultLimit = 16 << 20

    public static func isCompressed(_ data: Data) -> Bool { data.starts(with: [0x1f, 0x8b]) }

    public static func decompress(_ data: Data, limit: Int = defaultLimit) throws -> Data {
        var stream = z_stream()
        // 15 + 32: the largest window, and detect gzip or zlib headers by themselves.
        guard inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw TileSourceError(tr("cannot start zlib"))
        }
        defer { inflateEnd(&stream) }
        let tooLarge: Int32 = -1000
        var out = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var input = [UInt8](data)
        let status: Int32 = input.withUnsafeMutableBufferPointer { inBuf in
            stream.next_in = inBuf.baseAddress
            stream.avail_in = UInt32(clamping: inBuf.count)
            var rc = Z_OK
            while rc == Z_OK {
                rc = chunk.withUnsafeMutableBufferPointer { c in
                    stream.next_out = c.baseAddress
                    stream.avail_out = UInt32(c.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                guard out.count + produced <= limit else { return tooLarge }
                out += chunk[0..<produced]
                // No progress with input left means the stream is stuck; no input left is truncation.
                if rc == Z_BUF_ERROR || (rc == Z_OK && produced == 0 && stream.avail_in == 0) { return Z_BUF_ERROR }
            }
            return rc
        }
        switch status {
        case Z_STREAM_END: return Data(out)
        case tooLarge: throw TileSourceError(tr("gzip data inflates beyond %@ MiB", limit >> 20))
        case Z_BUF_ERROR: throw TileSourceError(tr("gzip data is truncated"))
        default: throw TileSourceError(tr("gzip data is corrupt (zlib error %@)", status))
        }
    }

    /// `bytes` as a gzip stream (what PMTiles directories and MBTiles vector tiles hold).
    /// Throws when zlib cannot start (no memory) or the input is past what one call takes.
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) throws -> Data {
        // TRANSLATORS: %@ is a number of mebibytes.
        guard bytes.count < Int(UInt32.max >> 1) else { throw TileSourceError(tr("%@ MiB is too much to compress at once", bytes.count >> 20)) }
        var stream = z_stream()
        // 15 + 16: the largest window, with a gzip header and trailer.
        guard deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw TileSourceError(tr("zlib cannot start compressing (out of memory?)"))
        }
        defer { deflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        var input = bytes
        let produced: Int? = input.withUnsafeMutableBufferPointer { i in
            out.withUnsafeMutableBufferPointer { o in
                stream.next_in = i.baseAddress
                stream.avail_in = UInt32(i.count)
                stream.next_out = o.baseAddress
                stream.avail_out = UInt32(o.count)
                // The output is sized by deflateBound: one call finishes the stream.
                guard deflate(&stream, Z_FINISH) == Z_STREAM_END else { return nil }
                return o.count - Int(stream.avail_out)
            }
        }
        guard let produced else { throw TileSourceError(tr("zlib did not finish compressing within its bound")) }
        return Data(out[0..<produced])
    }
}
