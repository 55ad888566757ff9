import FoundationEssentials
import Glibc
import MapCore
import MapNetwork
import MapTiles
import Platform

/// One large file (a region's `.osm.pbf`) fetched to disk in pieces with Range requests, one
/// request at a time, with the app's User-Agent: what is already in `FILE.part` is kept, so an
/// interrupted download goes on where it stopped; the file appears whole or not at all. The
/// server's validator (ETag, else Last-Modified) is kept beside the part and sent as If-Range:
/// a file rebuilt since (Geofabrik's are, daily) is begun again, never joined to the old one.
public enum RegionDownload {
    /// Bytes asked for at once (a piece is held in memory before it is written).
    static let piece = 8 << 20

    /// What the server says of the file: its size and its validator.
    public struct Head: Sendable, Equatable {
        public var size: Int64
        public var validator: String?
    }

    /// The file's size and validator, from a one-byte range's `Content-Range` (or a small
    /// file's whole body).
    public static func head(of url: String, client: HTTPClient) -> Result<Head, RouteError> {
        switch client.get(url, headers: ["Range: bytes=0-0"], limit: 64 << 10) {
        case let .response(r) where r.status == 206:
            guard let total = r.header("Content-Range").flatMap(total(of:)) else {
                // TRANSLATORS: Content-Range is the name of an HTTP header.
                return .failure(.unreadable(tr("no Content-Range in the answer to a range")))
            }
            return .success(Head(size: total, validator: validator(r)))
        case let .response(r) where r.status == 200:
            return .success(Head(size: Int64(r.body.count), validator: validator(r)))
        case let .response(r):
            return .failure(RouteError(status: r.status))
        case let .failed(reason, _):
            if reason == HTTPFailure.tooLarge(64 << 10).reason {
                // TRANSLATORS: Range is the name of an HTTP header.
                return .failure(.failed(tr("the server does not send files in pieces (no Range requests): it cannot be downloaded resumably")))
            }
            return .failure(RouteError(failure: reason, limit: 64 << 10))
        }
    }

    /// "bytes 0-0/123456" → 123456.
    static func total(of contentRange: String) -> Int64? {
        guard let slash = contentRange.lastIndex(of: "/") else { return nil }
        return Int64(contentRange[contentRange.index(after: slash)...].trimmed).flatMap { $0 >= 0 ? $0 : nil }
    }

    /// "bytes 100-199/1000" → 100...199.
    static func range(of contentRange: String) -> ClosedRange<Int64>? {
        guard contentRange.hasPrefix("bytes "), let slash = contentRange.lastIndex(of: "/") else { return nil }
        let span = contentRange[contentRange.index(contentRange.startIndex, offsetBy: 6)..<slash].split(separator: "-")
        guard span.count == 2, let a = Int64(span[0]), let b = Int64(span[1]), a <= b else { return nil }
        return a...b
    }

    /// The answer's validator: a strong ETag, else Last-Modified.
    static func validator(_ r: HTTPResponse) -> String? {
        if let e = r.header("ETag"), !e.hasPrefix("W/"), !e.isEmpty { return String(e.prefix(200)) }
        return r.header("Last-Modified").map { String($0.prefix(200)) }
    }

    /// Fetches `url` (as `head` described it) to `path`, going on from `path.part` if it is of
    /// the same file. `progress` hears the bytes on disk after each piece.
    public static func fetch(_ url: String, head: Head, to path: String, client: HTTPClient, cancel: RouteCancellation,
                             progress: (Int64) -> Void = { _ in }) -> Result<Void, RouteError> {
        let part = path + ".part", kept = part + ".validator"
        let size = head.size
        var have = Int64(max(0, FileIO.fileSize(part)))
        // A part of another file (rebuilt since, or no validator to tell) is begun again.
        let keptValidator = (try? FileIO.read(kept, limit: 4096)).map { String(decoding: $0, as: UTF8.self) }
        if have > size || head.validator == nil || keptValidator != head.validator { have = 0 }
        // TRANSLATORS: a file, and the system's reason it cannot be written.
        guard let file = fopen(part, have == 0 ? "wb" : "ab") else { return .failure(.failed(tr("%@: %@", part, FileIO.reason()))) }
        defer { fclose(file) }
        /// Appends `body` to the part, all of it and flushed, or says why not.
        func append(_ body: Data) -> RouteError? {
            let written = body.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
            return written == body.count && fflush(file) == 0 ? nil : .failed(tr("%@: %@", part, FileIO.reason()))
        }
        if let v = head.validator, !FileIO.writeText(v, to: kept) { return .failure(.failed(tr("%@: %@", kept, FileIO.reason()))) }
        while have < size {
            if cancel.isCancelled { return .failure(.cancelled) }
            let last = min(size, have + Int64(piece)) - 1
            var headers = ["Range: bytes=\(have)-\(last)"]
            if let v = head.validator { headers.append("If-Range: \(v)") }
            switch client.get(url, headers: headers, limit: piece + 1024) {
            case let .response(r) where r.status == 206:
                // The piece must be the one asked for, of this file: another would corrupt it.
                guard let cr = r.header("Content-Range"), let span = range(of: cr), total(of: cr) == size,
                      span.lowerBound == have, span.upperBound - span.lowerBound + 1 == Int64(r.body.count), !r.body.isEmpty else {
                    // TRANSLATORS: %@ is the Content-Range header the server sent (bytes 0-99/1000).
                    guard let said = r.header("Content-Range") else { return .failure(.unreadable(tr("the server sent another piece than asked (no Content-Range)"))) }
                    return .failure(.unreadable(tr("the server sent another piece than asked (%@)", said)))
                }
                if let e = append(r.body) { return .failure(e) }
                have += Int64(r.body.count)
                progress(have)
            case let .response(r) where r.status == 200:
                // The whole file where a piece was asked: it changed (If-Range), or the server
                // ignores ranges. Taken only if it is all there is.
                guard Int64(r.body.count) == size, have == 0 else {
                    return .failure(.failed(tr("the file changed on the server while it was downloaded, or the server does not send pieces: try again")))
                }
                if let e = append(r.body) { return .failure(e) }
                have = size
            case let .response(r):
                return .failure(RouteError(status: r.status))
            case let .failed(reason, _):
                // What is on disk stays: the next try goes on from there.
                return .failure(RouteError(failure: reason, limit: piece + 1024))
            }
        }
        guard rename(part, path) == 0 else { return .failure(.failed(tr("%@: %@", path, FileIO.reason()))) }
        _ = unlink(kept)
        return .success(())
    }
}
