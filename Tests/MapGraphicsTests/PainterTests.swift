import Foundation
import MapCore
import MapGeometry
import MapGraphics
import MapTiles
import Testing

/// Cairo painting checked pixel by pixel (ARGB words, premultiplied).
struct PainterTests {
    func rgb(_ p: UInt32) -> (r: Int, g: Int, b: Int) { (Int(p >> 16 & 255), Int(p >> 8 & 255), Int(p & 255)) }

    @Test func anEmptyTileIsWaterAndALandPolygonIsLand() throws {
        let painter = VectorTilePainter()
        let t = TileID(z: 3, x: 4, y: 2)
        let water = try painter.paint(t, data: Data(), dataTile: t, pixelSize: 256).bitmap
        #expect(rgb(water.pixel(x: 128, y: 128)) == (0xAA, 0xD0, 0xE6))
        // Land over the left half of the tile.
        let half: [VectorTile.Point] = [.init(x: 0, y: 0), .init(x: 2048, y: 0), .init(x: 2048, y: 4096), .init(x: 0, y: 4096)]
        let data = MVTEncoder.encode(VectorTile(layers: [.init(name: "land", features: [.init(type: .polygon, parts: [half])])]))
        let b = try painter.paint(t, data: data, dataTile: t, pixelSize: 256).bitmap
        #expect(rgb(b.pixel(x: 60, y: 128)) == (0xF3, 0xF0, 0xE8))
        #expect(rgb(b.pixel(x: 200, y: 128)) == (0xAA, 0xD0, 0xE6))
        // Over-zoom: the left child of the tile is all land, the right child all water.
        let left = try painter.paint(TileID(z: 4, x: 8, y: 4), data: data, dataTile: t, pixelSize: 256).bitmap
        let right = try painter.paint(TileID(z: 4, x: 9, y: 4), data: data, dataTile: t, pixelSize: 256).bitmap
        #expect(rgb(left.pixel(x: 128, y: 128)) == (0xF3, 0xF0, 0xE8) && rgb(left.pixel(x: 250, y: 128)) == (0xF3, 0xF0, 0xE8))
        #expect(rgb(right.pixel(x: 5, y: 128)) == (0xAA, 0xD0, 0xE6))
    }

    @Test func aDamagedTileIsAnErrorNotACrash() {
        let t = TileID(z: 1, x: 0, y: 0)
        #expect(throws: ProtobufError.self) { try VectorTilePainter().paint(t, data: Data([0x1a, 0x85]), dataTile: t, pixelSize: 64) }
    }

    @Test func placesComeWithTheTilesThatHoldThem() throws {
        let t = TileID(z: 2, x: 1, y: 1)
        let places = VectorTile.Layer(name: "places", features: [
            .init(type: .point, parts: [[.init(x: 100, y: 100)]], properties: ["name": .string("NW"), "population": .int(5), "capital": .int(1)]),
            .init(type: .point, parts: [[.init(x: 4000, y: 4000)]], properties: ["name": .string("SE"), "population": .int(7), "capital": .int(0)]),
        ])
        let data = MVTEncoder.encode(VectorTile(layers: [places]))
        let whole = try VectorTilePainter().paint(t, data: data, dataTile: t, pixelSize: 64).places
        #expect(Set(whole.map(\.name)) == ["NW", "SE"])
        #expect(whole.first { $0.name == "NW" }!.capital)
        // An over-zoomed child holds only its own quarter's places.
        let nw = try VectorTilePainter().paint(TileID(z: 3, x: 2, y: 2), data: data, dataTile: t, pixelSize: 64).places
        #expect(nw.map(\.name) == ["NW"])
    }

    @Test func textSpritesHaveInkAndAHaloAndScaleWithDensity() throws {
        let one = try TextRasterizer.render("Paris", style: .capital, pixelRatio: 1)
        let two = try TextRasterizer.render("Paris", style: .capital, pixelRatio: 2)
        #expect(one.width > 30 && one.height > 12)
        #expect(abs(Double(two.width) / Double(one.width) - 2) < 0.15)
        let dark = one.pixels.filter { $0 >> 24 > 200 && ($0 & 0xff) < 80 }.count
        let light = one.pixels.filter { $0 >> 24 > 100 && ($0 & 0xff) > 200 }.count
        #expect(dark > 20 && light > 20) // glyphs and their white halo
    }

    @Test func overlaySpritesAreDrawnAtTheirSizeAndDensity() throws {
        let dot = try OverlaySprites.locationDot(.systemBlue, pixelRatio: 2)
        #expect(dot.width == Int(((LocationAnnotation.dotDiameter / 2 + 4) * 2 * 2).rounded()))
        let c = dot.width / 2
        #expect(rgb(dot.pixel(x: c, y: c)).b > 200)                     // blue centre
        let ring = dot.pixel(x: c + Int(LocationAnnotation.dotDiameter / 2 * 2) - 3, y: c)
        #expect(rgb(ring) == (255, 255, 255) || ring >> 24 > 240)       // the white ring
        for raster in 0...2 {
            let h = try OverlaySprites.halo(.systemBlue, raster: raster, pixelRatio: 1)
            #expect(h.width == Int((HaloPulse.diameter * HaloPulse.rasterFractions[raster]).rounded()))
        }
        let circle = try OverlaySprites.circle(CircleStyle(color: Color(hex: 0xFF0000)), radius: 32, pixelRatio: 1)
        #expect(circle.width == 64)
        #expect(circle.pixel(x: 0, y: 0) >> 24 == 0)          // transparent corner
        #expect(circle.pixel(x: 32, y: 32) >> 24 > 120)       // filled middle
    }
}
