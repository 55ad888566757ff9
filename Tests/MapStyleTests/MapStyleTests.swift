import Foundation
import MapCore
@testable import MapStyle
import MapTiles
import Testing

/// Whole styles: what makes one unusable, and which layers are left out and why.
struct MapStyleTests {
    @Test func unusableStyles() {
        let table: [(String, String)] = [
            ("not json", "not valid JSON"),
            ("[]", "expected a style object"),
            (#"{"version": 7, "layers": []}"#, "version: expected style version 8"),
            (#"{"version": 8}"#, "layers: expected an array of layers"),
            (#"{"version": 8, "layers": \#(String(repeating: "[", count: 200))}"#, "too deeply nested"),
        ]
        for (text, message) in table {
            do { _ = try MapStyle(json: Data(text.utf8)); Issue.record("accepted \(text)") } catch {
                #expect("\(error)".hasPrefix(message), "\(text): \(error)")
            }
        }
        let many = #"{"version": 8, "layers": [\#(Array(repeating: "{}", count: 5_001).joined(separator: ","))]}"#
        #expect(throws: StyleError.self) { try MapStyle(json: Data(many.utf8)) }
        #expect(throws: StyleError.self) { try MapStyle(json: Data(count: 16 << 20 + 1)) }
    }

    @Test func layersLeftOutWithReasons() throws {
        let style = try Fixture.style("""
        {"id": "bg", "type": "background", "paint": {"background-color": "#eee"}},
        {"id": "hillshade", "type": "hillshade", "source": "v"},
        {"id": "ok", "type": "line", "source": "v", "source-layer": "transportation", "paint": {"line-width": 2}},
        {"id": "bad-width", "type": "line", "source": "v", "paint": {"line-width": "wide"}},
        {"id": "road-label", "type": "symbol", "source": "v", "layout": {"text-field": ["foo", 1]}},
        {"id": "heat", "type": "heatmap", "source": "v"},
        {"id": "what", "type": "custom"},
        {"id": "nosource", "type": "fill", "source": "elsewhere"},
        {"id": "badcolor", "type": "fill", "source": "v", "paint": {"fill-color": "#zzz"}},
        {"id": "badcap", "type": "line", "source": "v", "layout": {"line-cap": "pointy"}},
        {"id": "badstop", "type": "line", "source": "v", "paint": {"line-width": {"stops": [[5, "x"]]}}},
        {"id": "badout", "type": "line", "source": "v", "paint": {"line-width": ["step", ["zoom"], 1, 5, "x"]}},
        {"id": "hidden", "type": "fill", "source": "v", "minzoom": 4, "maxzoom": 8, "layout": {"visibility": "none"}},
        {"id": "child", "ref": "ok", "paint": {"line-color": "red"}}
        """)
        #expect(style.layers.map(\.id) == ["bg", "ok", "hidden", "child"])
        #expect(style.layers.map(\.index) == [0, 2, 12, 13])
        #expect(style.notices == [
            "layers[1] 'hillshade': a hillshade layer reads a raster-dem source; 'v' is vector",
            "layers[3] 'bad-width': paint.line-width: expected a number",
            "layers[4] 'road-label': layout.text-field: unknown operator 'foo'",
            "layers[5] 'heat': heatmap layers are not drawn",
            "layers[6] 'what': custom layers are not drawn",
            "layers[7] 'nosource': unknown source 'elsewhere'",
            "layers[8] 'badcolor': paint.fill-color: expected a colour",
            "layers[9] 'badcap': layout.line-cap: expected one of butt, round, square",
            "layers[10] 'badstop': paint.line-width.stops[0][1]: expected a number",
            "layers[11] 'badout': paint.line-width: expected a number",
        ])
        let hidden = style.layers[2]
        #expect(!hidden.visible && !hidden.isShown(atZoom: 5))
        let ok = style.layers[1]
        #expect(ok.isShown(atZoom: 0) && ok.isShown(atZoom: 23.9) && !ok.isShown(atZoom: 24))
        #expect(style.layers[3].type == .line && style.layers[3].sourceLayer == "transportation")
        #expect(style.layers[3].color("line-color", Fixture.context(3)) == Color(r: 1, g: 0, b: 0))
        #expect(style.layers(in: "transportation").map(\.id) == ["ok", "child"])
        let bad = try Fixture.style(#"{"id": "x", "type": "line", "source": "v", "paint": {"line-width": true}}"#)
        #expect(bad.layers.isEmpty && bad.notices == ["layers[0] 'x': paint.line-width: expected a number"])
    }

    @Test func defaultsAndClamping() throws {
        let layer = try Fixture.layer("""
        {"id": "l", "type": "line", "source": "v",
         "paint": {"line-width": ["get", "w"], "line-opacity": 3, "line-dasharray": [2, 1], "line-color": ["get", "c"]}}
        """)
        let ctx = { (p: [String: VectorTile.Value]) in Fixture.context(10, Fixture.feature(.lineString, p)) }
        #expect(layer.number("line-width", ctx(["w": .double(3)])) == 3)
        #expect(layer.number("line-width", ctx(["w": .double(-3)])) == 0)
        #expect(layer.number("line-width", ctx(["w": .string("x")])) == 1)
        #expect(layer.number("line-width", ctx([:])) == 1)
        #expect(layer.number("line-opacity", ctx([:])) == 1)
        #expect(layer.number("line-gap-width", ctx([:])) == 0)
        #expect(layer.numbers("line-dasharray", ctx([:])) == [2, 1])
        #expect(layer.numbers("line-translate", ctx([:])) == [0, 0])
        #expect(layer.color("line-color", ctx(["c": .string("#0f0")])) == Color(r: 0, g: 1, b: 0))
        #expect(layer.color("line-color", ctx(["c": .string("no")])) == Color(r: 0, g: 0, b: 0))
        #expect(layer.string("line-cap", ctx([:])) == "butt")
        let symbol = try Fixture.layer(#"{"id": "s", "type": "symbol", "source": "v"}"#)
        #expect(symbol.strings("text-font", ctx([:])) == ["Open Sans Regular", "Arial Unicode MS Regular"])
        #expect(symbol.color("text-halo-color", ctx([:])) == nil)
        #expect(symbol.bool("text-keep-upright", ctx([:])))
        #expect(symbol.number("text-size", ctx([:])) == 16)
        #expect(symbol.text(ctx([:])) == nil)
    }
}

/// The fuzz target's small seeds parse whole, so that fuzzing starts from styles that reach
/// the evaluator.
struct FuzzSeedTests {
    @Test func smallSeedsParse() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/fuzz-style")
        let legacy = try MapStyle(json: Data(contentsOf: folder.appendingPathComponent("small-legacy.json")))
        #expect(legacy.layers.count == 5 && legacy.notices == ["layers[5] 'hill': a hillshade layer reads a raster-dem source; 'v' is vector"])
        let modern = try MapStyle(json: Data(contentsOf: folder.appendingPathComponent("small-expressions.json")))
        #expect(modern.layers.count == 3 && modern.notices.isEmpty, "\(modern.notices)")
    }
}
