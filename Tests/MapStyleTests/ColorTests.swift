import MapCore
@testable import MapStyle
import Testing

struct ColorTests {
    static let table: [(String, Color?)] = [
        ("#f00", Fixture.rgba(255, 0, 0)),
        ("#F00", Fixture.rgba(255, 0, 0)),
        ("#f008", Fixture.rgba(255, 0, 0, 0x88 / 255.0)),
        ("#00ff00", Fixture.rgba(0, 255, 0)),
        ("#0000ff80", Fixture.rgba(0, 0, 255, 128 / 255.0)),
        ("rgb(255, 128, 0)", Fixture.rgba(255, 128, 0)),
        ("rgba(255,128,0,0.5)", Fixture.rgba(255, 128, 0, 0.5)),
        ("rgb(100%, 50%, 0%)", Fixture.rgba(255, 127.5, 0)),
        ("rgba(0, 0, 0, 0.25)", Fixture.rgba(0, 0, 0, 0.25)),
        ("rgb(300, -5, 0)", Fixture.rgba(255, 0, 0)),
        ("hsl(0, 100%, 50%)", Fixture.rgba(255, 0, 0)),
        ("hsl(120, 100%, 25%)", Fixture.rgba(0, 127.5, 0)),
        ("hsla(240, 100%, 50%, 0.5)", Fixture.rgba(0, 0, 255, 0.5)),
        ("hsl(35, 5%, 92%)", Fixture.rgba(235.62, 234.77, 233.58)),
        ("red", Fixture.rgba(255, 0, 0)),
        ("RebeccaPurple", Fixture.rgba(102, 51, 153)),
        ("grey", Fixture.rgba(128, 128, 128)),
        ("transparent", Color(r: 0, g: 0, b: 0, a: 0)),
        ("", nil), ("nope", nil), ("#12345", nil), ("#ggg", nil), ("rgb(1, 2)", nil), ("rgb(1, 2%, 3)", nil),
        ("hsl(0, 1, 1)", nil), ("rgba(1,2,3)", nil), ("rgb(nan, 0, 0)", nil), ("rgb(inf, 0, 0)", nil),
    ]

    @Test(arguments: table.indices) func parse(_ i: Int) {
        let (text, expected) = Self.table[i]
        #expect(Fixture.close(CSSColor.parse(text), expected), "\(text)")
    }
}
