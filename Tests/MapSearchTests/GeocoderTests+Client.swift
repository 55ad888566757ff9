import Foundation
import MapCore
import MapGeometry
import MapNetwork
@testable import MapSearch
@testable import MapTiles
import Platform
import Testing
import TestSupport

extension GeocoderTests {
    /// The client against a loopback stand-in (Tests/Fixtures/geocoder-server.py), which notes
    /// when each search arrived: the policy is checked on what the server saw. Every test waits
    /// for its searches' answers, never for a time.
    @Suite(.serialized) struct Client {
        static let agent = "Meridian/0.1.0 (+https://github.com/meridian-maps/meridian) tests"

        /// One search's answer, waited for.
        final class Answer: @unchecked Sendable {
            private let done = DispatchSemaphore(value: 0)
            private var value: Result<[SearchResult], GeocoderError>?
            func put(_ v: Result<[SearchResult], GeocoderError>) { value = v; done.signal() }
            func take() -> Result<[SearchResult], GeocoderError>? {
                // The deadline only keeps a broken build from hanging the suite.
                done.wait(timeout: .now() + 60) == .success ? value : nil
            }
        }

        struct Arrival: Decodable {
            let t: Double
            let path: String
            let q: String
            let ua: String
            let lang: String?
        }

        let server: TileServer
        let client = HTTPClient(options: .init(userAgent: Client.agent))

        init() throws { server = try TileServer(script: "geocoder-server.py") }

        func geocoder(kind: GeocoderConfig.Kind = .nominatim, interval: Double = 0.3, cache: String? = nil, timeout: Double = 10,
                      language: String? = nil, url: String? = nil) -> Geocoder {
            var options = Geocoder.Options(cacheDirectory: cache, language: language)
            options.timeout = timeout
            let config = GeocoderConfig(url: url ?? server.url(""), kind: kind, minimumInterval: interval)
            // A schedule of its own: a port used before in this run starts afresh.
            return Geocoder(config: config, client: client, options: options, gate: ServiceGate())
        }

        func search(_ g: Geocoder, _ query: String, near: Coordinate? = nil) -> Result<[SearchResult], GeocoderError>? {
            let answer = Answer()
            g.search(query, near: near) { answer.put($0) }
            return answer.take()
        }

        func arrivals() throws -> [Arrival] {
            guard case let .response(r) = client.get(server.url("/log")) else { throw TileSourceError("no log") }
            return try JSONDecoder().decode([Arrival].self, from: r.body)
        }

        func failure(_ r: Result<[SearchResult], GeocoderError>?) -> GeocoderError? {
            if case let .failure(e)? = r { return e } else { return nil }
        }

        func places(_ r: Result<[SearchResult], GeocoderError>?) -> [SearchResult]? {
            if case let .success(p)? = r { return p } else { return nil }
        }

        func temporaryFolder() -> String {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geocoder-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            return dir.path
        }

        @Test func aSearchAsksTheServiceAsItsPolicyWants() throws {
            let g = geocoder(language: "fi")
            defer { g.stop() }
            let found = try #require(places(search(g, "Aleksanterinkatu 52, Helsinki", near: Coordinate(latitude: 60.17, longitude: 24.94))))
            #expect(found.map(\.name) == ["Stockmann", "Aleksanterinkatu 52"])
            #expect(found.allSatisfy { $0.origin == .online(credit: "© OpenStreetMap contributors · Nominatim") })
            let seen = try #require(try arrivals().first)
            #expect(seen.path == "/search?q=Aleksanterinkatu%2052%2C%20Helsinki&format=jsonv2&addressdetails=1&limit=10"
                + "&viewbox=24.4,60.7,25.4,59.7&bounded=0")
            #expect(seen.q == "Aleksanterinkatu 52, Helsinki" && seen.ua == Self.agent && seen.lang == "fi")
            let photon = geocoder(kind: .photon)
            defer { photon.stop() }
            #expect(places(search(photon, "Stockmann", near: Coordinate(latitude: 60.17, longitude: 24.94)))?.count == 4)
            #expect(try arrivals().last?.path == "/api?q=Stockmann&limit=10&lat=60.2&lon=24.9")
        }

