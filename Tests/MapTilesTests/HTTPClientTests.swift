import Foundation
@testable import MapTiles
import Testing
import TestSupport

/// The HTTP client against a real server on loopback that misbehaves on demand.
@Suite(.serialized) struct HTTPClientTests {
    static let agent = "Meridian/0.1.0 (+https://github.com/meridian-maps/meridian) tests"

    func client(stall: Double = 10) -> HTTPClient {
        var o = HTTPClient.Options(userAgent: Self.agent)
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

    @Test func aTileArrivesWithItsHeadersAndTheServerSeesWhoAsks() throws {
        let server = try TileServer()
        let c = client()
        defer { c.stop() }
        let r = try #require(response(get(c, server.url("/tile/3/1/2.png"))))
        #expect(r.status == 200)
        #expect(r.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(r.header("cache-control") == "max-age=3600" && r.header("ETag") == "\"t3-1-2\"")
        let ua = try #require(response(get(c, server.url("/ua"))))
        #expect(String(decoding: ua.body, as: UTF8.self) == Self.agent)
    }

    @Test func statusesComeBackAsAnswers() throws {
        let server = try TileServer()
        let c = client()
        defer { c.stop() }
        #expect(response(get(c, server.url("/status/404")))?.status == 404)
        #expect(response(get(c, server.url("/status/500")))?.status == 500)
        let slow = try #require(response(get(c, server.url("/429"))))
        #expect(slow.status == 429 && slow.header("Retry-After") == "2")
        // The validator is sent: the server says the tile has not changed.
        #expect(response(get(c, server.url("/tile/3/1/2.png"), headers: ["If-None-Match: \"t3-1-2\""]))?.status == 304)
    }

    @Test func aBodyTooLargeIsRefusedBeforeItIsDownloaded() throws {
        let server = try TileServer()
        let c = client()
        defer { c.stop() }
        for path in ["/big", "/forever"] {
            let (message, retryable) = try #require(failure(get(c, server.url(path))), "\(path)")
            #expect(message.contains("larger than 2048 KiB") && !retryable, "\(path): \(message)")
        }
    }

    @Test func brokenConnectionsAreFailuresWorthRetrying() throws {
        let server = try TileServer()
        let c = client(stall: 1)
        defer { c.stop() }
        for path in ["/stall", "/truncated", "/reset"] {
            let (message, retryable) = try #require(failure(get(c, server.url(path))), "\(path) gave an answer")
            #expect(retryable, "\(path): \(message)")
        }
        // Nobody listening: a failure too.
        let closed = try #require(failure(get(c, "http://127.0.0.1:1/tile/0/0/0.png")))
        #expect(closed.1)
    }

    @Test func onlyTheWebIsFetched() throws {
        let server = try TileServer()
        let c = client()
        defer { c.stop() }
        #expect(failure(get(c, server.url("/to-file"))) != nil, "a redirect to file:// was followed")
        #expect(failure(get(c, "file:///etc/passwd")) != nil)
    }

    @Test func cancelledAndStoppedFetchesAreToldSo() throws {
        let server = try TileServer()
        let c = client()
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

    @Test func manyTilesAtOnceAllArrive() throws {
        let server = try TileServer()
        let c = client()
        defer { c.stop() }
        let boxes = (0..<40).map { i -> Box in
            let b = Box()
            c.fetch(server.url("/tile/6/\(i)/\(i + 1).png")) { b.put($0) }
            return b
        }
        let statuses = boxes.map { response($0.take())?.status }
        #expect(statuses.allSatisfy { $0 == 200 })
    }
}
