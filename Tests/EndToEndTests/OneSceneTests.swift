import Foundation
import Testing
import TestPictures

/// The window and `meridian render` compose from one map state through the same code: for
/// the same state and time their draw lists are equal, command for command.
@Suite(.serialized)
struct OneSceneTests {
    static let pins = """
    {"type":"FeatureCollection","features":[
    {"type":"Feature","geometry":{"type":"Point","coordinates":[2.3522,48.8566]},"properties":{"id":"p1","title":"Paris","color":"#FF3B30"}},
    {"type":"Feature","geometry":{"type":"Point","coordinates":[4.8357,45.764]},"properties":{"id":"p2","title":"Lyon","color":"#007AFF"}}]}
    """
    static let view = ["--center", "47,3", "--zoom", "5", "--circle", "46,1,60000,green", "--location", "48.5,5,30000,45"]

    @Test func windowAndRenderDrawTheSameList() throws {
        let dir = temporaryDirectory("onescene")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pinsFile = dir.appendingPathComponent("pins.geojson")
        try Data(Self.pins.utf8).write(to: pinsFile)
        let rendered = dir.appendingPathComponent("render.txt").path, windowed = dir.appendingPathComponent("window.txt").path
        let r = try run(meridianBinary, ["render"] + Self.view + ["--pins", pinsFile.path, "--size", "800x600", "--at", "0.4",
                                                                 "--out", dir.appendingPathComponent("x.png").path, "--drawlist-out", rendered])
        #expect(r.status == 0, "\(r.stderr)")
        // Not a first start: the window's one-time hint of where the keys are is not part of
        // the scene render draws.
        let state = dir.appendingPathComponent("meridian")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try Data(#"{"center":{"lat":0,"lon":0},"zoom":3,"helpHintShown":true,"hintShown":true}"#.utf8).write(to: state.appendingPathComponent("view.json"))
        let x = try Xvfb(width: 800, height: 600)
        let app = try App(Self.view + ["--pins", pinsFile.path, "--size", "800x600", "--exit-when-drawn"],
                          env: ["DISPLAY": x.display, "WAYLAND_DISPLAY": "", "XDG_STATE_HOME": dir.path,
                                "MERIDIAN_FIXED_TIME": "0.4", "MERIDIAN_DRAWLIST_OUT": windowed])
        #expect(app.waitForExit(timeout: 30), "the window never finished drawing")
        let a = try String(contentsOfFile: rendered, encoding: .utf8).split(separator: "\n")
        let b = try String(contentsOfFile: windowed, encoding: .utf8).split(separator: "\n")
        // Tiles, labels, the circle, both pins with shadows, the location's parts, the chrome.
        #expect(a.count > 40, "\(a.count) commands")
        #expect(a.filter { $0.contains("sprite(pin(") }.count == 2)
        #expect(a.contains { $0.contains("CircleSprite(") } && a.contains { $0.contains("sprite(dot(") })
        #expect(a == b, "first difference at \(a.indices.first { $0 >= b.count || a[$0] != b[$0] } ?? a.count): \(a.count) vs \(b.count) commands")
    }

    @Test func renderDrawsPinsAtTheirPixels() throws {
        let dir = temporaryDirectory("renderpins")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pinsFile = dir.appendingPathComponent("pins.geojson")
        try Data(Self.pins.utf8).write(to: pinsFile)
        let out = dir.appendingPathComponent("pins.png").path
        let r = try run(meridianBinary, ["render", "--center", "47,3", "--zoom", "6", "--tiles", "debug", "--no-labels",
                                         "--pins", pinsFile.path, "--size", "800x600", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        let png = try PNG(out)
        let c = worldPoint(lat: 47, lon: 3), k = 64.0
        for (lat, lon, hex) in [(48.8566, 2.3522, 0xFF3B30), (45.764, 4.8357, 0x007AFF)] {
            let p = worldPoint(lat: lat, lon: lon)
            let tip = (x: 400 + (p.x - c.x) * k, y: 300 + (p.y - c.y) * k)
            // The pin's head is 26 points above its tip, in the pin's colour (shaded).
            let head = png.pixel(Int(tip.x.rounded()), Int((tip.y - 29).rounded()))
            let (r0, g0, b0) = (hex >> 16, hex >> 8 & 255, hex & 255)
            let dominant = r0 > b0 ? head.r > head.b + 60 : head.b > head.r + 60
            #expect(dominant, "pin head at \(tip) is \(head), expected near #\(String(hex, radix: 16)) (\(r0),\(g0),\(b0))")
        }
        // A corrupt pins file is reported by render and left exactly as it was.
        try Data("{not json".utf8).write(to: pinsFile)
        let bad = try run(meridianBinary, ["render", "--pins", pinsFile.path, "--size", "200x100", "--tiles", "debug", "--out", out])
        #expect(bad.status == 0 && bad.stderr.contains("not valid JSON"), "\(bad.stderr)")
        #expect(try String(contentsOf: pinsFile, encoding: .utf8) == "{not json")
    }

    /// Full Foundation links ICU (and FoundationXML libxml2's Swift wrapper): 44 MB of the
    /// binary. The app uses FoundationEssentials only; this keeps it so.
    @Test func theBinaryLinksNeitherFoundationNorICU() throws {
        guard let readelf = which("readelf") else { throw HarnessError("readelf is not installed") }
        let r = try run(readelf, ["-d", meridianBinary])
        let needed = r.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }.map(String.init)
        #expect(!needed.isEmpty, "\(r.stderr)")
        for lib in ["libFoundation.so", "libFoundationXML", "libFoundationNetworking", "lib_FoundationICU", "libFoundationInternationalization"] {
            #expect(!needed.contains { $0.contains(lib) }, "linked: \(lib)")
        }
        #expect(needed.contains { $0.contains("libFoundationEssentials") } || !r.stdout.contains("Foundation"))
    }
}
