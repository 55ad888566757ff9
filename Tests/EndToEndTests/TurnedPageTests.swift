import Foundation
import Testing
import TestPictures
import TestSupport

/// Pages and pictures of a turned map, and street names a PDF reader finds whole: `render
/// --bearing` turns the picture (a 90° turn is the north-up picture turned, 0° and 360° are the
/// same), and every name `render` placed on an A4 page of Helsinki's streets (OpenStreetMap
/// data, Tests/Fixtures/vector) is a whole word in what `pdftotext` reads, north up or turned
/// (it read "U n ion in k atu" when each letter was a text of its own).
@Suite(.serialized) struct TurnedPageTests {
    static let mbtiles = StreetMapRenderTests.mbtiles
    static let centre = "60.1705,24.9440"

    func tool(_ name: String) throws -> String {
        guard let path = which(name) else { throw HarnessError("\(name) is not installed (make test installs poppler-utils)") }
        return path
    }

    func render(_ args: [String], out: String, dir: URL) throws {
        let r = try run(meridianBinary, ["render", "--tiles", Self.mbtiles, "--center", Self.centre, "--out", out, "--timeout", "60"] + args,
                        env: ["DISPLAY": "", "WAYLAND_DISPLAY": "", "XDG_CACHE_HOME": dir.path, "XDG_CONFIG_HOME": dir.path])
        guard r.status == 0 else { throw HarnessError("render failed: \(r.stderr)") }
    }

    /// Whether `name` stands in `text` with no letter or digit right before or after it.
    func containsWhole(_ text: String, _ name: String) -> Bool {
        var from = text.startIndex
        while let r = text.range(of: name, range: from..<text.endIndex) {
            let before = r.lowerBound == text.startIndex ? nil : text[text.index(before: r.lowerBound)]
            let after = r.upperBound == text.endIndex ? nil : text[r.upperBound]
            if !(before?.isLetter ?? false || before?.isNumber ?? false), !(after?.isLetter ?? false || after?.isNumber ?? false) { return true }
            from = r.upperBound
        }
        return false
    }

    struct Label: Decodable { var name: String; var along: Bool; var x: Double; var y: Double; var width: Double; var height: Double }

    /// An A4 sheet's map frame, in points: 10 mm margins and the footer's band (no title).
    static let a4Frame = (width: 595.276 - 2 * 28.3465, height: 841.89 - 2 * 28.3465 - 26)

