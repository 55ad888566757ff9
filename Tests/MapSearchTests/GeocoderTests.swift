import Foundation
import MapCore
import MapGeometry
import MapNetwork
@testable import MapSearch
@testable import MapTiles
import Platform
import Testing
import TestSupport

/// The geocoders' answers read into search results (Nominatim's jsonv2 and Photon's GeoJSON,
/// shaped as the services send them: Tests/Fixtures/geocoder), hostile answers refused in
/// words, and the requests and settings around them. The client against a loopback stand-in
/// is in GeocoderTests+Client.swift.
@Suite struct GeocoderTests {
    static let credit = "© OpenStreetMap contributors · Nominatim"

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/geocoder/" + name))
    }

    func nominatim(_ text: String) throws -> [SearchResult] { try GeocoderAnswer.nominatim(Data(text.utf8), credit: Self.credit) }
    func photon(_ text: String) throws -> [SearchResult] { try GeocoderAnswer.photon(Data(text.utf8), credit: Self.credit) }

    /// One Nominatim place with the given main tag and address, as its jsonv2 answer writes it.
    func place(_ category: String, _ type: String, addresstype: String? = nil, name: String = "X", display: String? = nil,
               address: [String: String] = [:], box: [String]? = nil, lat: String = "60.17", lon: String = "24.94") -> String {
        var o: [String: Any] = ["lat": lat, "lon": lon, "category": category, "type": type, "name": name,
                                "display_name": display ?? "\(name), Helsinki, Suomi / Finland", "address": address]
        if let addresstype { o["addresstype"] = addresstype }
        if let box { o["boundingbox"] = box }
        return String(decoding: try! JSONSerialization.data(withJSONObject: o), as: UTF8.self)
    }

    // MARK: Nominatim

    @Test func nominatimAddressSearchGivesTheStoreAndTheAddress() throws {
        let results = try GeocoderAnswer.nominatim(try Self.fixture("nominatim-aleksanterinkatu-52.json"), credit: Self.credit)
        try #require(results.count == 2)
        let store = results[0], address = results[1]
        #expect(store.name == "Stockmann" && store.category == .poi && store.what == "department store")
        #expect(store.area == "Kluuvi, Helsinki")
        #expect(abs(store.coordinate.latitude - 60.1685997) < 1e-9 && abs(store.coordinate.longitude - 24.9418753) < 1e-9)
        #expect(store.origin == .online(credit: Self.credit))
        // A block 170 m across would fill a 1000-px view deeper than the map goes: zoom 18.
        #expect(store.zoom == 18)
        #expect(address.name == "Aleksanterinkatu 52" && address.category == .address && address.what == "address")
        #expect(address.area == "Kluuvi, Helsinki")
        // A point's box of a few metres asks for more than the map has: the deepest zoom.
        #expect(address.zoom == 18)
        #expect(store.match > address.match, "the service's order is kept")
    }

    @Test func reverseAsksForOnePointAndItsOnePlaceIsRead() throws {
        let config = GeocoderConfig(url: "http://127.0.0.1:1", kind: .nominatim)
        let r = GeocoderRequest(reverse: Coordinate(latitude: 60.168673, longitude: -0.0000042), config: config, language: nil)
        #expect(r.url == "http://127.0.0.1:1/reverse?lat=60.16867&lon=0.00000&format=jsonv2&addressdetails=1&zoom=18", "\(r.url)")
        let near = GeocoderRequest(reverse: Coordinate(latitude: 60.168674, longitude: 0.00001), config: config, language: nil)
        #expect(r.key == near.key, "a metre away is the same question (cached to ten)")
        #expect(r.key != GeocoderRequest(query: "reverse", near: nil, config: config, language: nil).key)
        let photon = GeocoderRequest(reverse: Coordinate(latitude: -33.5, longitude: 151.25), config: GeocoderConfig(url: "http://h", kind: .photon), language: nil)
        #expect(photon.url == "http://h/reverse?lat=-33.50000&lon=151.25000&limit=1")
        // Nominatim's /reverse answers one object, not a list; its error is an object too.
        let one = try nominatim(place("place", "house", addresstype: "building", name: "", address: ["road": "Aleksanterinkatu", "house_number": "52"]))
        #expect(one.map(\.name) == ["Aleksanterinkatu 52"])
        #expect(throws: GeocoderError.self) { try nominatim(#"{"error":"Unable to geocode"}"#) }
    }

    @Test func nominatimPlacesByTheirTags() throws {
        let results = try GeocoderAnswer.nominatim(try Self.fixture("nominatim-helsinki.json"), credit: Self.credit)
        try #require(results.count == 3)
        let (city, airport, station) = (results[0], results[1], results[2])
        #expect(city.name == "Helsinki" && city.category == .city && city.what == "city")
        // The city is not said to lie in itself: its region and country.
        #expect(city.area == "Uusimaa, Suomi / Finland")
        #expect(city.zoom > 10 && city.zoom < 11.5, "\(city.zoom)")
        #expect(airport.category == .airport && airport.what == "airport" && airport.area == "Aviapolis, Vantaa")
        #expect(station.category == .station && station.what == "railway station")
        // The station is named Helsinki too: its area is the district alone.
        #expect(station.name == "Helsinki" && station.area == "Kluuvi")
    }

    @Test(arguments: [
        ("place", "town", nil, SearchResult.Category.town, "town"),
        ("place", "village", nil, .village, "village"),
        ("place", "hamlet", nil, .village, "hamlet"),
        ("place", "suburb", nil, .suburb, "district"),
        ("place", "neighbourhood", nil, .neighbourhood, "neighbourhood"),
        ("place", "island", nil, .other, "island"),
        ("boundary", "administrative", "country", .country, "country"),
        ("boundary", "administrative", "state", .region, "region"),
        ("boundary", "administrative", "town", .town, "town"),
        ("boundary", "administrative", "suburb", .suburb, "district"),
        ("highway", "residential", "road", .street, "street"),
        ("highway", "pedestrian", "road", .street, "pedestrian street"),
        ("highway", "bus_stop", "highway", .poi, "bus stop"),
        ("railway", "station", "railway", .station, "railway station"),
        ("public_transport", "station", "public_transport", .station, "station"),
        ("aeroway", "aerodrome", "aeroway", .airport, "airport"),
        ("natural", "peak", "peak", .peak, "peak"),
        ("natural", "water", "water", .water, "water"),
        ("waterway", "river", "river", .water, "river"),
        ("leisure", "park", "park", .park, "park"),
        ("amenity", "cafe", "amenity", .poi, "café"),
        ("amenity", "fast_food", "amenity", .poi, "fast food"),
        ("tourism", "museum", "tourism", .poi, "museum"),
        ("shop", "department_store", "shop", .poi, "department store"),
        ("historic", "castle", "historic", .poi, "castle"),
        ("building", "yes", "building", .poi, "building"),
    ] as [(String, String, String?, SearchResult.Category, String)])
    func categoryAndWhatFromTheMainTag(_ tag: (String, String, String?, SearchResult.Category, String)) throws {
        let r = try #require(try nominatim("[\(place(tag.0, tag.1, addresstype: tag.2))]").first)
        #expect(r.category == tag.3 && r.what == tag.4, "\(tag.0)=\(tag.1): \(r.category) \(r.what)")
    }

    @Test func aNamelessPlaceWithAHouseNumberIsAnAddress() throws {
        let house = place("building", "yes", name: "", address: ["house_number": "7", "road": "Mannerheimintie", "city": "Helsinki"])
        let r = try #require(try nominatim("[\(house)]").first)
        #expect(r.category == .address && r.name == "Mannerheimintie 7" && r.area == "Helsinki")
        // A nameless road takes the first part of its display name.
        let road = place("highway", "service", name: "", display: "Huoltotie, Kluuvi, Helsinki", address: ["city": "Helsinki"])
        #expect(try nominatim("[\(road)]").first?.name == "Huoltotie")
    }

    @Test func zoomComesFromTheBoxElseFromTheCategory() throws {
        // A park 1 km across fills a 1000-px view at zoom 16 (1.2 m a pixel at 60° N), one
        // 16 km across at zoom 12.
        let park = place("leisure", "park", box: ["60.1800", "60.1890", "24.9300", "24.9480"])
        let z = try #require(try nominatim("[\(park)]").first).zoom
        #expect(z > 15.7 && z < 16.7, "\(z)")
        let forest = place("leisure", "nature_reserve", box: ["60.10", "60.244", "24.80", "25.088"])
        let z2 = try #require(try nominatim("[\(forest)]").first).zoom
        #expect(abs(z2 - (z - 4)) < 0.1, "\(z2)")
        // No box, a point for a box, an inverted one, one out of range: the category says.
        for box in [nil, ["60.17", "60.17", "24.94", "24.94"], ["61", "60", "24", "25"], ["-100", "100", "0", "1"]] as [[String]?] {
            #expect(try nominatim("[\(place("leisure", "park", box: box))]").first?.zoom == SearchResult.Category.park.zoom, "\(box ?? [])")
        }
        // The whole world clamps to zoom 3.
        #expect(try nominatim("[\(place("place", "country", box: ["-90", "90", "-180", "180"]))]").first?.zoom == 3)
    }

    // MARK: Photon

    @Test func photonAnswerReadsAsNominatimsDoes() throws {
        let results = try GeocoderAnswer.photon(try Self.fixture("photon-aleksanterinkatu-52.json"), credit: "© OpenStreetMap contributors · Photon")
        try #require(results.count == 4)
        let (store, address, street, city) = (results[0], results[1], results[2], results[3])
        #expect(store.name == "Stockmann" && store.category == .poi && store.what == "department store" && store.area == "Kluuvi, Helsinki")
        #expect(store.zoom == 18)
        #expect(address.name == "Aleksanterinkatu 52" && address.category == .address && address.area == "Kluuvi, Helsinki")
        #expect(address.zoom == SearchResult.Category.address.zoom, "no extent: the category's zoom")
        #expect(street.name == "Aleksanterinkatu" && street.category == .street && street.what == "street")
        #expect(street.zoom > 15.5 && street.zoom < 17, "\(street.zoom)")
        #expect(city.category == .city && city.area == "Uusimaa, Finland")
        #expect(city.zoom > 10 && city.zoom < 11.5, "\(city.zoom)")
        #expect(abs(city.coordinate.longitude - 24.938379) < 1e-9, "GeoJSON is longitude first")
        #expect(results.allSatisfy { $0.origin == .online(credit: "© OpenStreetMap contributors · Photon") })
    }

    @Test func photonBoundariesByTheirLayer() throws {
        let answer = """
        {"type":"FeatureCollection","features":[
         {"type":"Feature","geometry":{"type":"Point","coordinates":[25.0,60.2]},
          "properties":{"osm_key":"boundary","osm_value":"administrative","type":"district","name":"Vallila","city":"Helsinki"}},
         {"type":"Feature","geometry":{"type":"Point","coordinates":[26.0,64.0]},
          "properties":{"osm_key":"place","osm_value":"country","type":"country","name":"Finland","extent":[20.5,70.1,31.6,59.7]}}]}
        """
        let r = try photon(answer)
        #expect(r.map(\.category) == [.suburb, .country])
        #expect(r[0].area == "Helsinki" && r[1].area == nil)
        #expect(r[1].zoom > 5 && r[1].zoom < 6.5, "\(r[1].zoom)")
    }

    // MARK: Hostile answers

    @Test func garbageIsRefusedInPlainWords() {
        func error(_ text: String, photon: Bool = false) -> String? {
            do {
                _ = try photon ? self.photon(text) : nominatim(text)
                return nil
            } catch { return "\(error)" }
        }
        #expect(error("<html><body>502 Bad Gateway</body></html>") == "the geocoder's answer is not JSON")
        #expect(error("") == "the geocoder's answer is not JSON")
        #expect(error("{\"places\": []}") == "the geocoder's answer is not a list of places")
        #expect(error("[]", photon: true) == "the geocoder's answer is not a list of places")
        #expect(error("{\"features\": 3}", photon: true) == "the geocoder's answer is not a list of places")
        #expect(error("{\"error\": {\"code\": 400, \"message\": \"Nothing to search for.\"}}") == "the geocoder said: Nothing to search for.")
        #expect(error("{\"message\": \"language not supported\"}", photon: true) == "the geocoder said: language not supported")
        // 3 MiB: refused by its size, not read.
        let huge = "[" + String(repeating: " ", count: 3 << 20) + "]"
        #expect(error(huge) == "the geocoder's answer is larger than 2 MiB")
        #expect(error(huge, photon: true) == "the geocoder's answer is larger than 2 MiB")
    }

    @Test func wrongTypesAndImpossibleNumbersAreSkippedNotTrapped() throws {
        let answer = """
        [1, "x", null, [],
         {"lat": ["60"], "lon": "24", "name": "list"},
         {"lat": "NaN", "lon": "24", "name": "nan"},
         {"lat": "1e308", "lon": "24", "name": "huge"},
         {"lat": "60", "lon": "inf", "name": "inf"},
         {"lat": "91", "lon": "24", "name": "north of north"},
         {"lat": "\(String(repeating: "6", count: 400))", "lon": "24", "name": "long"},
         {"lat": 60.2, "lon": 24.9, "name": 5, "display_name": "Numbers, Helsinki", "category": 7, "type": null,
          "address": "not an object", "boundingbox": ["1e308", "-1e308", "NaN", "inf"]},
         {"lat": "60.1", "lon": "24.9", "name": "Box", "boundingbox": [1e308, 1e308, -1e308, 1e308]},
         {"lat": "60.1", "lon": "24.9", "name": "Short box", "boundingbox": ["60"]},
         {"lat": "60.1", "lon": "24.9"}]
        """
        let r = try nominatim(answer)
        #expect(r.map(\.name) == ["Numbers", "Box", "Short box"])
        #expect(r.allSatisfy { $0.coordinate.isValid && $0.zoom.isFinite && $0.zoom >= 3 && $0.zoom <= 18 })
        #expect(r[0].category == .poi && r[0].area == nil)
        let features = """
        {"features": [{"geometry": {"coordinates": [1e308, 60]}, "properties": {"name": "far"}},
                      {"geometry": {"coordinates": [24.9]}, "properties": {"name": "one number"}},
                      {"geometry": {"coordinates": ["24.9", "60.1"]}, "properties": {"name": "strings",
                       "extent": [1e308, "x", null, -1e308], "housenumber": 1e300}},
                      {"geometry": {"coordinates": [24.9, 60.1]}, "properties": "none"},
                      {"geometry": {"coordinates": [24.9, 60.1]}, "properties": {"osm_key": "place", "osm_value": "house"}}]}
        """
        let p = try photon(features)
        #expect(p.map(\.name) == ["strings"])
        #expect(p.first?.zoom == SearchResult.Category.poi.zoom)
    }

    @Test func lengthsAndCountsAreBounded() throws {
        let long = String(repeating: "Ä", count: 1000)
        let many = (0..<80).map { i in place("amenity", "cafe", name: i == 0 ? long : "Café \(i)\n\tnext line") }
        let r = try nominatim("[" + many.joined(separator: ",") + "]")
        #expect(r.count == GeocoderAnswer.maxResults)
        #expect(r[0].name.count == GeocoderAnswer.maxNameLength)
        #expect(r[1].name == "Café 1  next line", "line breaks and tabs are spaces in a row")
        #expect(r.allSatisfy { $0.match > 0 && $0.match <= 1 })
    }

    // MARK: Requests

    @Test func requestsAreEncodedAndKeyedByWhatMatters() {
        let n = GeocoderConfig.standard
        let r = GeocoderRequest(query: "  Aleksanterinkatu 52,\tHelsinki ", near: Coordinate(latitude: 60.1712, longitude: 24.9436),
                                config: n, language: "fi")
        #expect(r.url == "https://nominatim.openstreetmap.org/search?q=Aleksanterinkatu%2052%2C%20Helsinki&format=jsonv2"
            + "&addressdetails=1&limit=10&viewbox=24.4,60.7,25.4,59.7&bounded=0")
        #expect(GeocoderRequest.percentEncoded("Köln Hbf & co/#?=~") == "K%C3%B6ln%20Hbf%20%26%20co%2F%23%3F%3D~")
        // The same search folded: the same key; a view 10 km away: another.
        let again = GeocoderRequest(query: "aleksanterinkatu 52, HELSINKI", near: Coordinate(latitude: 60.18, longitude: 24.92),
                                    config: n, language: "fi")
        #expect(again.key == r.key)
        #expect(GeocoderRequest(query: "aleksanterinkatu 52, helsinki", near: Coordinate(latitude: 60.26, longitude: 24.94),
                                config: n, language: "fi").key != r.key)
        #expect(GeocoderRequest(query: "aleksanterinkatu 52, helsinki", near: nil, config: n, language: "fi").key != r.key)
        #expect(GeocoderRequest(query: "aleksanterinkatu 52, helsinki", near: Coordinate(latitude: 60.17, longitude: 24.94),
                                config: n, language: "en").key != r.key)
        let photon = GeocoderConfig(url: "http://127.0.0.1:2322", kind: .photon)
        let p = GeocoderRequest(query: "Berlin", near: Coordinate(latitude: -33.86, longitude: -0.04), config: photon, language: nil)
        #expect(p.url == "http://127.0.0.1:2322/api?q=Berlin&limit=10&lat=-33.9&lon=0.0")
        #expect(p.key != GeocoderRequest(query: "Berlin", near: Coordinate(latitude: -33.86, longitude: -0.04), config: n, language: nil).key)
        // An impossible place is no bias at all.
        #expect(!GeocoderRequest(query: "x", near: Coordinate(latitude: .nan, longitude: 1e308), config: n, language: nil).url.contains("viewbox"))
    }

    @Test func retryAfterIsSecondsOrADate() {
        #expect(HTTPFreshness.retryAfter("2", now: 0) == 2)
        #expect(HTTPFreshness.retryAfter(" 120 ", now: 0) == 120)
        let date = "Sun, 06 Nov 1994 08:49:37 GMT"
        let t = HTTPFreshness.parseDate(date)!
        #expect(HTTPFreshness.retryAfter(date, now: t - 5) == 5)
        #expect(HTTPFreshness.retryAfter(date, now: t + 5) == 0)
        #expect(HTTPFreshness.retryAfter("soon", now: 0) == nil)
        #expect(HTTPFreshness.retryAfter("-3", now: 0) == nil)
        #expect(HTTPFreshness.retryAfter("99999999999999999999", now: 0) == nil)
    }

    @Test func theGateSpacesStartsAndHonoursPauses() {
        let gate = ServiceGate()
        #expect(gate.claim(now: 100, interval: 1))
        #expect(!gate.claim(now: 100.4, interval: 1))
        #expect(abs(gate.delay(now: 100.4, interval: 1) - 0.6) < 1e-9)
        #expect(gate.claim(now: 101, interval: 1))
        gate.pause(until: 110)
        #expect(gate.isPaused(now: 105) && abs(gate.delay(now: 105, interval: 1) - 5) < 1e-9)
        #expect(!gate.claim(now: 109.9, interval: 1) && gate.claim(now: 110, interval: 1))
        // One service, one gate, however its address is written.
        #expect(ServiceGate.shared(for: "https://Nominatim.example.org/search") === ServiceGate.shared(for: "https://nominatim.example.org"))
        #expect(ServiceGate.shared(for: "https://a.example.org") !== ServiceGate.shared(for: "https://b.example.org"))
    }

    // MARK: Settings

    @Test func settingsFileChoosesTheServiceAndABrokenOneFallsBack() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geocoder-config-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = ["XDG_CONFIG_HOME": dir.path, "HOME": "/nonexistent"]
        let file = dir.appendingPathComponent("meridian/geocoder.json")
        #expect(GeocoderConfig.path(environment: env) == file.path)
        #expect(GeocoderConfig.path(environment: ["HOME": "/home/u"]) == "/home/u/.config/meridian/geocoder.json")
        let missing = GeocoderConfig.load(environment: env)
        #expect(missing.config == .standard && missing.problem == nil)
        #expect(missing.config.minimumInterval == 1 && missing.config.credit == "© OpenStreetMap contributors · Nominatim")

        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"url": "https://photon.example.org/", "kind": "photon"}"#.utf8).write(to: file)
        let photon = GeocoderConfig.load(environment: env)
        #expect(photon.problem == nil)
        #expect(photon.config == GeocoderConfig(url: "https://photon.example.org", kind: .photon, credit: "© OpenStreetMap contributors · Photon",
                                               minimumInterval: 0.5, enabled: true))

        try Data(#"{"url": "http://127.0.0.1:8080", "credit": "Our own Nominatim", "minimumInterval": 0, "enabled": false}"#.utf8).write(to: file)
        let own = GeocoderConfig.load(environment: env).config
        #expect(own.kind == .nominatim && own.minimumInterval == 0 && !own.enabled && own.credit == "Our own Nominatim")
        // OpenStreetMap's own instance is never asked more than once a second.
        try Data(#"{"url": "https://nominatim.openstreetmap.org", "minimumInterval": 0.1}"#.utf8).write(to: file)
        #expect(GeocoderConfig.load(environment: env).config.minimumInterval == 1)

        for (text, words) in [("{\"url\": ", "not valid JSON"), ("[1]", "not a JSON object"), (#"{"kind": "google"}"#, "\"kind\""),
                              (#"{"url": "ftp://x"}"#, "\"url\""), (#"{"minimumInterval": "1"}"#, "\"minimumInterval\""),
                              (#"{"enabled": 1}"#, "\"enabled\"")] {
            try Data(text.utf8).write(to: file)
            let broken = GeocoderConfig.load(environment: env)
            #expect(broken.config == .standard)
            let problem = try #require(broken.problem, "\(text)")
            #expect(problem.hasPrefix(file.path) && problem.contains(words) && problem.contains("Nominatim's public instance"), "\(problem)")
        }
    }

    @Test func languageComesFromTheLocale() {
        #expect(GeocoderConfig.language(environment: ["LANG": "fi_FI.UTF-8"]) == "fi")
        #expect(GeocoderConfig.language(environment: ["LANG": "fi_FI.UTF-8", "LC_ALL": "de_DE"]) == "de")
        #expect(GeocoderConfig.language(environment: ["LANG": "C.UTF-8"]) == nil)
        #expect(GeocoderConfig.language(environment: ["LANG": "POSIX"]) == nil)
        #expect(GeocoderConfig.language(environment: ["LANG": "", "LC_MESSAGES": "sv_FI@euro"]) == "sv")
        #expect(GeocoderConfig.language(environment: [:]) == nil)
    }
}
