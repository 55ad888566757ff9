import Foundation
@testable import MapNetwork
import Testing
import TestSupport

/// The HTTP client against a real server on loopback that misbehaves on demand, through both
/// engines: Meridian's own for plain http (`plain`), and libcurl.
@Suite(.serialized) struct HTTPClientTests {
    static let agent = "Meridian/0.1.0 (+https://github.com/meridian-maps/meridian) tests"

    func client(stall: Double = 10, plain: Bool = true) -> HTTPClient {
        var o = HTTPClient.Options(userAgent: Self.agent)
        o.ownPlainHTTP = plain
        o.stallTimeout = stall
        o.totalTimeout = 20
        return HTTPClient(options: o)
    }

    /// Fetches and waits for the outcome.
    func get(_ c: HTTPClient, _ url: String, headers: [String] = []) -> HTTPOutcome {
        let box = Box()
        c.fetch(url, headers: headers) { box.put($0) }
        return box.take()
    }

    final class Box: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var value: HTTPOutcome?
        func put(_ v: HTTPOutcome) { value = v; done.signal() }
        func take() -> HTTPOutcome { done.wait(); return value! }
    }

    func response(_ o: HTTPOutcome) -> HTTPResponse? { if case let .response(r) = o { return r } else { return nil } }
    func failure(_ o: HTTPOutcome) -> (String, Bool)? { if case let .failed(m, r) = o { return (m, r) } else { return nil } }

    @Test(arguments: [true, false]) func aTileArrivesWithItsHeadersAndTheServerSeesWhoAsks(plain: Bool) throws {
        let server = try TileServer()
        let c = client(plain: plain)
        defer { c.stop() }
        let r = try #require(response(get(c, server.url("/tile/3/1/2.png"))))
        #expect(r.status == 200)
        #expect(r.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(r.header("cache-control") == "max-age=3600" && r.header("ETag") == "\"t3-1-2\"")
        let ua = try #require(response(get(c, server.url("/ua"))))
        #expect(String(decoding: ua.body, as: UTF8.self) == Self.agent)
    }

    @Test(arguments: [true, false]) func statusesComeBackAsAnswers(plain: Bool) throws {
        let server = try TileServer()
        let c = client(plain: plain)
        defer { c.stop() }
        #expect(response(get(c, server.url("/status/404")))?.status == 404)
        #expect(response(get(c, server.url("/status/500")))?.status == 500)
        let slow = try #require(response(get(c, server.url("/429"))))
        #expect(slow.status == 429 && slow.header("Retry-After") == "2")
        // The validator is sent: the server says the tile has not changed.
        #expect(response(get(c, server.url("/tile/3/1/2.png"), headers: ["If-None-Match: \"t3-1-2\""]))?.status == 304)
    }

    @Test(arguments: [true, false]) func aBodyTooLargeIsRefusedBeforeItIsDownloaded(plain: Bool) throws {
        let server = try TileServer()
        let c = client(plain: plain)
        defer { c.stop() }
        for path in ["/big", "/forever"] {
            let (message, retryable) = try #require(failure(get(c, server.url(path))), "\(path)")
            #expect(message.contains("larger than 2048 KiB") && !retryable, "\(path): \(message)")
        }
    }

    @Test(arguments: [true, false]) func brokenConnectionsAreFailuresWorthRetrying(plain: Bool) throws {
        let server = try TileServer()
        let c = client(stall: 1, plain: plain)
        defer { c.stop() }
        for path in ["/stall", "/truncated", "/reset"] {
            let (message, retryable) = try #require(failure(get(c, server.url(path))), "\(path) gave an answer")
            #expect(retryable, "\(path): \(message)")
        }
        // Nobody listening: a failure too.
        let closed = try #require(failure(get(c, "http://127.0.0.1:1/tile/0/0/0.png")))
        #expect(closed.1)
    }

    @Test(arguments: [true, false]) func onlyTheWebIsFetched(plain: Bool) throws {
        let server = try TileServer()
        let c = client(plain: plain)
        defer { c.stop() }
        #expect(failure(get(c, server.url("/to-file"))) != nil, "a redirect to file:// was followed")
        #expect(failure(get(c, "file:///etc/passwd")) != nil)
    }

    @Test(arguments: [true, false]) func cancelledAndStoppedFetchesAreToldSo(plain: Bool) throws {
        let server = try TileServer()
        let c = client(plain: plain)
        let box = Box()
        let id = c.fetch(server.url("/stall")) { box.put($0) }
        c.cancel(id)
        #expect(failure(box.take())?.0 == "cancelled")
        let late = Box()
        c.fetch(server.url("/stall?late")) { late.put($0) }
        // Stopped while the server holds the request.
        let counter = client()
        #expect(waitUntil { ((try? server.requests(through: counter) { $0 == "/stall?late" }) ?? 0) >= 1 })
        c.stop()
        #expect(failure(late.take())?.0 == "cancelled")
        // After stop, a fetch fails at once.
        #expect(failure(get(c, server.url("/tile/0/0/0.png"))) != nil)
    }

    @Test(arguments: [true, false]) func manyTilesAtOnceAllArrive(plain: Bool) throws {
        let server = try TileServer()
        let c = client(plain: plain)
        defer { c.stop() }
        let boxes = (0..<40).map { i -> Box in
            let b = Box()
            c.fetch(server.url("/tile/6/\(i)/\(i + 1).png")) { b.put($0) }
            return b
        }
        let statuses = boxes.map { response($0.take())?.status }
        #expect(statuses.allSatisfy { $0 == 200 })
    }

    @Test(arguments: [true, false]) func everyFramingAndRedirectGivesTheWholeTile(plain: Bool) throws {
        let server = try TileServer()
        let c = client(plain: plain)
        defer { c.stop() }
        let tile = try #require(response(get(c, server.url("/tile/3/1/2.png")))).body
        for path in ["/chunked", "/until-close", "/moved", "/moved/relative"] {
            let r = try #require(response(get(c, server.url(path))), "\(path)")
            #expect(r.status == 200 && r.body == tile, "\(path): \(r.status), \(r.body.count) bytes")
        }
        #expect(try server.requests(through: c) { $0 == "/tile/3/1/2.png?via=relative" } == 1)
        #expect(failure(get(c, server.url("/loop"))) != nil, "a redirect loop was followed for ever")
    }

    @Test(arguments: [true, false]) func keptAliveConnectionsCarryManyTiles(plain: Bool) throws {
        let server = try TileServer()
        let c = client(plain: plain)
        defer { c.stop() }
        for i in 0..<20 { #expect(response(get(c, server.url("/tile/5/\(i)/1.png")))?.status == 200) }
        // After a server's "Connection: close", a fresh connection carries the next tile.
        #expect(response(get(c, server.url("/until-close")))?.status == 200)
        #expect(response(get(c, server.url("/tile/5/0/0.png")))?.status == 200)
        let count = try #require(response(get(c, server.url("/connections"))))
        let connections = try #require(Int(String(decoding: count.body, as: UTF8.self)))
        #expect(connections >= 2 && connections <= 4, "\(connections) connections for 23 requests")
    }

    /// Offline is the client's setting: nothing reaches the server while it is on (the
    /// server's count says so), a clear reason comes back at once, not worth retrying, and
    /// the same client asks again once it is off.
    @Test(arguments: [true, false]) func anOfflineClientAsksNothing(plain: Bool) throws {
        let server = try TileServer()
        var o = HTTPClient.Options(userAgent: Self.agent)
        o.ownPlainHTTP = plain
        o.offline = true
        let c = HTTPClient(options: o)
        defer { c.stop() }
        let refused = try #require(failure(get(c, server.url("/tile/3/1/2.png"))))
        #expect(refused.0.contains("offline") && !refused.1)
        let other = client(plain: plain)
        defer { other.stop() }
        let counted = try #require(response(get(other, server.url("/count"))))
        #expect(!String(decoding: counted.body, as: UTF8.self).contains("/tile/3/1/2.png"), "an offline client asked the server")
        c.isOffline = false
        #expect(response(get(c, server.url("/tile/3/1/2.png")))?.status == 200)
    }

    @Test func libcurlIsLoadedOnlyWhenHTTPSNeedsIt() throws {
        let server = try TileServer()
        let c = client()
        defer { c.stop() }
        #expect(response(get(c, server.url("/tile/3/1/2.png")))?.status == 200)
        #expect(!c.usesLibcurl)
        let (message, _) = try #require(failure(get(c, "https://127.0.0.1:1/tile.png")))
        #expect(c.usesLibcurl, "\(message)")
        #expect(!message.contains("libcurl"), "libcurl could not be loaded: \(message)")
    }
}
