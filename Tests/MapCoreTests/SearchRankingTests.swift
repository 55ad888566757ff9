import Foundation
@testable import MapChrome
@testable import MapCore
import MapGeometry
@testable import MapSearch
import Testing
import TestSupport

/// How results of every finder are ordered, folded and described, and the search box with
/// street results and an online geocoder behind it.
struct SearchRankingTests {
    static let kluuvi = Coordinate(latitude: 60.1708, longitude: 24.9473)

    func result(_ name: String, _ category: SearchResult.Category, at c: Coordinate = kluuvi, match: Double? = nil,
                line: [[Coordinate]] = [], origin: SearchResult.Origin = .offline("map")) -> SearchResult {
        SearchResult(name: name, category: category, coordinate: c, line: line, origin: origin,
                     match: match ?? SearchRanking.match(query: "x", name: "x")!)
    }

    @Test func keysFoldCaseDiacriticsPunctuationAndRepeatedLetters() {
        #expect(SearchText.fold("Töölönkatu") == "toolonkatu")
        #expect(SearchText.key("Töölönkatu") == "tolonkatu")
        #expect(SearchText.key("tolonkatu") == "tolonkatu")
        #expect(SearchText.fold("Rue de l'Église, Saint-Étienne") == "rue de leglise saint etienne")
        #expect(SearchText.fold("Straße") == "strasse")
        #expect(SearchText.fold("  Ǻngström  ") == "angstrom")
        // Decomposed marks are dropped as precomposed ones are.
        #expect(SearchText.fold("Cafe\u{301}") == "cafe")
        // House numbers keep their digits (11 is not 1).
        #expect(SearchText.key("Mannerheimintie 11") == "manerheimintie 11")
        // Scripts without case or a table pass through.
        #expect(SearchText.fold("شارع") == "شارع")
    }

    @Test func theWholeNameBeatsItsStartBeatsAWordBeatsLettersInside() {
        func m(_ q: String, _ n: String) -> Double? { SearchRanking.match(query: SearchText.key(q), name: SearchText.key(n)) }
        #expect(m("kluuvi", "Kluuvi") == 6)
        #expect(m("kluuvi", "Kluuvikatu")! < 6 && m("kluuvi", "Kluuvikatu")! >= 5)
        #expect(m("katu", "Eero Erkon katu") == 4)
        #expect(m("erk", "Eero Erkon katu") == 3)
        #expect(m("sanka", "Aleksanterinkatu") == nil, "not letters of the name in another order")
        #expect(m("terin", "Aleksanterinkatu") == 1)
        #expect(m("x", "") == nil)
    }

    @Test func aTownComesBeforeAStreetBeforeACafeOfTheSameName() {
        let far = Coordinate(latitude: 61.5, longitude: 23.8)
        let ranked = SearchRanking.merge([[result("Hämeenlinna", .poi), result("Hämeenlinna", .street, at: far)],
                                          [result("Hämeenlinna", .town, at: far)]], near: Self.kluuvi, limit: 5)
        #expect(ranked.map(\.category) == [.town, .street, .poi])
    }

    @Test func theNearerOfTwoAlikeComesFirstAndTheSameThingOnce() {
        let a = result("Kirkkokatu", .street, at: Coordinate(latitude: 60.4667, longitude: 26.9458))
        let b = result("Kirkkokatu", .street, at: Coordinate(latitude: 60.1708, longitude: 24.9523))
        #expect(SearchRanking.merge([[a, b]], near: Self.kluuvi, limit: 5).map(\.coordinate) == [b.coordinate, a.coordinate])
        #expect(SearchRanking.merge([[a, b]], near: Coordinate(latitude: 60.47, longitude: 26.95), limit: 5).first?.coordinate == a.coordinate)
        // Found in two overlapping maps (or built in and in the tiles): once.
        let twice = SearchRanking.merge([[b], [result("Kirkkokatu", .street, at: Coordinate(latitude: 60.1709, longitude: 24.9524))]],
                                        near: nil, limit: 5)
        #expect(twice.count == 1)
    }

