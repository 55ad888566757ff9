import MapCore
@testable import MapStyle
import MapTiles
import Testing

/// Legacy filters and functions, as old styles (OSM Bright's) write them.
struct LegacyTests {
    static let motorway = Fixture.feature(.lineString, id: 7, ["class": .string("motorway"), "name": .string("A1"), "rank": .int(3)])
    static let lake = Fixture.feature(.polygon, ["class": .string("lake"), "intermittent": .int(0)])
    static let town = Fixture.feature(.point, ["class": .string("town"), "rank": .string("3")])

    static let filters: [(String, [Bool])] = [  // motorway, lake, town
        (#"["==", "$type", "LineString"]"#, [true, false, false]),
        (#"["!=", "$type", "Polygon"]"#, [true, false, true]),
        (#"["in", "$type", "Point", "Polygon"]"#, [false, true, true]),
        (#"["==", "class", "motorway"]"#, [true, false, false]),
        (#"["!=", "class", "motorway"]"#, [false, true, true]),
        (#"["in", "class", "motorway", "trunk", "lake"]"#, [true, true, false]),
        (#"["!in", "class", "motorway", "trunk"]"#, [false, true, true]),
        (#"["has", "name"]"#, [true, false, false]),
        (#"["!has", "name"]"#, [false, true, true]),
        (#"["has", "$id"]"#, [true, false, false]),
        (#"["==", "$id", 7]"#, [true, false, false]),
        // Strictly typed: the town's rank is the string "3".
        (#"["<=", "rank", 3]"#, [true, false, false]),
        (#"["==", "rank", "3"]"#, [false, false, true]),
        (#"["==", "intermittent", 0]"#, [false, true, false]),
        (#"["all", ["==", "$type", "LineString"], ["in", "class", "motorway"]]"#, [true, false, false]),
        (#"["any", ["==", "class", "lake"], ["==", "class", "town"]]"#, [false, true, true]),
        (#"["none", ["==", "class", "lake"], ["==", "class", "town"]]"#, [true, false, false]),
        (#"["all"]"#, [true, true, true]),
        (#"["==", "name", null]"#, [false, false, false]),
        // Expression filters, told apart as MapLibre does.
        (#"["==", ["get", "class"], "lake"]"#, [false, true, false]),
        (#"["in", ["get", "class"], ["literal", ["town", "lake"]]]"#, [false, true, true]),
        (#"["match", ["geometry-type"], ["LineString", "MultiLineString"], true, false]"#, [true, false, false]),
        (#"["all", ["==", "$type", "Point"], ["match", ["get", "class"], "town", true, false]]"#, [false, false, true]),
        (#"["get", "class"]"#, [false, false, false]),
    ]

    @Test(arguments: filters.indices) func filters(_ i: Int) throws {
        let (json, expected) = Self.filters[i]
        let filter = try LegacyFilter.compile(Fixture.json(json), path: "filter")
        let got = [Self.motorway, Self.lake, Self.town].map { filter.evaluate(Fixture.context(10, $0)) == .bool(true) }
        #expect(got == expected, "\(json)")
    }

    @Test func expressionFilterDetection() throws {
        let table: [(String, Bool)] = [
            (#"["==", "class", "x"]"#, false), (#"["==", ["get", "class"], "x"]"#, true),
            (#"["in", "class", "a", "b"]"#, false), (#"["in", "a", ["get", "x"]]"#, true),
            (#"["has", "name"]"#, true), (#"["has", "$type"]"#, false), (#"["!has", "name"]"#, false),
            (#"["all", ["==", "a", 1]]"#, false), (#"["all", ["==", ["get", "a"], 1], true]"#, true),
            (#"true"#, true), (#"["match", ["get", "a"], "x", true, false]"#, true),
        ]
        for (json, expected) in table { #expect(try LegacyFilter.isExpressionFilter(Fixture.json(json)) == expected, "\(json)") }
    }

    /// {"stops": …} functions of the zoom, of a property, and of both.
    @Test func functions() throws {
        let layer = try Fixture.layer("""
        {"id": "l", "type": "line", "source": "v", "source-layer": "transportation",
         "layout": {"line-cap": {"stops": [[5, "butt"], [10, "round"]]}},
         "paint": {
           "line-width": {"stops": [[5, 1], [10, 2]]},
           "line-gap-width": {"base": 2, "stops": [[10, 1], [12, 4]]},
           "line-color": {"property": "class", "type": "categorical", "stops": [["motorway", "#f00"], ["trunk", "#0f0"]], "default": "#00f"},
           "line-offset": {"property": "rank", "type": "interval", "stops": [[0, 0], [3, 10], [5, 20]]},
           "line-blur": {"property": "rank", "stops": [[{"zoom": 0, "value": 0}, 0], [{"zoom": 0, "value": 10}, 10],
                                                       [{"zoom": 10, "value": 0}, 0], [{"zoom": 10, "value": 10}, 20]]},
           "line-opacity": {"property": "opacity", "type": "identity", "default": 0.5}
         }}
        """)
        let z = { (zoom: Double, f: VectorTile.Feature?) in Fixture.context(zoom, f) }
        #expect(layer.number("line-width", z(7.5, nil)) == 1.5)
        #expect(layer.number("line-width", z(2, nil)) == 1)
        #expect(layer.number("line-width", z(20, nil)) == 2)
        #expect(abs(layer.number("line-gap-width", z(11, nil)) - 2) < 1e-12)
        #expect(layer.string("line-cap", z(9.9, nil)) == "butt")
        #expect(layer.string("line-cap", z(10, nil)) == "round")
        #expect(layer.color("line-color", z(10, Self.motorway)) == Color(r: 1, g: 0, b: 0))
        #expect(layer.color("line-color", z(10, Self.lake)) == Color(r: 0, g: 0, b: 1))
        #expect(layer.number("line-offset", z(10, Self.motorway)) == 10)
        #expect(layer.number("line-offset", z(10, Fixture.feature(.lineString, ["rank": .int(9)]))) == 20)
        #expect(layer.number("line-offset", z(10, Fixture.feature(.lineString, ["rank": .int(-1)]))) == 0)
        // rank 3 at z5: 3 at z0, 6 at z10, halfway between.
        #expect(abs(layer.number("line-blur", z(5, Self.motorway)) - 4.5) < 1e-12)
        #expect(layer.number("line-opacity", z(5, Self.motorway)) == 0.5)
        #expect(layer.number("line-opacity", z(5, Fixture.feature(.lineString, ["opacity": .double(0.25)]))) == 0.25)
        #expect(!layer.isConstant("line-width") && layer.isFeatureConstant("line-width"))
        #expect(!layer.isFeatureConstant("line-color"))
        #expect(layer.isConstant("line-dasharray"))
    }

    @Test func textFieldTokens() throws {
        let layer = try Fixture.layer("""
        {"id": "label", "type": "symbol", "source": "v", "source-layer": "place",
         "layout": {"text-field": "{name:latin}\\n{name:nonlatin}", "icon-image": "{class}_11"}}
        """)
        let berlin = Fixture.feature(.point, ["name:latin": .string("Berlin"), "class": .string("city")])
        #expect(layer.text(Fixture.context(5, berlin)) == "Berlin")
        #expect(layer.string("icon-image", Fixture.context(5, berlin)) == "city_11")
        let both = Fixture.feature(.point, ["name:latin": .string("Moskva"), "name:nonlatin": .string("Москва")])
        #expect(layer.text(Fixture.context(5, both)) == "Moskva\nМосква")
        #expect(layer.text(Fixture.context(5, Fixture.feature(.point))) == nil)
        let plain = try Fixture.layer(#"{"id": "p", "type": "symbol", "source": "v", "layout": {"text-field": "{name_en} road"}}"#)
        #expect(plain.text(Fixture.context(5, Fixture.feature(.point, ["name_en": .string("Ring")]))) == "Ring road")
        let formatted = try Fixture.layer("""
        {"id": "f", "type": "symbol", "source": "v", "layout": {"text-field": ["format", ["get", "ref"], {}, " ", {}, ["image", "x"], {}, ["get", "name"], {"font-scale": 0.8}]}}
        """)
        #expect(formatted.text(Fixture.context(5, Fixture.feature(.point, ["ref": .string("A1"), "name": .string("Nord")]))) == "A1 Nord")
    }
}
