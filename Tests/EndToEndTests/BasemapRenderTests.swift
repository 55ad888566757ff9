import Foundation
import Testing
import TestPictures

/// The embedded basemap through `meridian render`: known places have the right colours.
@Suite(.serialized)
struct BasemapRenderTests {
    static let water = (r: 0xAA, g: 0xD0, b: 0xE6)
    static let land = (r: 0xF3, g: 0xF0, b: 0xE8)
    static let urban = (r: 0xE8, g: 0xDF, b: 0xD1)

    /// The median colour of a (2r+1)² box: one river or border pixel does not decide.
    func median(_ png: PNG, _ x: Int, _ y: Int, r: Int = 4) -> (r: Int, g: Int, b: Int) {
        var px: [(r: Int, g: Int, b: Int)] = []
        for yy in (y - r)...(y + r) { for xx in (x - r)...(x + r) { px.append(png.pixel(xx, yy)) } }
        return px.sorted { ($0.r + $0.g + $0.b) < ($1.r + $1.g + $1.b) }[px.count / 2]
    }

    func near(_ p: (r: Int, g: Int, b: Int), _ c: (r: Int, g: Int, b: Int), _ tol: Int = 8) -> Bool {
        abs(p.r - c.r) <= tol && abs(p.g - c.g) <= tol && abs(p.b - c.b) <= tol
    }

    /// Renders 256×256 around a coordinate and returns the image.
    func render(_ lat: Double, _ lon: Double, zoom: Double, extra: [String] = [], dir: URL) throws -> PNG {
        let out = dir.appendingPathComponent("r-\(lat)-\(lon)-\(zoom).png").path
        let r = try run(meridianBinary, ["render", "--center", "\(lat),\(lon)", "--zoom", "\(zoom)", "--size", "256x256",
                                         "--no-labels", "--out", out] + extra, env: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
        guard r.status == 0 else { throw HarnessError("render failed: \(r.stderr)") }
        return try PNG(out)
    }

    @Test func basemapIsTheDefaultAndOceanIsWater() throws {
        let dir = temporaryDirectory("atlantic")
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = try render(30, -40, zoom: 4, dir: dir)
        #expect(near(png.pixel(128, 128), Self.water))
    }

    @Test("Cities are on land", arguments: [("Paris", 48.8566, 2.3522), ("Madrid", 40.4168, -3.7038), ("Beijing", 39.9042, 116.4074)])
    func citiesAreOnLand(name: String, lat: Double, lon: Double) throws {
        let dir = temporaryDirectory("land")
        defer { try? FileManager.default.removeItem(at: dir) }
        for z in [4.0, 7.0] {
            let p = median(try render(lat, lon, zoom: z, dir: dir), 128, 128)
            #expect(near(p, Self.land) || near(p, Self.urban), "\(name) z\(z): \(p)")
        }
    }

    @Test func lakeVictoriaIsWaterAtZ5() throws {
        let dir = temporaryDirectory("victoria")
        defer { try? FileManager.default.removeItem(at: dir) }
        // South of the Uganda–Tanzania border, which runs along 1° S through the lake.
        #expect(near(try render(-1.6, 33.0, zoom: 5, dir: dir).pixel(128, 128), Self.water))
    }

    /// Down a column across the Pyrenees at z6, the darkest pixel is the border line and
    /// it differs from the land of France above and of Spain below.
    @Test func franceSpainBorderIsDrawnAtZ6() throws {
        let dir = temporaryDirectory("border")
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = try render(42.75, 0.0, zoom: 6, dir: dir)
        let column = (80..<176).map { (y: $0, p: png.pixel(128, $0)) }
        let darkest = column.min { ($0.p.r + $0.p.g + $0.p.b) < ($1.p.r + $1.p.g + $1.p.b) }!
        let france = median(png, 128, 40), spain = median(png, 128, 200)
        #expect(near(france, Self.land) && near(spain, Self.land))
        #expect(!near(darkest.p, Self.land, 20), "border pixel \(darkest)")
        #expect(darkest.p.r + darkest.p.g + darkest.p.b < (Self.land.r + Self.land.g + Self.land.b) - 60)
    }

    @Test func parisIsLabelledAtZ5() throws {
        let dir = temporaryDirectory("labels")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("p.png").path, labels = dir.appendingPathComponent("l.json").path
        let r = try run(meridianBinary, ["render", "--center", "48.8566,2.3522", "--zoom", "5", "--size", "800x600",
                                         "--out", out, "--labels-out", labels])
        #expect(r.status == 0, "\(r.stderr)")
        struct L: Decodable { var name: String; var capital: Bool; var x: Double; var y: Double; var width: Double; var height: Double }
        let placed = try JSONDecoder().decode([L].self, from: Data(contentsOf: URL(fileURLWithPath: labels)))
        let paris = try #require(placed.first { $0.name == "Paris" })
        #expect(paris.capital)
        // Next to the centre of the view, where Paris is.
        #expect(abs(paris.x - 400) < 120 && abs(paris.y + paris.height / 2 - 300) < 40)
        // And text really is drawn there: dark glyph pixels inside its box.
        let png = try PNG(out)
        #expect(png.darkFraction(x: Int(paris.x), y: Int(paris.y), w: Int(paris.width), h: Int(paris.height), level: 90) > 0.05)
        #expect(placed.count > 10)
    }

    @Test func attributionAndScaleBarAreShown() throws {
        let dir = temporaryDirectory("chrome")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("c.png").path
        #expect(try run(meridianBinary, ["render", "--center", "20,-40", "--zoom", "3", "--size", "600x400", "--out", out]).status == 0)
        let png = try PNG(out)
        // Over open ocean, the bottom corners carry dark text on light plates.
        #expect(png.darkFraction(x: 480, y: 385, w: 118, h: 14, level: 110) > 0.03)
        #expect(png.darkFraction(x: 8, y: 375, w: 100, h: 20, level: 110) > 0.03)
        // Open ocean, far from any label, is plain water.
        #expect(png.darkFraction(x: 250, y: 120, w: 80, h: 20, level: 110) < 0.01)
    }

    @Test func labelsKeepClearOfTheScaleBarAndAttribution() throws {
        let dir = temporaryDirectory("clear")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("c.png").path, labels = dir.appendingPathComponent("l.json").path
        #expect(try run(meridianBinary, ["render", "--center", "20,-40", "--zoom", "3", "--size", "600x400",
                                         "--out", out, "--labels-out", labels]).status == 0)
        struct L: Decodable { var name: String; var x: Double; var y: Double; var width: Double; var height: Double }
        let placed = try JSONDecoder().decode([L].self, from: Data(contentsOf: URL(fileURLWithPath: labels)))
        #expect(!placed.isEmpty)
        // The scale bar's plate spans about x 6–180, y 367–394 (a 2000 km bar is ~75 pt at
        // 20° N, z3; the plate stops 6 pt above the bottom); the attribution's about x 465–600,
        // y 383–400. No label box enters them.
        for l in placed {
            let bottom = l.y + l.height, right = l.x + l.width
            #expect(!(l.x < 180 && bottom > 367 && l.y < 394), "\(l.name) overlaps the scale bar")
            #expect(!(right > 465 && bottom > 383), "\(l.name) overlaps the attribution")
        }
    }
}
