import MapCore
@testable import MapStyle
import MapTiles
import Testing

/// Expressions against the results the MapLibre style spec documents for them.
struct ExpressionTests {
    static let road = Fixture.feature(.lineString, id: 42, ["class": .string("trunk"), "name": .string("A1"),
                                                             "rank": .int(5), "oneway": .int(1), "height": .double(12.5)])

    static let table: [(String, Double, StyleValue)] = [
        // interpolate: linear at the midpoint; exponential base 2 as the spec's formula gives it.
        (#"["interpolate", ["linear"], ["zoom"], 0, 0, 10, 100]"#, 5, .number(50)),
        (#"["interpolate", ["linear"], ["zoom"], 0, 0, 10, 100]"#, -3, .number(0)),
        (#"["interpolate", ["linear"], ["zoom"], 0, 0, 10, 100]"#, 30, .number(100)),
        (#"["interpolate", ["exponential", 2], ["zoom"], 0, 0, 2, 3]"#, 1, .number(1)),
        (#"["interpolate", ["exponential", 2], ["zoom"], 10, 1, 12, 4]"#, 11, .number(2)),
        (#"["interpolate", ["exponential", 1e300], ["zoom"], 0, 1, 10, 2]"#, 5, .number(1)),
        (#"["interpolate", ["cubic-bezier", 0, 0, 1, 1], ["zoom"], 0, 0, 10, 10]"#, 5, .number(5)),
        // cubic-bezier is the animations' TimingCurve: ease-in-out is symmetric, ease-in slow at first.
        (#"["interpolate", ["cubic-bezier", 0.42, 0, 0.58, 1], ["zoom"], 0, 0, 10, 10]"#, 5, .number(5)),
        (#"["interpolate", ["cubic-bezier", 0.42, 0, 1, 1], ["zoom"], 0, 0, 10, 10]"#, 5, .number(10 * TimingCurve.easeIn.value(at: 0.5))),
        (#"["interpolate", ["linear"], ["zoom"], 0, ["literal", [0, 10]], 10, ["literal", [10, 20]]]"#, 5, .array([.number(5), .number(15)])),
        // step: a stop's own input takes its output.
        (#"["step", ["zoom"], "a", 5, "b", 10, "c"]"#, 4.99, .string("a")),
        (#"["step", ["zoom"], "a", 5, "b", 10, "c"]"#, 5, .string("b")),
        (#"["step", ["zoom"], "a", 5, "b", 10, "c"]"#, 9.99, .string("b")),
        (#"["step", ["zoom"], "a", 5, "b", 10, "c"]"#, 10, .string("c")),
        // match, with a list of labels; case; coalesce skipping nulls.
        (#"["match", ["get", "class"], ["motorway", "trunk"], 1, "primary", 2, 0]"#, 0, .number(1)),
        (#"["match", ["get", "missing"], ["motorway", "trunk"], 1, "primary", 2, 0]"#, 0, .number(0)),
        (#"["match", ["get", "rank"], [4, 5], "mid", "other"]"#, 0, .string("mid")),
        (#"["case", [">", ["get", "rank"], 3], "big", "small"]"#, 0, .string("big")),
        (#"["case", ["has", "nope"], "has", ["==", ["get", "class"], "trunk"], "trunk", "neither"]"#, 0, .string("trunk")),
        (#"["coalesce", ["get", "nope"], ["get", "name"], "x"]"#, 0, .string("A1")),
        (#"["coalesce", ["get", "nope"], null]"#, 0, .null),
        // Conversions, with JavaScript's texts.
        (#"["to-number", "1e3"]"#, 0, .number(1000)),
        (#"["to-number", " 12 "]"#, 0, .number(12)),
        (#"["to-number", "x", "7"]"#, 0, .number(7)),
        (#"["to-number", "nan"]"#, 0, .null),
        (#"["to-number", null]"#, 0, .number(0)),
        (#"["to-string", 1]"#, 0, .string("1")),
        (#"["to-string", 1.5]"#, 0, .string("1.5")),
        (#"["to-string", -0.25]"#, 0, .string("-0.25")),
        (#"["to-string", true]"#, 0, .string("true")),
        (#"["to-string", null]"#, 0, .string("")),
        (#"["to-string", ["get", "rank"]]"#, 0, .string("5")),
        (#"["to-boolean", ""]"#, 0, .bool(false)),
        (#"["to-boolean", "0"]"#, 0, .bool(true)),
        (#"["to-boolean", 0]"#, 0, .bool(false)),
        (#"["concat", "a", 1, true, ["get", "name"]]"#, 0, .string("a1trueA1")),
        (#"["concat", "x", ["get", "nope"]]"#, 0, .string("x")),
        // in: strings and arrays.
        (#"["in", "ot", "motorway"]"#, 0, .bool(true)),
        (#"["in", "x", "motorway"]"#, 0, .bool(false)),
        (#"["in", 2, ["literal", [1, 2, 3]]]"#, 0, .bool(true)),
        (#"["in", "2", ["literal", [1, 2, 3]]]"#, 0, .bool(false)),
        (#"["in", ["get", "class"], ["literal", ["trunk", "primary"]]]"#, 0, .bool(true)),
        // == compares values of one type only; < between a number and a string is false.
        (#"["==", 1, "1"]"#, 0, .bool(false)),
        (#"["==", ["get", "oneway"], 1]"#, 0, .bool(true)),
        (#"["!=", ["get", "nope"], null]"#, 0, .bool(false)),
        (#"["<", 1, "2"]"#, 0, .bool(false)),
        (#"["<", "a", "b"]"#, 0, .bool(true)),
        (#"[">=", ["get", "rank"], 5]"#, 0, .bool(true)),
        (#"["all", true, ["==", ["get", "class"], "trunk"]]"#, 0, .bool(true)),
        (#"["any", false, ["!", true]]"#, 0, .bool(false)),
        (#"["none", false, false]"#, 0, .bool(true)),
        // Arithmetic, never trapping.
        (#"["+", 1, 2, 3]"#, 0, .number(6)),
        (#"["-", 5]"#, 0, .number(-5)),
        (#"["/", 1, 0]"#, 0, .number(.infinity)),
        (#"["%", 7, 3]"#, 0, .number(1)),
        (#"["^", 2, 10]"#, 0, .number(1024)),
        (#"["round", 2.5]"#, 0, .number(3)),
        (#"["round", -2.5]"#, 0, .number(-3)),
        (#"["floor", -1.5]"#, 0, .number(-2)),
        (#"["max", 1, 7, 3]"#, 0, .number(7)),
        (#"["sqrt", 16]"#, 0, .number(4)),
        (#"["log2", 8]"#, 0, .number(3)),
        (#"["abs", ["-", 3, 10]]"#, 0, .number(7)),
        (#"["+", 1, "2"]"#, 0, .null),
        (#"["*", ["get", "height"], 2]"#, 0, .number(25)),
        // Variables, strings, arrays, types, feature data.
        (#"["let", "x", 2, ["*", ["var", "x"], ["let", "x", 3, ["var", "x"]]]]"#, 0, .number(6)),
        (#"["upcase", "abc"]"#, 0, .string("ABC")),
        (#"["downcase", "ÄB"]"#, 0, .string("äb")),
        (#"["length", "abc"]"#, 0, .number(3)),
        (#"["length", ["literal", [1, 2]]]"#, 0, .number(2)),
        (#"["slice", "motorway", 5]"#, 0, .string("way")),
        (#"["slice", "motorway", -3, -1]"#, 0, .string("wa")),
        (#"["index-of", "way", "motorway"]"#, 0, .number(5)),
        (#"["at", 1, ["literal", ["a", "b"]]]"#, 0, .string("b")),
        (#"["at", 5, ["literal", ["a", "b"]]]"#, 0, .null),
        (#"["typeof", "x"]"#, 0, .string("string")),
        (#"["typeof", ["get", "rank"]]"#, 0, .string("number")),
        (#"["get", "a", ["literal", {"a": "in object"}]]"#, 0, .string("in object")),
        (#"["id"]"#, 0, .number(42)),
        (#"["geometry-type"]"#, 0, .string("LineString")),
        (#"["zoom"]"#, 7, .number(7)),
        (#"["number-format", 1234.5678, {"max-fraction-digits": 2}]"#, 0, .string("1,234.57")),
        (#"["number-format", 3, {"min-fraction-digits": 1}]"#, 0, .string("3.0")),
        (#"["format", ["get", "name"], {"font-scale": 1.2}, " ", "x"]"#, 0, .formatted(["A1", " ", "x"])),
        (#"["image", "star"]"#, 0, .string("star")),
        (#"["feature-state", "hover"]"#, 0, .null),
        (#"["is-supported-script", "x"]"#, 0, .bool(true)),
        (#"["resolved-locale", ["collator", {}]]"#, 0, .string("en")),
        (#"["rgb", 255, 0, 0]"#, 0, .color(Color(r: 1, g: 0, b: 0))),
        (#"["rgba", 255, 0, 0, 2]"#, 0, .null),
        (##"["to-color", "nope", "#00f"]"##, 0, .color(Color(r: 0, g: 0, b: 1))),
    ]

    @Test(arguments: table.indices) func knownValues(_ i: Int) throws {
        let (json, zoom, expected) = Self.table[i]
        let got = try Fixture.evaluate(json, zoom: zoom, Self.road)
        if case let .number(e) = expected, case let .number(g) = got {
            #expect(abs(e - g) < 1e-9 || (e.isInfinite && e == g), "\(json) at z\(zoom)")
        } else {
            #expect(got == expected, "\(json) at z\(zoom)")
        }
    }

    @Test func colourInterpolationIsPremultiplied() throws {
        let v = try Fixture.evaluate(#"["interpolate", ["linear"], ["zoom"], 0, "rgba(255, 0, 0, 1)", 10, "rgba(0, 0, 255, 0)"]"#, zoom: 5)
        guard case let .color(c) = v else { Issue.record("not a colour: \(v)"); return }
        // Straight halfway would be purple; premultiplied keeps the opaque end's hue.
        #expect(Fixture.close(c, Color(r: 1, g: 0, b: 0, a: 0.5)))
    }

    @Test func geometryTypes() throws {
        let table: [(VectorTile.Feature, String, String)] = [
            (Fixture.feature(.point), "Point", "Point"),
            // Several parts read as one (MapLibre style spec v23).
            (Fixture.feature(.point, parts: 2), "Point", "Point"),
            (Fixture.feature(.lineString, parts: 2), "LineString", "LineString"),
            (Fixture.feature(.polygon, parts: 2), "Polygon", "Polygon"),
        ]
        for (f, modern, legacy) in table {
            #expect(try Fixture.evaluate(#"["geometry-type"]"#, f) == .string(modern))
            #expect(try LegacyFilter.compile(Fixture.json(#"["==", "$type", "\#(legacy)"]"#), path: "f")
                .evaluate(Fixture.context(0, f)) == .bool(true))
        }
        // A hole winds the other way: still one polygon.
        var holed = Fixture.feature(.polygon)
        holed.parts.append(holed.parts[0].reversed())
        #expect(try Fixture.evaluate(#"["geometry-type"]"#, holed) == .string("Polygon"))
    }

    @Test func dependencies() throws {
        let table: [(String, Bool, Bool)] = [
            (#"["interpolate", ["linear"], ["zoom"], 0, 1, 10, 2]"#, true, false),
            (#"["get", "x"]"#, false, true),
            (#"["step", ["zoom"], ["get", "a"], 5, 1]"#, true, true),
            (#"["+", 1, 2]"#, false, false),
        ]
        for (json, zoom, feature) in table {
            let e = try Fixture.expression(json)
            #expect(e.isZoomDependent == zoom && e.isFeatureDependent == feature, "\(json)")
        }
    }

    @Test func errorsNameThePath() throws {
        let table: [(String, String)] = [
            (#"["foo", 1]"#, "e: unknown operator 'foo'"),
            (#"["get", "a", ["bar"]]"#, "e[2]: unknown operator 'bar'"),
            (#"["case", true, 1]"#, "e: 'case' expects condition/output pairs and a fallback"),
            (#"["step", ["zoom"], 0, 5, 1, 3, 2]"#, "e[5]: stop inputs must be in strictly ascending order"),
            (#"["match", ["get", "a"], "x", 1, "x", 2, 0]"#, "e[4]: branch labels must be unique"),
            (#"["var", "nope"]"#, "e: unknown variable 'nope'"),
            (#"[1, 2]"#, "e: expected an operator name first (use [\"literal\", […]] for an array)"),
            (#"["+"]"#, "e: '+' expects at least 1 argument, not 0"),
        ]
        for (json, message) in table {
            #expect(throws: StyleError.self) { try Fixture.expression(json) }
            do { _ = try Fixture.expression(json) } catch { #expect("\(error)" == message) }
        }
        var deep = "1"
        for _ in 0..<70 { deep = #"["abs", \#(deep)]"# }
        do { _ = try Fixture.expression(deep); Issue.record("accepted") } catch let e as StyleError {
            #expect(e.reason == "too deeply nested")
        }
    }

    @Test func longStringsAreBounded() throws {
        let big = String(repeating: "x", count: 40_000)
        #expect(try Fixture.evaluate(#"["concat", "\#(big)", "\#(big)"]"#) == .null)
        #expect(try Fixture.evaluate(#"["concat", "\#(big)", "y"]"#) == .string(big + "y"))
    }
}

/// What hostile styles may write: evaluation gives a value or null, and never traps.
struct HostileExpressionTests {
    static let table: [(String, StyleValue)] = [
        (#"["number-format", 1e300, {"max-fraction-digits": 20}]"#, .string("1e+300")),
        (#"["number-format", 0.5, {"max-fraction-digits": 1e99, "min-fraction-digits": -1e99}]"#, .string("0.5")),
        (#"["number-format", -1.5, {"max-fraction-digits": 20}]"#, .string("-1.5")),
        (#"["at", 1e300, ["literal", [1]]]"#, .null),
        (#"["at", -0.5, ["literal", [1]]]"#, .null),
        (#"["slice", "abc", -1e300, 1e300]"#, .string("abc")),
        (#"["slice", "abc", 2, 1]"#, .string("")),
        (#"["index-of", "b", "abc", 1e300]"#, .number(-1)),
        (#"["to-string", 1e300]"#, .string("1e+300")),
        (#"["to-number", "0xffffffffffffffffffff"]"#, .null),
        (#"["step", ["/", 0, 0], "nan", 0, "zero"]"#, .string("nan")),
        (#"["interpolate", ["exponential", 1e-300], ["zoom"], 0, 0, 1e300, 1]"#, .number(1)),
        (#"["%", 1, 0]"#, .number(.nan)),
    ]

    @Test func neverTraps() throws {
        for (json, expected) in Self.table {
            let got = try Fixture.evaluate(json, zoom: 5)
            if case let .number(e) = expected, e.isNaN { #expect(got.number?.isNaN == true, "\(json)") } else { #expect(got == expected, "\(json)") }
        }
        let long = String(repeating: "a", count: 5000)
        #expect(try Fixture.evaluate(#"["index-of", "b", "\#(long)"]"#) == .null)
        #expect(try Fixture.evaluate(#"["in", "b", "\#(long)"]"#) == .null)
    }

    @Test func hostileFeatureValuesGiveDefaults() throws {
        let layer = try Fixture.layer("""
        {"id": "l", "type": "line", "source": "v", "paint": {"line-width": ["*", ["get", "w"], 1e308], "line-offset": ["get", "w"]}}
        """)
        for w: VectorTile.Value in [.double(.nan), .double(.infinity), .double(1e308), .int(.min), .bool(true)] {
            let ctx = Fixture.context(.nan, Fixture.feature(.lineString, ["w": w]))
            #expect(layer.number("line-width", ctx).isFinite)
            #expect(layer.number("line-offset", ctx).isFinite)
        }
    }
}