    @Test func nearnessCountsByTheViewsScale() {
        #expect(SearchRanking.nearness(zoom: nil) == SearchRanking.nearness(zoom: 16), "a bare point is asked as from a street")
        #expect(SearchRanking.nearness(zoom: 10) == SearchRanking.nearness(zoom: 18))
        #expect(SearchRanking.nearness(zoom: 3) == SearchRanking.nearness(zoom: 5) && SearchRanking.nearness(zoom: 0) == SearchRanking.nearness(zoom: 5))
        #expect(SearchRanking.nearness(zoom: 5) < SearchRanking.nearness(zoom: 7.5) && SearchRanking.nearness(zoom: 7.5) < SearchRanking.nearness(zoom: 10))
        #expect(SearchRanking.nearness(zoom: .nan) == SearchRanking.nearness(zoom: nil))
        // Across a continent nearness never outweighs a step of kind, but still orders things alike.
        let kotka = result("Kirkkokatu", .street, at: Coordinate(latitude: 60.4667, longitude: 26.9458))
        let helsinki = result("Kirkkokatu", .street, at: Coordinate(latitude: 60.1708, longitude: 24.9523))
        #expect(SearchRanking.merge([[kotka, helsinki]], near: Self.kluuvi, zoom: 3, limit: 5).first?.coordinate == helsinki.coordinate)
        let far = Coordinate(latitude: -33.9, longitude: 18.4)
        let town = SearchResult(name: "Kirkkonummi", category: .town, coordinate: far, origin: .builtIn, match: 5)
        let street = SearchResult(name: "Kirkkokatu", category: .street, coordinate: Self.kluuvi, origin: .offline("map"), match: 5)
        #expect(SearchRanking.merge([[street, town]], near: Self.kluuvi, zoom: 4, limit: 5).first?.name == "Kirkkonummi")
        #expect(SearchRanking.merge([[street, town]], near: Self.kluuvi, zoom: 15, limit: 5).first?.name == "Kirkkokatu")
    }

    /// Issue 54: "zur" and Enter over a continent flew to Zuru, Nigeria (24,000 people),
    /// nearer to 0°, 0° than Zürich. With the built-in places the app ships: across a
    /// continent or the world the city comes first, wherever the view is and whatever lies
    /// in it; over Zuru's own streets, Zuru.
    @Test func zurIsZurichAcrossAContinentAndZuruOverZuru() {
        func first(_ lat: Double, _ lon: Double, zoom: Double) -> String {
            let r = realPlaces.search("zur", near: Coordinate(latitude: lat, longitude: lon), zoom: zoom, limit: 8).first
            return (r?.name ?? "nothing") + ", " + (r?.area ?? "")
        }
        #expect(realPlaces.places.count > 30_000, "the real places")
        for zoom in stride(from: 0.0, through: 5, by: 0.5) {
            #expect(first(0, 0, zoom: zoom) == "Zürich, Switzerland", "z\(zoom) at 0°, 0°")
        }
        #expect(first(50, 10, zoom: 4) == "Zürich, Switzerland", "z4 over Europe")
        // Zuru in view, Zürich not: a continent's view still answers by importance.
        #expect(first(5, 20, zoom: 3) == "Zürich, Switzerland", "z3 over Africa")
        #expect(first(11.4352, 5.2349, zoom: 5) == "Zürich, Switzerland", "z5 centred on Zuru")
        // A city's view or closer: what is near is meant.
        #expect(first(11.4352, 5.2349, zoom: 12) == "Zuru, Nigeria", "z12 over Zuru")
        #expect(first(12.45, 4.2, zoom: 10) == "Zuru, Nigeria", "z10 over Birnin Kebbi, 160 km away")
        // Near Zürich, at any scale, Zürich.
        #expect(first(47.37, 8.54, zoom: 3) == "Zürich, Switzerland" && first(47.37, 8.54, zoom: 14) == "Zürich, Switzerland")
    }

    @Test func aRowSaysWhatWhereAndHowFar() {
        var r = result("Aleksanterinkatu", .street, at: Coordinate(latitude: 60.1690, longitude: 24.9490))
        r.area = "Kluuvi"
        let from = Coordinate(latitude: 60.1670, longitude: 24.9440)
        #expect(SearchRanking.detail(r, from: from, imperial: false) == "street · Kluuvi, 355 m NE")
        #expect(SearchRanking.detail(r, from: nil, imperial: false) == "street · Kluuvi")
        var online = result("Helsinki Cathedral", .poi, origin: .online(credit: "© OpenStreetMap contributors · Nominatim"))
        online.what = "cathedral"
        #expect(SearchRanking.detail(online, from: nil, imperial: false) == "online · cathedral")
        // A coordinate that is no place says no distance, and no trap.
        #expect(SearchRanking.distanceText(from: Coordinate(latitude: .nan, longitude: 0), to: from, imperial: false) == "")
    }
}

