import Foundation
import MapCore
import MapGeometry
@testable import MapSearch
import Testing
import TestSupport

/// Searching the embedded places (Resources/places.tsv) as a person types.
struct PlaceIndexTests {
    func first(_ query: String) -> PlaceIndex.Place? { realPlaces.search(query).first }

    @Test func theWholeFileIsRead() {
        #expect(realPlaces.places.count > 30_000 && realPlaces.skipped == 0)
    }

    static let table: [(String, String, String)] = [
        // Prefixes and whole names.
        ("zur", "Zürich", "Switzerland"),
        ("Zürich", "Zürich", "Switzerland"),
        ("ZURICH", "Zürich", "Switzerland"),
        ("lyo", "Lyon", "France"),
        // Diacritics either way.
        ("sao paulo", "São Paulo", "Brazil"),
        ("São Paulo", "São Paulo", "Brazil"),
        ("malmo", "Malmö", "Sweden"),
        ("kobenhavn", "Copenhagen", "Denmark"),
        ("krakow", "Kraków", "Poland"),
        ("reykjavik", "Reykjavík", "Iceland"),
        // Population ranks places of the same name.
        ("paris", "Paris", "France"),
        ("london", "London", "United Kingdom"),
        ("springfield", "Springfield", "United States"),
        // A word inside the name, and other names.
        ("paulo", "São Paulo", "Brazil"),
        ("york", "York", "United Kingdom"),
        ("new york", "New York City", "United States"),
        ("cologne", "Köln", "Germany"),
        ("wien", "Vienna", "Austria"),
        ("lisboa", "Lisbon", "Portugal"),
        ("firenze", "Florence", "Italy"),
    ]

    @Test(arguments: table)
    func findsWhatWasMeant(_ query: String, _ name: String, _ country: String) throws {
        let found = try #require(first(query), "nothing for \(query)")
        #expect(found.name == name && found.country == country, "\(query) → \(found.name), \(found.country)")
    }

    @Test func parisFranceComesBeforeParisTexas() throws {
        let results = realPlaces.search("paris")
        let france = try #require(results.firstIndex { $0.country == "France" })
        let texas = try #require(results.firstIndex { $0.country == "United States" })
        #expect(france < texas)
    }

    @Test func resultsAreFewAndDistinctAndEmptyForNonsense() {
        let s = realPlaces.search("s")
        #expect(s.count == 8 && Set(s.map(\.name)).count >= 7)
        #expect(realPlaces.search("qxzqxz").isEmpty && realPlaces.search("   ").isEmpty && realPlaces.search("").isEmpty)
    }

    @Test func zoomFitsThePlace() throws {
        #expect(try #require(first("tokyo")).zoom == 10)
        #expect(try #require(first("zurich")).zoom == 12)
    }

    @Test func damagedLinesAreSkipped() {
        let text = "# x\nC\tCH\tSwitzerland\nP\tBern\tCH\t133798\t46.9481\t7.4474\t\nP\tbad\tCH\tmany\t1\t2\t\nP\tNorth\tCH\t1\t95\t2\t\ngarbage\n"
        let index = PlaceIndex(reading: Data(text.utf8))
        #expect(index.places.map(\.name) == ["Bern"] && index.skipped == 3)
        #expect(index.search("bern").first?.country == "Switzerland")
    }
}
