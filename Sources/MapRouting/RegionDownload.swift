import FoundationEssentials
import Glibc
import MapCore
import MapTiles
import Platform

/// One large file (a region's `.osm.pbf`) fetched to disk in pieces with Range requests, one
/// request at a time, with the app's User-Agent: what is already in `FILE.part` is kept, so an
/// interrupted download goes on where it stopped; the file appears whole or not at all.
public enum RegionDownload {
    /// Bytes asked for at once (a piece is held in memory before it is written).
    static let piece = 8 << 20

    /// The file's size, from a one-byte range's `Content-Range` (or a small file's whole body).
    public static func size(of url: String, client: HTTPClient) -> Result<Int64, RouteError> {
        switch client.get(url, headers: ["Range: bytes=0-0"], limit: 64 << 10) {
        case let .response(r) where r.status == 206:
            guard let total = r.header("Content-Range").flatMap(total(of:)) else { return .failure(.unreadable("no Content-Range in the answer to a range")) }
            return .success(total)
        case let .response(r) where r.status == 200:
            return .success(Int64(r.body.count))
        case let .response(r):
            return .failure(r.status >= 500 ? .serverError(status: r.status) : .refused(status: r.status))
        case let .failed(reason, _):
            if reason.contains("KiB") { return .failure(.failed("the server does not send files in pieces (no Range requests): it cannot be downloaded resumably")) }
            return .failure(HTTPFailure.isNoConnection(reason) ? .offline(reason) : .network(reason))
        }
    }

    /// "bytes 0-0/123456" → 123456.
    static func total(of contentRange: String) -> Int64? {
        guard let slash = contentRange.lastIndex(of: "/") else { return nil }
        return Int64(contentRange[contentRange.index(after: slash)...].trimmed).flatMap { $0 >= 0 ? $0 : nil }
    }

    /// Fetches `url` (of `size` bytes) to `path`, going on from `path.part` if it is there.
    /// `progress` hears the bytes on disk after each piece.
    public static func fetch(_ url: String, size: Int64, to path: String, client: HTTPClient, cancel: RouteCancellation,
                             progress: (Int64) -> Void = { _ in }) -> Result<Void, RouteError> {
        let part = path + ".part"
        var have = Int64(max(0, FileIO.fileSize(part)))
        if have > size { _ = unlink(part); have = 0 }
        guard let file = fopen(part, "ab") else { return .failure(.failed("\(part): \(FileIO.reason())")) }
        defer { fclose(file) }
        while have < size {
            if cancel.isCancelled { return .failure(.cancelled) }
            let last = min(size, have + Int64(piece)) - 1
            switch client.get(url, headers: ["Range: bytes=\(have)-\(last)"], limit: piece + 1024) {
            case let .response(r) where r.status == 206:
                // The piece must be the one asked for: another would corrupt the file.
                guard let range = r.header("Content-Range"), range.hasPrefix("bytes \(have)-"), total(of: range) == size else {
                    return .failure(.unreadable("the server sent another piece than asked (\(r.header("Content-Range") ?? "no Content-Range"))"))
                }
                let written = r.body.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
                guard written == r.body.count, fflush(file) == 0 else { return .failure(.failed("\(part): \(FileIO.reason())")) }
                have += Int64(r.body.count)
                progress(have)
                if r.body.isEmpty { return .failure(.unreadable("the server sent an empty piece")) }
            case let .response(r) where r.status == 200 && Int64(r.body.count) == size && have == 0:
                // A small file sent whole.
                let written = r.body.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
                guard written == r.body.count, fflush(file) == 0 else { return .failure(.failed("\(part): \(FileIO.reason())")) }
                have = size
            case let .response(r):
                return .failure(r.status >= 500 ? .serverError(status: r.status) : .refused(status: r.status))
            case let .failed(reason, _):
                // What is on disk stays: the next try goes on from there.
                return .failure(HTTPFailure.isNoConnection(reason) ? .offline(reason) : .network(reason))
            }
        }
        guard rename(part, path) == 0 else { return .failure(.failed("\(path): \(FileIO.reason())")) }
        return .success(())
    }
}