/// A finder with fixed answers, counting the questions.
final class FixedFinder: PlaceSearching, @unchecked Sendable {
    let answers: [SearchResult]
    init(_ answers: [SearchResult]) { self.answers = answers }
    func search(_ query: String, near: Coordinate?, zoom: Double?, limit: Int) -> [SearchResult] {
        let key = SearchText.key(query)
        return answers.filter { SearchRanking.match(query: key, name: SearchText.key($0.name)) != nil }.prefix(limit).map { $0 }
    }
}

struct SearchBoxTests {
    static let street = SearchResult(name: "Aleksanterinkatu", category: .street, area: "Kluuvi",
                                     coordinate: Coordinate(latitude: 60.1690, longitude: 24.9490),
                                     line: [[Coordinate(latitude: 60.1688, longitude: 24.9400), Coordinate(latitude: 60.1692, longitude: 24.9560)]],
                                     origin: .offline("Helsinki"), match: 5)
    static let shop = SearchResult(name: "Stockmann", category: .poi, what: "department store",
                                   coordinate: Coordinate(latitude: 60.1683, longitude: 24.9421), origin: .offline("Helsinki"), match: 6)

    func driver(online: Bool = true) -> SessionDriver {
        var layer = SearchLayer(searcher: FixedFinder([Self.street, Self.shop]))
        if online { layer.onlineCredit = "© OpenStreetMap contributors · Nominatim" }
        return SessionDriver(layers: Scene.standardLayers + [layer], zoom: 15, center: Coordinate(latitude: 60.17, longitude: 24.944))
    }

    func box(_ s: SessionDriver) -> SearchLayer { s.session.scene.layer(SearchLayer.self)! }

    @Test func enterOnAStreetShowsItWholeWithItsLine() {
        var s = driver()
        _ = s.key(.letter("f"), .control)
        _ = s.type("aleks")
        #expect(box(s).results.map(\.name) == ["Aleksanterinkatu"])
        let rows = box(s).rows(imperial: false)
        #expect(rows.first?.detail?.hasPrefix("street · Kluuvi, ") == true, "\(rows)")
        #expect(rows.contains { $0.text.hasPrefix("Search online") }, "the row that asks online")
        let effects = s.key(.enter)
        #expect(!effects.contains { if case .searchOnline = $0 { return true } else { return false } })
        #expect(box(s).marker?.line.count == 1)
        let overlays = s.session.tileOverlays.make().compactMap { $0 as? LineOverlay }
        #expect(overlays.count == 1, "the street's line goes into the tiles")
        // The view flies to the whole street: its ends on screen at the end.
        s.t += 10
        _ = s.frame()
        for end in Self.street.line[0] {
            let p = s.session.camera.screenPoint(for: end)
            #expect(p.x > 0 && p.x < 800 && p.y > 0 && p.y < 600, "\(p)")
        }
    }

    @Test func theGeocoderIsAskedOnlyOnEnterAndItsAnswerJoinsMarked() {
        var s = driver()
        _ = s.key(.letter("f"), .control)
        var asked: [SessionEffect] = []
        for ch in "tuomiokirkko" {
            asked += s.type(String(ch)).filter { if case .searchOnline = $0 { return true } else { return false } }
        }
        #expect(asked.isEmpty, "no request per keystroke")
        #expect(box(s).results.isEmpty)
        // Nothing offline: Enter asks, once, however often pressed while it is asked.
        let first = s.key(.enter), second = s.key(.enter)
        #expect(first.contains { if case .searchOnline("tuomiokirkko", _) = $0 { return true } else { return false } })
        #expect(!second.contains { if case .searchOnline = $0 { return true } else { return false } })
        #expect(box(s).rows(imperial: false).contains { $0.text == "Searching online…" })
        let cathedral = SearchResult(name: "Helsingin tuomiokirkko", category: .poi, what: "cathedral",
                                     coordinate: Coordinate(latitude: 60.1705, longitude: 24.9522), origin: .online(credit: "© OpenStreetMap contributors · Nominatim"), match: 4)
        s.session.update(SearchLayer.self, at: s.t) { $0.setOnline(query: "tuomiokirkko", .success([cathedral])) }
        #expect(box(s).results.map(\.name) == ["Helsingin tuomiokirkko"])
        let rows = box(s).rows(imperial: false)
        #expect(rows.first?.detail?.hasPrefix("online · ") == true)
        #expect(rows.contains { $0.text == "Online results: © OpenStreetMap contributors · Nominatim" }, "the data's credit")
        _ = s.key(.enter)
        #expect(box(s).marker?.title == "Helsingin tuomiokirkko")
    }

