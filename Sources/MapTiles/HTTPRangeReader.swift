import FoundationEssentials
import MapNetwork
import Platform

/// A range reader over HTTP range requests, for PMTiles archives on a web server. The first
/// request asks for the first 16 KiB, where the spec puts the header and root directory; it
/// is kept, so opening the archive costs one request. Every answer must be a 206 whose
/// Content-Range is the range asked for. A server that ignores Range (200, the whole body) is
/// accepted only for archives under 16 MiB, which are then read from memory. A later answer
/// with another ETag means the archive changed under us: an error, not a mix of two archives.
public final class HTTPRangeReader: RangeReader, @unchecked Sendable { // `failure` under `lock`; the rest immutable
    public let url: String
    public let size: UInt64
    /// The ETag of the first answer, when the server sent one.
    public let etag: String?
    /// The archive's first bytes (all of them when the server sent the whole body).
    public let prefix: Data
    private let client: HTTPClient?
    private let lock = Lock()
    private var failure: String?

    /// What the first request asks for: the header and (by the spec) the root directory.
    public static let prefixLength = 16_384
    /// The largest whole body accepted from a server that ignores Range.
    public static let maxWholeBody = 16 << 20

    /// Opens `url`: one request for the first bytes.
    public init(url: String, client: HTTPClient) throws {
        self.url = url
        self.client = client
        let outcome = client.get(url, headers: ["Range: bytes=0-\(Self.prefixLength - 1)"], limit: Self.maxWholeBody)
        switch outcome {
        case let .failed(reason, _):
            guard reason == HTTPFailure.tooLarge(Self.maxWholeBody).reason else { throw TileSourceError(tr("%@: %@", url, reason)) }
            // TRANSLATORS: %1$@ is the archive's address, %2$@ a number of MiB.
            throw TileSourceError(tr("%1$@: the server ignores range requests and the archive is larger than %2$@ MiB", url, Self.maxWholeBody >> 20))
        case let .response(r) where r.status == 206:
            guard let range = r.header("Content-Range").flatMap(Self.contentRange), range.first == 0, !r.body.isEmpty,
                  range.last == UInt64(r.body.count - 1), let total = range.total else {
                throw TileSourceError(tr("%@: the server's Content-Range does not match the range asked for", url))
            }
            size = total
            prefix = r.body
        case let .response(r) where r.status == 200:
            // The whole archive in one answer (a server without range support).
            size = UInt64(r.body.count)
            prefix = r.body
        case let .response(r):
            // TRANSLATORS: %1$@ is an address, %2$@ an HTTP status code (404).
            throw TileSourceError(tr("%1$@: the server answered %2$@", url, r.status))
        }
        if case let .response(r) = outcome { etag = r.header("ETag") } else { etag = nil }
    }

    /// A reader that starts from bytes kept from an earlier session (offline: only what
    /// `prefix` holds can be read without the network).
    public init(url: String, client: HTTPClient?, prefix: Data, size: UInt64, etag: String?) {
        self.url = url
        self.client = client
        self.prefix = prefix
        self.size = size
        self.etag = etag
    }

    /// Why the last request failed for want of the server, nil once one succeeds.
    public var unreachable: String? {
        lock.lock(); defer { lock.unlock() }
        return failure
    }

    public func read(offset: UInt64, length: Int) throws -> Data {
        guard length >= 0, offset <= size, UInt64(length) <= size - offset else {
            // TRANSLATORS: %1$@ is the archive's address, then a number of bytes, an offset and the archive's size in bytes.
            throw TileSourceError(tr("%1$@: cannot read %2$@ bytes at %3$@ of %4$@", url, length, offset, size))
        }
        if offset + UInt64(length) <= UInt64(prefix.count) {
            let start = prefix.startIndex + Int(offset)
            return prefix.subdata(in: start..<start + length)
        }
        guard length > 0 else { return Data() }
        guard let client else { throw TileSourceError(tr("%@: offline, and these bytes were never fetched", url)) }
        let last = offset + UInt64(length) - 1
        switch client.get(url, headers: ["Range: bytes=\(offset)-\(last)"], limit: length) {
        case let .failed(reason, retryable):
            if retryable || client.isOffline { lock.lock(); failure = reason; lock.unlock() }
            throw TileSourceError(tr("%@: %@", url, reason))
        case let .response(r):
            lock.lock(); failure = nil; lock.unlock()
            if let etag, let now = r.header("ETag"), now != etag {
                // TRANSLATORS: %1$@ is the archive's address; %2$@ and %3$@ are ETags (the server's names for versions of a file).
                throw TileSourceError(tr("%1$@: the archive changed on the server (ETag %2$@, was %3$@)", url, now, etag))
            }
            guard r.status == 206 else {
                throw TileSourceError(tr("%1$@: the server answered %2$@ to a range request", url, r.status))
            }
            guard let range = r.header("Content-Range").flatMap(Self.contentRange), range.first == offset, range.last == last,
                  r.body.count == length else {
                throw TileSourceError(tr("%@: the server sent other bytes than those asked for", url))
            }
            return r.body
        }
    }

    /// "bytes FIRST-LAST/TOTAL" (TOTAL may be "*"); nil when malformed.
    public static func contentRange(_ text: String) -> (first: UInt64, last: UInt64, total: UInt64?)? {
        let t = text.trimmed
        guard t.hasPrefix("bytes ") else { return nil }
        let parts = t.dropFirst(6).split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let bounds = parts[0].split(separator: "-", maxSplits: 1)
        guard bounds.count == 2, let first = UInt64(bounds[0]), let last = UInt64(bounds[1]), first <= last else { return nil }
        let total = UInt64(parts[1])
        guard parts[1] == "*" || (total.map { last < $0 } ?? false) else { return nil }
        return (first, last, total)
    }
}
