import Foundation
import MapCore
import MapGeometry
import MapGraphics
import MapStyle
import MapTiles
import Testing

/// What a style's symbol layers give the placer, read as MapLibre reads them: the rotation and
/// pitch alignments, a text-size over the zoom, the text's own box and padding, names wrapped
/// into balanced lines, and streets cut at their tile's edge.
struct StyledLabelParityTests {
    let t = TileID(z: 14, x: 9326, y: 4739)

    func style(_ layers: String) throws -> MapStyle {
        try MapStyle(json: Data(#"{"version": 8, "sources": {"omt": {"type": "vector"}}, "layers": [\#(layers)]}"#.utf8))
    }

    /// A place at a point and a street across the tile (from beyond its west edge).
    var data: Data {
        MVTEncoder.encode(VectorTile(layers: [
            .init(name: "transportation_name", features: [
                .init(type: .lineString, parts: [[.init(x: -100, y: 2048), .init(x: 4196, y: 2048)]],
                      properties: ["name": .string("Mannerheimintie")]),
                .init(type: .lineString, parts: [[.init(x: 1000, y: 3000), .init(x: 3000, y: 3000)]],
                      properties: ["name": .string("Bulevardi")]),
            ]),
            .init(name: "poi", features: [
                .init(type: .point, parts: [[.init(x: 1000, y: 1000)]], properties: ["name": .string("Helsingin keskustakirjasto Oodi")]),
            ]),
        ]))
    }

    func places(_ layers: String) throws -> [PlaceLabel] {
        try VectorTilePainter(mapStyle: try style(layers)).paint(t, data: data, dataTile: t, pixelSize: 256).places
    }

    @Test func alignmentsAreReadAsMapLibreReadsThem() throws {
        let labels = try places("""
            {"id": "street", "type": "symbol", "source": "omt", "source-layer": "transportation_name",
             "layout": {"symbol-placement": "line", "text-field": "{name}", "text-pitch-alignment": "viewport"}},
            {"id": "poi", "type": "symbol", "source": "omt", "source-layer": "poi",
             "layout": {"text-field": "{name}", "text-rotation-alignment": "map", "icon-rotation-alignment": "map"}}
            """)
        let street = try #require(labels.first { $0.name == "Mannerheimintie" })
        let poi = try #require(labels.first { $0.name.hasPrefix("Helsingin") })
        // `auto`: with the line along a line; at a point as the style says.
        #expect(street.alignment == LabelAlignment(text: .map, icon: .map))
        #expect(poi.alignment == LabelAlignment(text: .map, icon: .map))
        let level = try places("""
            {"id": "street", "type": "symbol", "source": "omt", "source-layer": "transportation_name",
             "layout": {"symbol-placement": "line", "text-field": "{name}", "text-rotation-alignment": "viewport-glyph"}},
            {"id": "poi", "type": "symbol", "source": "omt", "source-layer": "poi", "layout": {"text-field": "{name}"}}
            """)
        #expect(level.first { $0.name == "Mannerheimintie" }?.alignment.text == .viewportGlyph)
        #expect(level.first { $0.name.hasPrefix("Helsingin") }?.alignment == LabelAlignment(text: .viewport, icon: .viewport))
    }

    /// A zoom-dependent text-size comes with its curve (Meridian's zooms, one above MapLibre's);
    /// a constant one without.
    @Test func aTextSizeOverTheZoomComesWithItsCurve() throws {
        let labels = try places("""
            {"id": "poi", "type": "symbol", "source": "omt", "source-layer": "poi",
             "layout": {"text-field": "{name}", "text-size": ["interpolate", ["linear"], ["zoom"], 12, 10, 16, 18]}},
            {"id": "street", "type": "symbol", "source": "omt", "source-layer": "transportation_name",
             "layout": {"symbol-placement": "line", "text-field": "{name}", "text-size": 13}}
            """)
        let poi = try #require(labels.first { $0.name.contains("Oodi") })
        let curve = try #require(poi.sizes)
        #expect(curve.zoom == 14 && abs(curve.size(at: 13) - 10) < 1e-9 && abs(curve.size(at: 15) - 14) < 1e-9 && abs(curve.size(at: 17) - 18) < 1e-9)
        #expect(abs(curve.scale(at: 15) - 14.0 / 12) < 1e-9)
        #expect(labels.first { $0.name == "Mannerheimintie" }?.sizes == nil)
    }

    /// A name at a point claims its text's own box and the style's text-padding (MapLibre's
    /// collision box), and wraps into lines of about equal length: "Helsingin keskustakirjasto
    /// Oodi" at 9 ems is "Helsingin" over "keskustakirjasto Oodi", as MapLibre sets it, not three
    /// lines filled to 9 ems.
    @Test func aNameAtAPointClaimsItsOwnBoxAndWrapsBalanced() throws {
        let labels = try places("""
            {"id": "poi", "type": "symbol", "source": "omt", "source-layer": "poi",
             "layout": {"text-field": "{name}", "text-font": ["Noto Sans Regular"], "text-size": 12, "text-max-width": 9, "text-padding": 5}}
            """)
        let poi = try #require(labels.first)
        #expect(poi.name == "Helsingin\nkeskustakirjasto Oodi", "\(poi.name)")
        let box = try #require(poi.textBox)
        #expect(abs(box.height - 2 * 1.2 * 12) < 1e-9)
        // The longer line, about 11 ems of Noto Sans (DejaVu where it is missing: wider).
        #expect(box.width > 100 && box.width < 160, "\(box)")
        #expect(poi.padding == 5)
        // Its sprite holds the same lines, centred.
        guard case let .styled(look) = poi.style else { Issue.record("not styled"); return }
        #expect(look.maxWidth > 9 && look.maxWidth < 14)
    }

    /// A street is cut at its data tile's edge, as MapLibre cuts it: the piece that comes in
    /// across the edge is marked so, its names spaced from half a spacing in; a street that
    /// starts inside the tile is not.
    @Test func streetsAreCutAtTheirTilesEdge() throws {
        let labels = try places("""
            {"id": "street", "type": "symbol", "source": "omt", "source-layer": "transportation_name",
             "layout": {"symbol-placement": "line", "text-field": "{name}"}}
            """)
        let long = try #require(labels.first { $0.name == "Mannerheimintie" })
        guard case let .line(path, _) = long.placement else { Issue.record("not a line"); return }
        let square = t.mapRect
        #expect(abs(path[0].x - square.minX) < 1e-9 && abs(path[path.count - 1].x - square.maxX) < 1e-9)
        #expect(long.continued && long.tile == t && long.textBox != nil)
        #expect(labels.first { $0.name == "Bulevardi" }?.continued == false)
    }
}
