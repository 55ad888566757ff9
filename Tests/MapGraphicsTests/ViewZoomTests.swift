import Foundation
import MapCore
import MapGeometry
import MapGraphics
import MapStyle
import MapTiles
import Testing

/// A styled tile painted for the zoom the view rests at between whole zooms: zoom-dependent
/// widths, filters and opacities as the style says at that zoom, widths drawn so that on screen
/// (the tile magnified or shrunk to the view's zoom) they are the style's.
struct ViewZoomTests {
    let t = TileID(z: 15, x: 18652, y: 9479)

    /// A road across the middle and a tunnel down x = 3000.
    var data: Data {
        MVTEncoder.encode(VectorTile(layers: [
            .init(name: "transportation", features: [
                .init(type: .lineString, parts: [[.init(x: -100, y: 2048), .init(x: 4196, y: 2048)]], properties: ["class": .string("primary")]),
                .init(type: .lineString, parts: [[.init(x: 3000, y: -100), .init(x: 3000, y: 4196)]],
                      properties: ["class": .string("minor"), "brunnel": .string("tunnel")]),
            ]),
        ]))
    }

    func style() throws -> MapStyle {
        // Widths and a filter that change between MapLibre's z14 and z15 (Meridian's 15 and 16).
        try MapStyle(json: Data(##"""
            {"version": 8, "sources": {"omt": {"type": "vector"}}, "layers": [
              {"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
              {"id": "road", "type": "line", "source": "omt", "source-layer": "transportation", "filter": ["==", "class", "primary"],
               "paint": {"line-color": "#ff0000", "line-width": ["interpolate", ["linear"], ["zoom"], 14, 4, 15, 12]}},
              {"id": "tunnel", "type": "line", "source": "omt", "source-layer": "transportation",
               "filter": ["all", ["==", ["get", "brunnel"], "tunnel"], [">=", ["zoom"], 14.5]],
               "paint": {"line-color": "#0000ff", "line-width": 4, "line-opacity": ["interpolate", ["linear"], ["zoom"], 14, 0, 15, 1]}}]}
            """##.utf8))
    }

    /// Red rows through x = 40 (the road's width in device pixels), and the tunnel's colour at its middle.
    func measure(_ b: Bitmap) -> (road: Double, tunnel: (r: Int, g: Int, b: Int)) {
        // Red over white: how much of each row is road, from its green (255 white, 0 red).
        let road = (0..<b.height).reduce(0.0) { sum, y in sum + (255 - Double(b.pixel(x: 40, y: y) >> 8 & 255)) / 255 }
        let p = b.pixel(x: Int(3000.0 / 4096 * Double(b.width)), y: 40)
        return (road, (Int(p >> 16 & 255), Int(p >> 8 & 255), Int(p & 255)))
    }

    @Test func aTileSeenAtHalfAZoomDeeperIsStyledThere() throws {
        let painter = VectorTilePainter(mapStyle: try style())
        // At its own zoom (MapLibre 14): the road 4 points wide, no tunnel (its filter starts at 14.5).
        let own = measure(try VectorTilePainter(mapStyle: try style()).paint(t, data: data, dataTile: t, pixelSize: 256).bitmap)
        #expect(abs(own.road - 4) <= 0.3 && own.tunnel == (255, 255, 255), "\(own)")
        // Seen at 15.5 (MapLibre 14.5): 8 points on screen, so 8 / √2 ≈ 5.7 pixels in the tile
        // that is magnified √2 times; the tunnel drawn at half opacity.
        let half = measure(try painter.paint(t, data: data, dataTile: t, pixelSize: 256, viewZoom: 15.5).bitmap)
        let shrunk = measure(try painter.paint(t, data: data, dataTile: t, pixelSize: 256, viewZoom: 14.6).bitmap)
        #expect(abs(half.road - 8 / 2.0.squareRoot()) <= 0.3, "\(half)")
        #expect(abs(half.tunnel.b - 255) <= 2 && abs(half.tunnel.r - 128) <= 3, "\(half)")
        // Seen at 14.6 (shrunk): MapLibre 13.6 is below the road's stops: 4 points on screen, 4 × 2^0.4 ≈ 5.3 in the tile.
        #expect(abs(shrunk.road - 4 * pow(2, 0.4)) <= 0.3 && shrunk.tunnel == (255, 255, 255), "\(shrunk)")
    }
}
