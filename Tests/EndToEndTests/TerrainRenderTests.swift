import Foundation
import MapGeometry
import MapTiles
import Testing
import TestPictures
import TestSupport

/// Terrain as a map through `render --tiles terrain:FILE`: an archive holding the North Shore
/// DEM tile (Tests/Fixtures/dem) drawn shaded, with brown contour lines, level water clear.
struct TerrainRenderTests {
    static let dem = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/dem/terrarium-12-646-1400.png")

    @Test func aDEMArchiveIsDrawnAsTerrain() throws {
        let dir = temporaryDirectory("terrain-render")
        defer { try? FileManager.default.removeItem(at: dir) }
        let archive = dir.appendingPathComponent("dem.mbtiles").path
        try MBTilesFixture.write(archive, metadata: ["name": "North Shore heights", "format": "png", "minzoom": "12", "maxzoom": "12",
                                                    "attribution": "AWS Terrain Tiles"],
                                 tiles: [(12, 646, 1400, try Data(contentsOf: Self.dem))])
        let out = dir.appendingPathComponent("terrain.png").path
        // The tile's centre at z12, 256 pixels: the picture is the tile, pixel for pixel.
        let r = try run(meridianBinary, ["render", "--tiles", "terrain:" + archive, "--center", "49.353756,-123.178711", "--zoom", "12",
                                         "--size", "256x256", "--no-labels", "--out", out],
                        env: ["DISPLAY": "", "WAYLAND_DISPLAY": "", "XDG_CACHE_HOME": dir.path])
        #expect(r.status == 0, "\(r.stderr)")
        let png = try PNG(out)
        // Contour lines: brown pixels (red over green over blue, warm) in the middle of the picture.
        var brown = 0
        for y in 60..<200 { for x in 20..<200 {
            let p = png.pixel(x, y)
            if p.r > p.g + 12 && p.g > p.b + 8 && p.r > 90 { brown += 1 }
        } }
        #expect(brown > 150, "\(brown) brown pixels")
        // Shaded: the slopes are not all one grey.
        #expect(png.distinctColours > 500)
        // The water of the inlet (tile pixel 32, 190, level at 0 m) is not shaded: the map's light background.
        let water = png.pixel(32, 190)
        #expect(water.r > 200 && water.g > 200 && water.b > 200, "\(water)")
    }
}
