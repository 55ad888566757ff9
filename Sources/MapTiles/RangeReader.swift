import FoundationEssentials
import Glibc
import Platform

/// Random access to the bytes of an archive, wherever it is (a file, memory, a server): what
/// `PMTilesArchive` reads through. Must be thread-safe: tiles are read on several workers.
public protocol RangeReader: Sendable {
    /// The archive's length in bytes.
    var size: UInt64 { get }
    /// Exactly `length` bytes from `offset`; throws when they are not all there.
    func read(offset: UInt64, length: Int) throws -> Data
}

/// A range reader over a local file, with pread(2): one descriptor shared by every thread,
/// no seek position to fight over.
public final class FileRangeReader: RangeReader, @unchecked Sendable {
    public let path: String
    public let size: UInt64
    private let fd: Int32

    public init(path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        // TRANSLATORS: a file, and the system's reason it cannot be read ("/tmp/a.pmtiles: No such file or directory").
        guard fd >= 0 else { throw TileSourceError(tr("%@: %@", path, FileIO.reason())) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { let why = FileIO.reason(); close(fd); throw TileSourceError(tr("%@: %@", path, why)) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { close(fd); throw TileSourceError(tr("%@: not a regular file", path)) }
        self.path = path
        self.fd = fd
        size = UInt64(max(0, st.st_size))
    }

    deinit { close(fd) }

    public func read(offset: UInt64, length: Int) throws -> Data {
        guard length >= 0, offset <= UInt64(Int64.max) - UInt64(length) else {
            // TRANSLATORS: %1$@ is a file, %2$@ a number of bytes, %3$@ an offset.
            throw TileSourceError(tr("%1$@: cannot read %2$@ bytes at %3$@", path, length, offset))
        }
        var out = Data(count: length)
        var filled = 0
        while filled < length {
            let n = out.withUnsafeMutableBytes { buf in
                pread(fd, buf.baseAddress! + filled, length - filled, off_t(offset) + off_t(filled))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw TileSourceError(tr("%@: %@", path, FileIO.reason()))
            }
            // The file shrank since it was opened (or the caller asked past its end).
            if n == 0 { throw TileSourceError(tr("%1$@: ends before byte %2$@ (truncated?)", path, offset + UInt64(length))) }
            filled += n
        }
        return out
    }
}

/// A range reader over bytes in memory (fuzzing, tests, a small archive fetched whole).
public struct DataRangeReader: RangeReader {
    public let data: Data
    public init(_ data: Data) { self.data = Data(data) }
    public var size: UInt64 { UInt64(data.count) }

    public func read(offset: UInt64, length: Int) throws -> Data {
        guard length >= 0, offset <= size, UInt64(length) <= size - offset else {
            // TRANSLATORS: a number of bytes, an offset, and the size of what is read, in bytes.
            throw TileSourceError(tr("cannot read %1$@ bytes at %2$@ of %3$@", length, offset, size))
        }
        let start = data.startIndex + Int(offset)
        return data.subdata(in: start..<start + length)
    }
}
