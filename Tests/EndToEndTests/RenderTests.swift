import Foundation
import Testing
import TestPictures

@Suite(.serialized)
struct RenderTests {
    @Test func rendersTheDebugGridAtTheRequestedSizeAndScale() throws {
        let dir = temporaryDirectory("render")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("grid.png").path
        // Centre on the corner of four z2 tiles so tile centres land at known pixels.
        let r = try run(meridianBinary, ["render", "--tiles", "debug", "--center", "0,0", "--zoom", "2",
                                         "--size", "512x512", "--scale", "2", "--out", out],
                        env: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
        #expect(r.status == 0, "\(r.stderr)")
        let png = try PNG(out)
        #expect(png.width == 1024 && png.height == 1024)
        #expect(png.distinctColours > 20)
        // Each tile's z/x/y label is dark text in the middle of the tile, none at the borders' centres.
        for (cx, cy) in [(256, 256), (768, 256), (256, 768), (768, 768)] {
            #expect(png.darkFraction(x: cx - 100, y: cy - 20, w: 200, h: 40) > 0.08, "no label at \(cx),\(cy)")
        }
        #expect(png.darkFraction(x: 480, y: 100, w: 60, h: 60) < 0.05)
    }

    @Test func aDirectoryOfPNGTilesIsDecodedAndPlaced() throws {
        let dir = temporaryDirectory("tiles")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Four z1 tiles in four colours, made with ImageMagick.
        let colours = ["0/0": "#d62728", "1/0": "#2ca02c", "0/1": "#1f77b4", "1/1": "#ffbb00"]
        for (xy, c) in colours {
            let parts = xy.split(separator: "/")
            let folder = dir.appendingPathComponent("1/\(parts[0])")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try run(which("convert")!, ["-size", "256x256", "xc:\(c)", folder.appendingPathComponent("\(parts[1]).png").path])
        }
        let out = dir.appendingPathComponent("out.png").path
        let r = try run(meridianBinary, ["render", "--tiles", dir.path, "--center", "0,0", "--zoom", "1",
                                         "--size", "512x512", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        let png = try PNG(out)
        func near(_ p: (r: Int, g: Int, b: Int), _ hex: Int) -> Bool {
            abs(p.r - (hex >> 16)) < 6 && abs(p.g - (hex >> 8 & 255)) < 6 && abs(p.b - (hex & 255)) < 6
        }
        #expect(near(png.pixel(128, 128), 0xd62728)) // x0 y0: north-west
        #expect(near(png.pixel(384, 128), 0x2ca02c)) // x1 y0: north-east
        #expect(near(png.pixel(128, 384), 0x1f77b4)) // x0 y1
        #expect(near(png.pixel(384, 384), 0xffbb00)) // x1 y1
    }

    @Test func brokenTilesAreReportedAndCoveredNotFatal() throws {
        let dir = temporaryDirectory("broken")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("0/0"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("1/0"), withIntermediateDirectories: true)
        try run(which("convert")!, ["-size", "256x256", "xc:#336699", dir.appendingPathComponent("0/0/0.png").path])
        try Data("this is not a png".utf8).write(to: dir.appendingPathComponent("1/0/0.png"))
        let out = dir.appendingPathComponent("out.png").path
        let r = try run(meridianBinary, ["render", "--tiles", dir.path, "--center", "40,-90", "--zoom", "1",
                                         "--size", "256x256", "--out", out])
        #expect(r.status == 0)
        #expect(r.stderr.contains("1/0/0"), "\(r.stderr)")
        // The broken z1 tile's place shows its z0 parent instead of a hole.
        let p = try PNG(out).pixel(128, 128)
        #expect(abs(p.r - 0x33) < 6 && abs(p.g - 0x66) < 6 && abs(p.b - 0x99) < 6)
    }
}
