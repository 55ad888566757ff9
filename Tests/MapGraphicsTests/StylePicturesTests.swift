import Foundation
import MapCore
import MapGeometry
import MapGraphics
import MapStyle
import MapTiles
import Testing

/// A style with a vector source and picture sources: its raster and hillshade layers drawn in
/// their place among the vector layers, tile by tile, as MapLibre does.
struct StylePicturesTests {
    func rgb(_ p: UInt32) -> (r: Int, g: Int, b: Int) { (Int(p >> 16 & 255), Int(p >> 8 & 255), Int(p & 255)) }

    func style(_ layers: String) throws -> MapStyle {
        try MapStyle(json: Data(#"""
            {"version": 8, "sources": {"omt": {"type": "vector"}, "sat": {"type": "raster", "tileSize": 256, "tiles": ["http://x/{z}/{x}/{y}.png"]},
             "sat2": {"type": "raster", "tiles": ["http://y/{z}/{x}/{y}.png"]},
             "dem": {"type": "raster-dem", "encoding": "terrarium", "tileSize": 256, "tiles": ["http://z/{z}/{x}/{y}.png"]}},
             "layers": [\#(layers)]}
            """#.utf8))
    }

    let t = TileID(z: 14, x: 9326, y: 4739)

    /// The left half of the tile is water.
    var data: Data {
        let half: [VectorTile.Point] = [.init(x: 0, y: 0), .init(x: 2048, y: 0), .init(x: 2048, y: 4096), .init(x: 0, y: 4096)]
        return MVTEncoder.encode(VectorTile(layers: [.init(name: "water", features: [.init(type: .polygon, parts: [half], properties: [:])])]))
    }

    /// Pictures are solid colours named by their bytes ("ff0000"), 4 × 4 pixels.
    static func solid(_ data: Data) throws -> Bitmap {
        guard let v = UInt32(String(decoding: data, as: UTF8.self), radix: 16) else { throw TileSourceError("not a colour") }
        return Bitmap(width: 4, height: 4, pixels: Array(repeating: 0xFF00_0000 | v, count: 16), premultiplied: true)
    }

    func paint(_ s: MapStyle, pictures: [StylePicture]) throws -> Bitmap {
        try VectorTilePainter(mapStyle: s).paint(t, data: data, dataTile: t, pixelSize: 256, pictures: pictures, decodeImage: Self.solid).bitmap
    }

    let water = ##"{"id": "water", "type": "fill", "source": "omt", "source-layer": "water", "paint": {"fill-color": "#0000ff"}}"##
    let bg = ##"{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}}"##

    @Test func rasterAndVectorLayersAreDrawnInTheStylesOrder() throws {
        let red = [StylePicture(source: "sat", data: Data("ff0000".utf8), tile: t)]
        // The raster under the water: water on the left, the picture on the right.
        let under = try paint(try style([bg, #"{"id": "r", "type": "raster", "source": "sat"}"#, water].joined(separator: ",")), pictures: red)
        #expect(rgb(under.pixel(x: 60, y: 60)) == (0, 0, 255))
        #expect(rgb(under.pixel(x: 200, y: 60)) == (255, 0, 0))
        // Over it, at half opacity: the water shows through on the left, the white on the right.
        let over = try paint(try style([bg, water, #"{"id": "r", "type": "raster", "source": "sat", "paint": {"raster-opacity": 0.5}}"#]
            .joined(separator: ",")), pictures: red)
        let l = rgb(over.pixel(x: 60, y: 60)), r = rgb(over.pixel(x: 200, y: 60))
        #expect(abs(l.r - 128) <= 2 && l.g == 0 && abs(l.b - 128) <= 2, "\(l)")
        #expect(r.r == 255 && abs(r.g - 128) <= 2 && abs(r.b - 128) <= 2, "\(r)")
        // Without its picture (the server down), a raster layer is left out; the rest is drawn.
        let none = try paint(try style([bg, #"{"id": "r", "type": "raster", "source": "sat"}"#, water].joined(separator: ",")), pictures: [])
        #expect(rgb(none.pixel(x: 200, y: 60)) == (255, 255, 255) && rgb(none.pixel(x: 60, y: 60)) == (0, 0, 255))
    }

    @Test func twoRasterSourcesStackAndAnAncestorsPictureCoversItsPart() throws {
        let s = try style([bg, #"{"id": "a", "type": "raster", "source": "sat"}"#,
                           #"{"id": "b", "type": "raster", "source": "sat2", "paint": {"raster-opacity": 0.25}}"#].joined(separator: ","))
        // sat2's picture is of the tile's grandparent (a coarser source): it covers it all the same.
        let b = try paint(s, pictures: [StylePicture(source: "sat", data: Data("00ff00".utf8), tile: t),
                                        StylePicture(source: "sat2", data: Data("0000ff".utf8), tile: t.ancestor(atZoom: 12))])
        let p = rgb(b.pixel(x: 128, y: 128))
        #expect(p.r == 0 && abs(p.g - 191) <= 2 && abs(p.b - 64) <= 2, "\(p)")
    }

    @Test func rasterPaintTurnsTheColours() throws {
        func one(_ paint: String) throws -> (r: Int, g: Int, b: Int) {
            let s = try style([bg, #"{"id": "r", "type": "raster", "source": "sat", "paint": {\#(paint)}}"#].joined(separator: ","))
            return rgb(try self.paint(s, pictures: [StylePicture(source: "sat", data: Data("c04020".utf8), tile: t)]).pixel(x: 10, y: 10))
        }
        // Saturation −1: grey of the channels' mean.
        let grey = try one(#""raster-saturation": -1"#)
        #expect(abs(grey.r - grey.g) <= 1 && abs(grey.g - grey.b) <= 1 && abs(grey.r - 0x60) <= 2, "\(grey)")
        // Brightness squeezed into [0.5, 1]: nothing darker than half.
        let bright = try one(#""raster-brightness-min": 0.5"#)
        #expect(bright.b >= 126 && bright.r > bright.g, "\(bright)")
        // Contrast −1: every channel at the middle.
        let flat = try one(#""raster-contrast": -1"#)
        #expect([flat.r, flat.g, flat.b].allSatisfy { abs($0 - 128) <= 2 }, "\(flat)")
    }

    @Test func aHillshadeLayerShadesTheRealDEMAndTurnsWithItsLight() throws {
        // The North Shore tile (Tests/Fixtures/dem), its own tile: slopes facing north-west are lit.
        let dem = TileID(z: 12, x: 646, y: 1400)
        let png = try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/dem/terrarium-12-646-1400.png"))
        func shaded(_ direction: Double) throws -> Bitmap {
            let s = try style([bg, #"{"id": "h", "type": "hillshade", "source": "dem", "paint": {"hillshade-illumination-direction": \#(direction), "hillshade-exaggeration": 1}}"#]
                .joined(separator: ","))
            return try VectorTilePainter(mapStyle: s).paint(dem, data: Data(), dataTile: dem, pixelSize: 256,
                                                            pictures: [StylePicture(source: "dem", data: png, tile: dem)], decodeImage: Self.solid).bitmap
        }
        let north = try shaded(335), south = try shaded(155)
        // Over the whole tile, the two lights make different pictures, and where one is
        // darkest the other is lighter.
        var darkestNorth = (v: 999, x: 0, y: 0)
        var differing = 0
        for y in stride(from: 8, to: 248, by: 4) { for x in stride(from: 8, to: 248, by: 4) {
            let a = rgb(north.pixel(x: x, y: y)), b = rgb(south.pixel(x: x, y: y))
            if abs(a.r - b.r) > 20 { differing += 1 }
            if a.r < darkestNorth.v { darkestNorth = (a.r, x, y) }
        } }
        #expect(differing > 300, "\(differing)")
        #expect(rgb(south.pixel(x: darkestNorth.x, y: darkestNorth.y)).r > darkestNorth.v + 40)
    }

    @Test func aLayerReadsOnlyASourceOfItsKindAndAHeatmapIsLeftOut() throws {
        let s = try style([#"{"id": "r", "type": "raster", "source": "omt"}"#, #"{"id": "h", "type": "hillshade", "source": "sat"}"#,
                           #"{"id": "ok", "type": "hillshade", "source": "dem"}"#, #"{"id": "m", "type": "heatmap", "source": "omt"}"#,
                           #"{"id": "nowhere", "type": "raster", "source": "missing"}"#].joined(separator: ","))
        #expect(s.layers.map(\.id) == ["ok"])
        #expect(s.notices.count == 4)
        #expect(s.notices.contains { $0.contains("'r'") && $0.contains("raster source") })
        #expect(s.notices.contains { $0.contains("unknown source 'missing'") })
        #expect(Set(s.pictureSources.keys) == ["dem"])
    }
}
