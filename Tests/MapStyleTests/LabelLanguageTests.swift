import Foundation
import MapCore
@testable import MapStyle
import MapTiles
import Testing

/// Labels in the reader's language: a text field that reads a name reads `name:LL` first
/// ("mine"), or both names ("both"); one that reads no name, or the local mode, is untouched.
@Suite struct LabelLanguageTests {
    static let street = Fixture.feature(.lineString, ["name": .string("Aleksanterinkatu"), "name:latin": .string("Aleksanterinkatu"),
                                                "name:sv": .string("Alexandersgatan"), "name_en": .string("Aleksanterinkatu")])
    static let finnishOnly = Fixture.feature(.lineString, ["name": .string("Kaivokatu"), "name:latin": .string("Kaivokatu")])
    static let sameInBoth = Fixture.feature(.lineString, ["name": .string("Esplanadi"), "name:latin": .string("Esplanadi"), "name:sv": .string("Esplanadi")])

    static func style(_ field: String, _ labels: LabelLanguage) throws -> StyleLayer {
        let json = #"{"version": 8, "sources": {"v": {"type": "vector", "url": "x"}}, "layers": [{"id": "t", "type": "symbol", "source": "v", "source-layer": "transportation_name", "layout": {"text-field": \#(field)}}]}"#
        return try #require(try MapStyle(json: Data(json.utf8), labels: labels).layers.first)
    }

    @Test(arguments: [#""{name:latin}""#, #""{name:latin}\n{name:nonlatin}""#, #"["get", "name"]"#,
                      #"["coalesce", ["get", "name_en"], ["get", "name"]]"#, #"["format", ["get", "name"], {}]"#])
    func eachNameFieldReadsTheReadersLanguage(field: String) throws {
        let sv = LabelLanguage(mode: .mine, languages: ["sv"])
        let mine = try Self.style(field, sv)
        #expect(mine.text(Fixture.context(15, Self.street)) == "Alexandersgatan")
        #expect(mine.text(Fixture.context(15, Self.finnishOnly)) == "Kaivokatu")
        let local = try Self.style(field, LabelLanguage(mode: .local, languages: ["sv"]))
        #expect(local.text(Fixture.context(15, Self.street)) == "Aleksanterinkatu")
        let both = try Self.style(field, LabelLanguage(mode: .both, languages: ["sv"]))
        #expect(both.text(Fixture.context(15, Self.street)) == "Alexandersgatan\nAleksanterinkatu")
        #expect(both.text(Fixture.context(15, Self.finnishOnly)) == "Kaivokatu")
        #expect(both.text(Fixture.context(15, Self.sameInBoth)) == "Esplanadi")
    }

    @Test func languagesAreTriedInTurnAndOtherFieldsAreLeftAlone() throws {
        let deSv = LabelLanguage(mode: .mine, languages: ["de", "sv"])
        #expect(try Self.style(#""{name}""#, deSv).text(Fixture.context(15, Self.street)) == "Alexandersgatan")
        // A house number or a ref is no name: untouched.
        let number = Fixture.feature(.point, ["housenumber": .string("52"), "name:sv": .string("X")])
        #expect(try Self.style(#""{housenumber}""#, deSv).text(Fixture.context(15, number)) == "52")
        // No language known (the C locale): nothing is rewritten.
        #expect(!LabelLanguage(mode: .mine, languages: []).rewrites)
    }

    /// Protomaps' tiles (scripts/make-styles.py's protomaps.json reads `["get", "name"]`) name
    /// places in `name:xx`, Chinese by script and Norwegian as `name:no`: a reader of sv, zh or
    /// nb gets theirs.
    @Test func protomapsNamesAreTheReadersToo() throws {
        let road = Fixture.feature(.lineString, ["kind": .string("major_road"), "name": .string("Aleksanterinkatu"),
                                                 "name:sv": .string("Alexandersgatan"), "name:zh-Hans": .string("亚历山大街"),
                                                 "name:no": .string("Aleksandergata")])
        let field = #"["get", "name"]"#
        #expect(try Self.style(field, LabelLanguage(mode: .mine, languages: ["sv"])).text(Fixture.context(15, road)) == "Alexandersgatan")
        #expect(try Self.style(field, LabelLanguage(mode: .mine, languages: ["zh"])).text(Fixture.context(15, road)) == "亚历山大街")
        #expect(try Self.style(field, LabelLanguage(mode: .mine, languages: ["nb"])).text(Fixture.context(15, road)) == "Aleksandergata")
        #expect(try Self.style(field, LabelLanguage(mode: .both, languages: ["sv"])).text(Fixture.context(15, road))
                == "Alexandersgatan\nAleksanterinkatu")
        // A language the tiles lack: the local name.
        #expect(try Self.style(field, LabelLanguage(mode: .mine, languages: ["de"])).text(Fixture.context(15, road)) == "Aleksanterinkatu")
    }
}
