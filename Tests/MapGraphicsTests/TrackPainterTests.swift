import Foundation
import MapCore
import MapGeometry
import MapGraphics
import MapTiles
import Testing

struct TrackPainterTests {
    /// A straight route along 46°N from 7.0°E to 7.2°E, with a bend north at its end.
    let route: TrackGeometry = {
        var p = TrackPoints()
        for (lat, lon) in [(46.0, 7.0), (46.0, 7.1), (46.0, 7.2), (46.1, 7.2)] { p.append(latitude: lat, longitude: lon, elevation: .nan, time: .nan) }
        return TrackGeometry(Track(kind: .route, segments: [0..<4], points: p))
    }()
    let red = TrackStyle(color: Color(hex: 0xFF0000), width: 4, casingWidth: 3)

    /// Channels of a premultiplied ARGB pixel.
    func argb(_ b: Bitmap, _ x: Int, _ y: Int) -> (a: Int, r: Int, g: Int, b: Int) {
        let p = b.pixel(x: x, y: y)
        return (Int(p >> 24), Int((p >> 16) & 0xFF), Int((p >> 8) & 0xFF), Int(p & 0xFF))
    }

    /// The line lies where the projection puts it, at two zooms and two densities: solid red
    /// on it, the light casing just beside it, nothing a little further.
    @Test(arguments: [(10, 1.0), (13, 1.0), (12, 2.0)])
    func theLineIsWhereTheProjectionPutsIt(zoom: Int, pointScale: Double) throws {
        let at = Coordinate(latitude: 46.0, longitude: 7.1)
        let w = WebMercator.project(at)
        let n = Double(1 << zoom), size = WebMercator.worldSize / n
        let tile = TileID(z: zoom, x: Int(w.x / size), y: Int(w.y / size))
        let pixels = Int(256 * pointScale)
        let canvas = try CairoCanvas(width: pixels, height: pixels)
        TrackPainter.paint([(route, red, [])], tile: tile, pointScale: pointScale, into: canvas)
        let bitmap = canvas.bitmap()
        let scale = Double(pixels) / size
        let px = Int((w.x - Double(tile.x) * size) * scale), py = Int((w.y - Double(tile.y) * size) * scale)
        let on = argb(bitmap, px, py)
        #expect(on.a == 255 && on.r > 240 && on.g < 20 && on.b < 20, "on the line: \(on)")
        // 3–4 points from the centre line: past the line's 2, inside the casing's 2 + 3.
        let edge = Int(3.5 * pointScale)
        let casing = argb(bitmap, px, py - edge)
        #expect(casing.a > 150 && casing.g > 150, "beside the line: \(casing)")
        let off = argb(bitmap, px, py - Int(12 * pointScale))
        #expect(off.a == 0, "away from the line: \(off)")
    }

    @Test func aTileAwayFromTheTrackIsLeftUntouched() throws {
        let canvas = try CairoCanvas(width: 256, height: 256)
        TrackPainter.paint([(route, red, [])], tile: TileID(z: 10, x: 10, y: 10), pointScale: 1, into: canvas)
        #expect(canvas.bitmap().pixels.allSatisfy { $0 == 0 })
    }
}
