import Foundation
import Testing

/// Reads pixels of a PNG via ImageMagick's `convert`, which the test set-up installs.
struct PNG {
    let width: Int
    let height: Int
    let rgb: [UInt8]

    init(_ path: String) throws {
        guard let convert = which("convert") else { throw HarnessError("imagemagick is not installed") }
        let info = try run(convert, [path, "-format", "%w %h", "info:"])
        let wh = info.stdout.split(separator: " ").compactMap { Int($0) }
        guard wh.count == 2 else { throw HarnessError("not an image: \(path) \(info.stderr)") }
        width = wh[0]; height = wh[1]
        let raw = temporaryDirectory("png").appendingPathComponent("x.rgb")
        let r = try run(convert, [path, "-depth", "8", "rgb:" + raw.path])
        guard r.status == 0 else { throw HarnessError(r.stderr) }
        rgb = [UInt8](try Data(contentsOf: raw))
    }

    func pixel(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let i = (y * width + x) * 3
        return (Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
    }

    var distinctColours: Int {
        var s = Set<Int>()
        for i in stride(from: 0, to: rgb.count, by: 3) { s.insert(Int(rgb[i]) << 16 | Int(rgb[i + 1]) << 8 | Int(rgb[i + 2])) }
        return s.count
    }

    /// Fraction of pixels in a box darker than `level` (labels are dark on light tiles).
    func darkFraction(x: Int, y: Int, w: Int, h: Int, level: Int = 100) -> Double {
        var n = 0
        for yy in y..<(y + h) { for xx in x..<(x + w) { let p = pixel(xx, yy); if p.r + p.g + p.b < level * 3 { n += 1 } } }
        return Double(n) / Double(w * h)
    }
}

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