    @Test func anAnswerIsChosenOnArrivalAndAReplacedQuestionStopsTheWait() {
        var s = driver()
        _ = s.key(.letter("f"), .control)
        _ = s.type("aleksanterinkatu 52")
        #expect(box(s).results.isEmpty)
        _ = s.key(.enter)
        let online = SearchResult(name: "Aleksanterinkatu 52", category: .address, coordinate: Coordinate(latitude: 60.1687, longitude: 24.9419),
                                  origin: .online(credit: "c"), match: 6)
        s.session.update(SearchLayer.self, at: s.t) { $0.setOnline(query: "aleksanterinkatu 52", .success([online])) }
        #expect(box(s).results.indices.contains(box(s).selection) && box(s).results[box(s).selection].isOnline)
        // Asked again (another query), then replaced before it was sent: the box waits no more.
        _ = s.type("x")
        _ = s.key(.enter)
        #expect(box(s).online == .asking("aleksanterinkatu 52x"))
        s.session.update(SearchLayer.self, at: s.t) { $0.setOnline(query: "aleksanterinkatu 52x", .failure(.init("", superseded: true))) }
        #expect(box(s).online == .idle)
        #expect(!box(s).rows(imperial: false).contains { $0.text == "Searching online…" })
        // Closing drops a question still out.
        _ = s.key(.enter)
        _ = s.key(.escape)
        #expect(box(s).online == .idle)
    }

    @Test func noNetworkIsSaidOnceAndFailuresAreShown() {
        var s = driver()
        _ = s.key(.letter("f"), .control)
        _ = s.type("nowhere")
        _ = s.key(.enter)
        s.session.update(SearchLayer.self, at: s.t) { $0.setOnline(query: "nowhere", .failure(.init("cannot connect", offline: true))) }
        #expect(box(s).rows(imperial: false).contains { $0.text == "No network: offline results only" && $0.warning })
        _ = s.type("x")
        _ = s.key(.enter)
        s.session.update(SearchLayer.self, at: s.t) { $0.setOnline(query: "nowherex", .failure(.init("cannot connect", offline: true))) }
        #expect(!box(s).rows(imperial: false).contains { $0.text.hasPrefix("No network") }, "said once")
        _ = s.key(.enter)
        s.session.update(SearchLayer.self, at: s.t) { $0.setOnline(query: "nowherex", .failure(.init("The geocoder is busy; try again in 30 s"))) }
        #expect(box(s).rows(imperial: false).contains { $0.text == "The geocoder is busy; try again in 30 s" })
        // An answer to a query no longer in the box is not shown.
        _ = s.key(.backspace)
        #expect(s.session.scene.layer(SearchLayer.self)!.setOnlineIgnored(query: "stale"))
    }

    @Test func indexingIsSaidInTheListAndUnderTheClosedBox() {
        var s = driver()
        s.session.update(SearchLayer.self, at: s.t) { $0.indexing = "Indexing Helsinki… 40 %"; return [.changed] }
        var list = s.frame()
        #expect(list.wantedSprites.contains(.text("Indexing Helsinki… 40 %", .callout)) ||
                list.spriteCommands.contains { $0.0 == .text("Indexing Helsinki… 40 %", .callout) }, "under the closed box")
        _ = s.key(.letter("f"), .control)
        _ = s.type("stock")
        #expect(box(s).rows(imperial: false).last?.text == "Indexing Helsinki… 40 %")
        s.session.update(SearchLayer.self, at: s.t) { $0.indexing = nil; return [.changed] }
        list = s.frame()
        #expect(!box(s).rows(imperial: false).contains { $0.text.hasPrefix("Indexing") })
    }

    @Test func withoutAGeocoderThereIsNoOnlineRow() {
        var s = driver(online: false)
        _ = s.key(.letter("f"), .control)
        _ = s.type("zzz")
        #expect(box(s).rows(imperial: false).map(\.text) == ["No place of that name"])
        #expect(s.key(.enter).allSatisfy { if case .searchOnline = $0 { return false } else { return true } })
    }
}

extension SearchLayer {
    /// Whether an answer to `query`, never asked, changes nothing.
    func setOnlineIgnored(query: String) -> Bool {
        var copy = self
        return copy.setOnline(query: query, .success([])).isEmpty && copy.results == results
    }
}
