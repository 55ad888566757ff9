import Foundation
import MapCore
import MapGeometry
import MapGraphics
import MapStyle
import MapTiles
import Testing

/// A MapLibre style drawn into a tile, pixel by pixel, on hand-built tiles: what each paint
/// property does, where labels go, and that lines meet across tile edges.
struct StyledPainterTests {
    func rgb(_ p: UInt32) -> (r: Int, g: Int, b: Int) { (Int(p >> 16 & 255), Int(p >> 8 & 255), Int(p & 255)) }

    func style(_ layers: String) throws -> MapStyle {
        try MapStyle(json: Data(#"{"version": 8, "sources": {"omt": {"type": "vector"}}, "layers": [\#(layers)]}"#.utf8))
    }

    let background = ##"{"id": "bg", "type": "background", "paint": {"background-color": "#f0e0d0"}}"##
    let t = TileID(z: 14, x: 9326, y: 4739)

    /// A tile whose `water` layer holds the left half and whose `transportation` layer holds a
    /// horizontal primary road across the middle and a residential street down x = 3000.
    var data: Data {
        let half: [VectorTile.Point] = [.init(x: 0, y: 0), .init(x: 2048, y: 0), .init(x: 2048, y: 4096), .init(x: 0, y: 4096)]
        return MVTEncoder.encode(VectorTile(layers: [
            .init(name: "water", features: [.init(type: .polygon, parts: [half], properties: ["class": .string("lake")])]),
            .init(name: "transportation", features: [
                .init(type: .lineString, parts: [[.init(x: -100, y: 2048), .init(x: 4196, y: 2048)]], properties: ["class": .string("primary")]),
                .init(type: .lineString, parts: [[.init(x: 3000, y: -100), .init(x: 3000, y: 4196)]], properties: ["class": .string("minor")]),
            ]),
            .init(name: "transportation_name", features: [
                .init(type: .lineString, parts: [[.init(x: -100, y: 2048), .init(x: 4196, y: 2048)]],
                      properties: ["class": .string("primary"), "name": .string("Mannerheimintie"), "name:latin": .string("Mannerheimintie")]),
            ]),
            .init(name: "place", features: [
                .init(type: .point, parts: [[.init(x: 1000, y: 1000)]], properties: ["class": .string("suburb"), "name": .string("Kamppi")]),
            ]),
        ]))
    }

    @Test func fillsAndLinesFollowTheirFiltersAndPaint() throws {
        let s = try style(background + """
            , {"id": "water", "type": "fill", "source": "omt", "source-layer": "water", "paint": {"fill-color": "rgb(0, 0, 255)"}}
            , {"id": "roads", "type": "line", "source": "omt", "source-layer": "transportation",
               "filter": ["==", "class", "primary"], "paint": {"line-color": "#ff0000", "line-width": 8}}
            , {"id": "minor", "type": "line", "source": "omt", "source-layer": "transportation",
               "filter": ["==", ["get", "class"], "minor"], "paint": {"line-color": "hsl(120, 100%, 25%)", "line-width": ["interpolate", ["linear"], ["zoom"], 10, 1, 15, 11]}}
            """)
        let tile = try VectorTilePainter(mapStyle: s).paint(t, data: data, dataTile: t, pixelSize: 256)
        let b = tile.bitmap
        #expect(rgb(b.pixel(x: 60, y: 60)) == (0, 0, 255))        // water (left half)
        #expect(rgb(b.pixel(x: 160, y: 60)) == (0xF0, 0xE0, 0xD0)) // background
        #expect(rgb(b.pixel(x: 60, y: 128)) == (255, 0, 0))       // the primary road, 8 wide about y = 128
        #expect(rgb(b.pixel(x: 60, y: 124)) == (255, 0, 0) && rgb(b.pixel(x: 60, y: 118)) == (0, 0, 255))
        // Style zoom 13 (MapLibre's zoom is Meridian's less one): 1 + 10 × 3/5 = 7 points wide about x = 187.5.
        #expect(rgb(b.pixel(x: 187, y: 40)) == (0, 128, 0))
        #expect(rgb(b.pixel(x: 184, y: 40)) == (0, 128, 0) && rgb(b.pixel(x: 180, y: 40)) == (0xF0, 0xE0, 0xD0))
        #expect(tile.places.isEmpty)
    }

    @Test func aGapWidthDrawsTwoLinesAndAnOffsetMovesThem() throws {
        let s = try style(background + """
            , {"id": "case", "type": "line", "source": "omt", "source-layer": "transportation", "filter": ["==", "class", "primary"],
               "paint": {"line-color": "#000000", "line-width": 2, "line-gap-width": 10}}
            , {"id": "off", "type": "line", "source": "omt", "source-layer": "transportation", "filter": ["==", "class", "minor"],
               "paint": {"line-color": "#00ff00", "line-width": 4, "line-offset": 20}}
            """)
        let b = try VectorTilePainter(mapStyle: s).paint(t, data: data, dataTile: t, pixelSize: 256).bitmap
        #expect(rgb(b.pixel(x: 40, y: 128)) == (0xF0, 0xE0, 0xD0))   // the gap shows what is under it
        #expect(rgb(b.pixel(x: 40, y: 122)) == (0, 0, 0) && rgb(b.pixel(x: 40, y: 133)) == (0, 0, 0))
        // The street runs south: 20 points to its right is west of it.
        #expect(rgb(b.pixel(x: 167, y: 40)) == (0, 255, 0) && rgb(b.pixel(x: 187, y: 40)) == (0xF0, 0xE0, 0xD0))
    }

    @Test func twiceTheDensityDrawsTheSamePictureSharper() throws {
        let s = try style(background + ##", {"id": "roads", "type": "line", "source": "omt", "source-layer": "transportation", "paint": {"line-color": "#ff0000", "line-width": 4}}"##)
        let one = try VectorTilePainter(mapStyle: s).paint(t, data: data, dataTile: t, pixelSize: 256).bitmap
        let two = try VectorTilePainter(mapStyle: s).paint(t, data: data, dataTile: t, pixelSize: 512).bitmap
        #expect(two.width == 512)
        #expect(rgb(one.pixel(x: 60, y: 127)) == (255, 0, 0) && rgb(two.pixel(x: 120, y: 253)) == (255, 0, 0))
        #expect(rgb(two.pixel(x: 120, y: 246)) == (0xF0, 0xE0, 0xD0)) // 4 points are 8 pixels: 252…260
    }

    @Test func overZoomedNeighboursMeetWithoutASeam() throws {
        let s = try style(background + ##", {"id": "roads", "type": "line", "source": "omt", "source-layer": "transportation", "filter": ["==", "class", "primary"], "paint": {"line-color": "#ff0000", "line-width": 10}}"##)
        let painter = VectorTilePainter(mapStyle: s)
        // Four zooms deeper, the road lies along the top edge of the tiles of row 8 (y 2048 of 4096).
        let left = try painter.paint(TileID(z: 18, x: t.x * 16 + 3, y: t.y * 16 + 8), data: data, dataTile: t, pixelSize: 256).bitmap
        let right = try painter.paint(TileID(z: 18, x: t.x * 16 + 4, y: t.y * 16 + 8), data: data, dataTile: t, pixelSize: 256).bitmap
        for y in 0..<5 { #expect(rgb(left.pixel(x: 255, y: y)) == (255, 0, 0) && rgb(right.pixel(x: 0, y: y)) == (255, 0, 0)) }
        #expect(rgb(left.pixel(x: 255, y: 6)) == (0xF0, 0xE0, 0xD0) && rgb(right.pixel(x: 0, y: 6)) == (0xF0, 0xE0, 0xD0))
    }

    @Test func symbolLayersBecomeLabelsNotPixels() throws {
        let s = try style(background + """
            , {"id": "street", "type": "symbol", "source": "omt", "source-layer": "transportation_name",
               "layout": {"symbol-placement": "line", "text-field": "{name:latin}", "text-font": ["Noto Sans Bold"], "text-size": 13},
               "paint": {"text-color": "#333333", "text-halo-color": "#ffffff", "text-halo-width": 1.5}}
            , {"id": "place", "type": "symbol", "source": "omt", "source-layer": "place",
               "layout": {"text-field": ["upcase", ["get", "name"]], "text-anchor": "top", "text-offset": [0, 1], "text-size": 10}}
            """)
        let tile = try VectorTilePainter(mapStyle: s).paint(t, data: data, dataTile: t, pixelSize: 256)
        #expect(rgb(tile.bitmap.pixel(x: 128, y: 128)) == (0xF0, 0xE0, 0xD0)) // no text drawn into the tile
        let street = try #require(tile.places.first { $0.name == "Mannerheimintie" })
        guard case let .line(path, spacing) = street.placement, case let .styled(look) = street.style else { Issue.record("not a line label"); return }
        #expect(spacing == 250 && path.count == 2 && look.bold && look.size == 13 && look.haloWidth == 1.5)
        let place = try #require(tile.places.first { $0.name == "KAMPPI" })
        #expect(place.placement == .point(anchor: .top, offset: ScreenPoint(x: 0, y: 10)))
        // The street's layer comes first in the style, so the place outranks it.
        #expect(place.rank > street.rank)
    }

    /// What a hostile or careless style may say is drawn sensibly: dashes too fine to see make a
    /// solid line; the background shows at zoom 0 (MapLibre's zoom −1 is read as 0); a name of
    /// thousands of letters makes no label.
    @Test func hostileValuesDrawSensibly() throws {
        let s = try style(background + ##"""
            , {"id": "fine", "type": "line", "source": "omt", "source-layer": "transportation", "filter": ["==", "class", "primary"],
               "paint": {"line-color": "#ff0000", "line-width": 8, "line-dasharray": [0.0001, 0.0001]}}
            , {"id": "long", "type": "symbol", "source": "omt", "source-layer": "place", "layout": {"text-field": ["concat", ["get", "name"], "\##(String(repeating: "x", count: 300))"]}}
            """##)
        let tile = try VectorTilePainter(mapStyle: s).paint(t, data: data, dataTile: t, pixelSize: 256)
        for x in stride(from: 0, to: 256, by: 7) { #expect(rgb(tile.bitmap.pixel(x: x, y: 128)) == (255, 0, 0)) }
        #expect(tile.places.isEmpty)
        let world = TileID(z: 0, x: 0, y: 0)
        let z0 = try VectorTilePainter(mapStyle: try style(background)).paint(world, data: Data(), dataTile: world, pixelSize: 64)
        #expect(rgb(z0.bitmap.pixel(x: 32, y: 32)) == (0xF0, 0xE0, 0xD0))
    }
}