        @Test func searchesInARowCostTheFirstAndTheLastRequestSpacedByTheInterval() throws {
            let interval = 0.3
            let g = geocoder(interval: interval)
            defer { g.stop() }
            let answers = (0..<10).map { _ in Answer() }
            for (i, answer) in answers.enumerated() {
                g.search("Helsinki \(i)", near: nil) { answer.put($0) }
            }
            let results = answers.map { $0.take() }
            #expect(places(results[0])?.first?.name == "Helsinki")
            #expect(results[1..<9].allSatisfy { failure($0) == .superseded }, "\(results.map { failure($0).map { "\($0)" } ?? "found" })")
            #expect(places(results[9])?.count == 3)
            let seen = try arrivals()
            #expect(seen.map(\.q) == ["Helsinki 0", "Helsinki 9"])
            #expect(g.requestCount == 2)
            // The server notes arrivals, a little after each start: a fresh connection's first
            // request is later than a kept one's by the connecting, hence the small allowance.
            let gaps = zip(seen.dropFirst(), seen).map { $0.t - $1.t }
            #expect(gaps.allSatisfy { $0 >= interval - 0.05 }, "\(gaps)")
            // Searches made one after another, each waiting for its answer: every one is sent,
            // each start the interval after the one before.
            for i in 0..<3 { #expect(places(search(g, "Vantaa \(i)")) != nil) }
            let later = try arrivals().suffix(4)
            let spaced = zip(later.dropFirst(), later).map { $0.t - $1.t }
            #expect(later.count == 4 && spaced.allSatisfy { $0 >= interval - 0.05 }, "\(spaced)")
        }

        @Test(arguments: ["busy", "busy-date"]) func aBusyServiceIsLeftAloneUntilItSaysSo(query: String) throws {
            let g = geocoder(interval: 0.1)
            defer { g.stop() }
            let busy = try #require(failure(search(g, query)))
            guard case let .busy(seconds) = busy else { Issue.record("\(busy)"); return }
            // An HTTP date has whole seconds: 2 s ahead may be read as 1.
            #expect((1...2).contains(seconds) && busy.description == "the geocoder is busy; try again in \(seconds) s")
            // (The pause is the whole seconds said, and starts when the answer came: after the
            // server noted the request.)
            // The next search waits for that time, then is answered.
            #expect(places(search(g, "Helsinki")) != nil)
            let seen = try arrivals()
            try #require(seen.count == 2)
            #expect(seen[1].t - seen[0].t >= Double(seconds), "\(seen[1].t - seen[0].t)")
        }

        @Test func failuresAreToldInPlainWords() throws {
            let g = geocoder(interval: 0, timeout: 1)
            defer { g.stop() }
            #expect(failure(search(g, "broken")) == .serverError(status: 500))
            #expect(failure(search(g, "garbage"))?.description == "the geocoder's answer is not JSON")
            #expect(failure(search(g, "huge")) == .tooLarge)
            #expect(failure(search(g, "refuse"))?.description == "the geocoder said: Nothing to search for.")
            #expect(failure(search(g, "silent")) == .timedOut(seconds: 1))
            // After a time-out the next search has its own answer, not the late one's.
            #expect(places(search(g, "Helsinki"))?.first?.name == "Helsinki")
            // Nobody listening: offline, said as such.
            let nobody = geocoder(url: "http://127.0.0.1:1")
            defer { nobody.stop() }
            let offline = try #require(failure(search(nobody, "Helsinki")))
            #expect(offline.isOffline && offline.description.hasPrefix("no connection to the geocoder"), "\(offline)")
            // Turned off: no request at all.
            var options = Geocoder.Options(cacheDirectory: nil)
            options.timeout = 1
            let off = Geocoder(config: GeocoderConfig(url: server.url(""), kind: .nominatim, enabled: false), client: client,
                               options: options, gate: ServiceGate())
            defer { off.stop() }
            let before = try arrivals().count
            #expect(failure(search(off, "Helsinki")) == .disabled)
            #expect(places(search(g, "   ")) == [], "an empty search asks nothing")
            #expect(try arrivals().count == before)
        }

        @Test func answersAreCachedOnDiskAndErrorsNever() throws {
            let folder = temporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let near = Coordinate(latitude: 60.17, longitude: 24.94)
            let first = geocoder(interval: 0, cache: folder)
            let found = try #require(places(search(first, "Aleksanterinkatu 52, Helsinki", near: near)))
            first.stop()
            // Another run (nothing in memory), the same search typed differently, the view moved
            // a little: the answer comes from the disk, with no request.
            let second = geocoder(interval: 0, cache: folder)
            defer { second.stop() }
            #expect(places(search(second, "  aleksanterinkatu 52,   HELSINKI", near: Coordinate(latitude: 60.19, longitude: 24.91))) == found)
            #expect(try second.requestCount == 0 && arrivals().count == 1)
            // Errors and garbage are not kept: asked again, they are asked again.
            for query in ["broken", "garbage", "broken", "garbage"] { #expect(failure(search(second, query)) != nil) }
            #expect(try arrivals().count == 5)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".answer") }
            #expect(files.count == 1, "\(files)")
        }

        @Test func aDamagedOrOldCacheFileIsReplaced() throws {
            let folder = temporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let config = GeocoderConfig(url: server.url(""), kind: .nominatim, minimumInterval: 0)
            let key = GeocoderRequest(query: "Helsinki", near: nil, config: config, language: nil).key
            let path = try #require(GeocoderCache(directory: folder).path(for: key))
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let weekOld = Data("meridian-geocoder 1\n\(Int(Date().timeIntervalSince1970) - 8 * 86_400)\n".utf8)
                + Data((key.replacingOccurrences(of: "\n", with: "\t") + "\n").utf8) + (try GeocoderTests.fixture("nominatim-helsinki.json"))
            for damaged in [Data("meridian-geocoder 1\nnot a time\n".utf8), Data([0xFF, 0x00, 0x0A, 0x0A, 0x0A]), weekOld] {
                try damaged.write(to: URL(fileURLWithPath: path))
                let before = try arrivals().count
                // A new geocoder each time, as the next run of the app: nothing in memory.
                let g = geocoder(interval: 0, cache: folder)
                #expect(places(search(g, "Helsinki"))?.count == 3)
                g.stop()
                #expect(try arrivals().count == before + 1, "a damaged or week-old entry was used")
                let kept = try Data(contentsOf: URL(fileURLWithPath: path))
                #expect(kept.starts(with: Data("meridian-geocoder 1\n".utf8)) && kept != damaged)
            }
            // And the fresh entry is used.
            let g = geocoder(interval: 0, cache: folder)
            defer { g.stop() }
            #expect(places(search(g, "Helsinki"))?.count == 3 && g.requestCount == 0)
        }
    }
}