    @Test("Names on a page are whole words", arguments: [
        ("60.1705,24.9440", "1:10000", "0", ["Unioninkatu", "Kaivokatu", "KAISANIEMI", "KAARTINKAUPUNKI"]),
        ("60.1699957,24.9380395", "1:2500", "0", ["Mannerheimintie", "Kaivokatu", "Simonkatu"]),
        ("60.1705,24.9440", "1:5000", "0", ["Unioninkatu", "Aleksanterinkatu", "Pohjoisesplanadi", "Alvar Aallon katu", "Yrjö-Koskisen katu"]),
        ("60.1705,24.9440", "1:10000", "30", ["Unioninkatu", "Kaivokatu", "KLUUVI"]),
    ])
    func namesAreWholeWords(centre: String, scale: String, bearing: String, names: [String]) throws {
        let dir = temporaryDirectory("page-words")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("page.pdf").path, labels = dir.appendingPathComponent("labels.json").path
        try render(["--center", centre, "--paper", "a4", "--map-scale", scale, "--bearing", bearing, "--labels-out", labels], out: out, dir: dir)
        // pdftotext as it reads by default: words from where the letters stand.
        let text = try run(try tool("pdftotext"), [out, "-"]).stdout
        for name in names { #expect(containsWhole(text, name), "\(name) not whole in: \(text.prefix(800))") }
        // Every name placed wholly inside the frame: a name along a street whole (it is one
        // line), a name at a point word by word (a long one is wrapped onto lines).
        let placed = try JSONDecoder().decode([Label].self, from: Data(contentsOf: URL(fileURLWithPath: labels))).filter {
            $0.x >= 0 && $0.y >= 0 && $0.x + $0.width <= Self.a4Frame.width && $0.y + $0.height <= Self.a4Frame.height
        }
        let streets = Set(placed.filter(\.along).map(\.name)), places = Set(placed.filter { !$0.along }.map(\.name))
        #expect(streets.count >= 3, "\(placed.map(\.name))")
        let missing = streets.filter { !containsWhole(text, $0) }
            + places.filter { !$0.split(whereSeparator: \.isWhitespace).allSatisfy { containsWhole(text, String($0)) } }
        #expect(missing.isEmpty, "not whole: \(missing.sorted()) in: \(text.prefix(800))")
        print("page \(scale) at \(bearing)°: \(streets.count) street names and \(places.count) place names, all whole")
    }

    /// The share of pixels inside the central disc (radius `radius` × the side) that differ
    /// by more than `by` in a channel between `a` turned counter-clockwise by 90° and `b`,
    /// and the mean difference there.
    func turnedDifference(_ a: PNG, _ b: PNG, radius: Double, by: Int) -> (count: Int, share: Double, mean: Double) {
        let n = a.width, r = radius * Double(n)
        var over = 0, inside = 0, sum = 0
        for y in 0..<n { for x in 0..<n {
            let dx = Double(x) - Double(n) / 2 + 0.5, dy = Double(y) - Double(n) / 2 + 0.5
            guard dx * dx + dy * dy <= r * r else { continue }
            // b(x, y) shows what a showed at (n-1-y, x): the map turned a quarter to the left.
            let p = a.pixel(n - 1 - y, x), q = b.pixel(x, y)
            let d = max(abs(p.r - q.r), abs(p.g - q.g), abs(p.b - q.b))
            inside += 1; sum += d
            if d > by { over += 1 }
        } }
        return (over, Double(over) / Double(max(inside, 1)), Double(sum) / Double(max(inside, 1)))
    }

    /// Without labels (which stay upright), a view turned 90° (east up) is the north-up view
    /// turned a quarter to the left: compared inside the view's central disc, away from the
    /// buttons in its corners. Tiles are resampled in the turned frame: edges differ a little.
    @Test func aQuarterTurnIsTheNorthUpPictureTurned() throws {
        let dir = temporaryDirectory("turn-quarter")
        defer { try? FileManager.default.removeItem(at: dir) }
        var pictures: [PNG] = []
        for bearing in ["0", "90"] {
            let out = dir.appendingPathComponent("b\(bearing).png").path
            try render(["--zoom", "15.3", "--size", "600x600", "--no-labels", "--bearing", bearing], out: out, dir: dir)
            pictures.append(try PNG(out))
        }
        let d = turnedDifference(pictures[0], pictures[1], radius: 0.35, by: 48)
        print("a quarter turn: \(d.count) pixels (\(String(format: "%.2f", d.share * 100)) %) of the central disc differ by more than 48, mean difference \(String(format: "%.2f", d.mean))")
        #expect(d.share < 0.01 && d.mean < 6, "\(d)")
        // Against a picture not turned, the same disc is far apart: the comparison sees turns.
        let unturned = turnedDifference(pictures[1], pictures[1], radius: 0.35, by: 48)
        #expect(unturned.share > 0.05, "\(unturned)")
    }

    @Test func zeroAndThreeSixtyDrawTheSame() throws {
        let dir = temporaryDirectory("turn-full")
        defer { try? FileManager.default.removeItem(at: dir) }
        var pictures: [PNG] = []
        for bearing in ["0", "360"] {
            let out = dir.appendingPathComponent("b\(bearing).png").path
            try render(["--zoom", "16", "--size", "400x300", "--bearing", bearing], out: out, dir: dir)
            pictures.append(try PNG(out))
        }
        #expect(pictures[0].rgb == pictures[1].rgb)
    }

    /// Ctrl+P in a window turned 90° (east up), with no print service: the sheet it saves is
    /// of the turned view, so its north arrow points left. Read from the footer's pixels:
    /// the arrow's ink is wider than tall, its mass toward the barbs, right of its middle.
    @Test func aTurnedWindowPrintsATurnedSheet() throws {
        let x = try Xvfb()
        let dir = temporaryDirectory("turned-print")
        defer { try? FileManager.default.removeItem(at: dir) }
        let bus = try PortalTests.SessionBus()
        let out = dir.appendingPathComponent("sheet.pdf")
        let portal = try PortalTests.start(ExportWindowTests.portal, bus: bus, dir: dir,
                                           arguments: [dir.appendingPathComponent("portal.log").path, out.absoluteString,
                                                       dir.appendingPathComponent("printed.pdf").path, "noprint"])
        defer { stop(portal) }
        let (app, id) = try startWindow(x, dir: dir, ["--size", "600x800", "--no-location", "--tiles", Self.mbtiles, "--center", Self.centre,
                                                      "--zoom", "15", "--bearing", "90"], env: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        _ = try x.xdotool("key", "ctrl+p")
        #expect(app.readLog(deadline: 60) { $0.contains("Saved the map as \(out.path)") }, "\(app.log)")
        try quit(x, id, app)
        // A4 portrait: the arrow turns about (556.93, 796.54) pt and reaches 9 pt from it; the
        // N is left of x 547, the frame's edge above y 788. At 300 dpi, 300/72 pixels a point.
        let k = 300.0 / 72, left = Int((548 * k).rounded()), top = Int((789 * k).rounded())
        let png = dir.appendingPathComponent("arrow").path
        _ = try run(try tool("pdftoppm"), ["-r", "300", "-png", "-singlefile", "-x", "\(left)", "-y", "\(top)", "-W", "\(Int(20 * k))", "-H", "\(Int(18 * k))",
                                          out.path, png])
        let arrow = try PNG(png + ".png")
        var xs: [Int] = [], ys: [Int] = []
        for y in 0..<arrow.height { for x in 0..<arrow.width where arrow.pixel(x, y).r < 100 { xs.append(x); ys.append(y) } }
        try #require(xs.count > 50, "no arrow in the footer")
        let width = Double(xs.max()! - xs.min()!), height = Double(ys.max()! - ys.min()!)
        let centroid = Double(xs.reduce(0, +)) / Double(xs.count), middle = Double(xs.max()! + xs.min()!) / 2
        #expect(width > height * 1.2, "ink \(width)×\(height) px: not lying across")
        #expect(centroid > middle, "centroid \(centroid), middle \(middle): not pointing left")
    }
}
