import CZlib
import FoundationEssentials

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
            throw TileSourceError("cannot start zlib")
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
        case tooLarge: throw TileSourceError("gzip data inflates beyond \(limit >> 20) MiB")
        case Z_BUF_ERROR: throw TileSourceError("gzip data is truncated")
        default: throw TileSourceError("gzip data is corrupt (zlib error \(status))")
        }
    }
}
