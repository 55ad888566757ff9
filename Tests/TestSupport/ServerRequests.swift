import MapNetwork

extension TileServer {
    /// How often the server was asked for the paths (query included) that `matches`: its own
    /// count (/count), asked through `client`.
    public func requests(through client: HTTPClient, _ matches: (Substring) -> Bool) throws -> Int {
        guard case let .response(r) = client.get(url("/count")) else { throw NoCount() }
        return String(decoding: r.body, as: UTF8.self).split(separator: "\n").compactMap { line -> Int? in
            let f = line.split(separator: " ")
            return f.count == 2 && matches(f[0]) ? Int(f[1]) : nil
        }.reduce(0, +)
    }
}

/// The server's count could not be read.
public struct NoCount: Error {}
