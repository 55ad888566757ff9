import Foundation
import Testing
import TestPictures
import TestSupport

/// `render` to paper: PDF pages of each size (pdfinfo), real text on them (pdftotext: street
/// names of the OpenStreetMap data, the credit, the stated scale), no page-sized picture for a
/// vector map and raster tiles at their own size (pdfimages), SVG that is XML with the track
/// as a path (xmllint), and the printed scale measured: two pins 1 km apart are 100 mm apart
/// on a 1:10 000 page.
@Suite(.serialized) struct PrintTests {
    static let mbtiles = StreetMapRenderTests.mbtiles
    static let centre = "60.1705,24.9440"

    func tool(_ name: String) throws -> String {
        guard let path = which(name) else { throw HarnessError("\(name) is not installed (make test installs poppler-utils and libxml2-utils)") }
        return path
    }

    func render(_ args: [String], out: String, dir: URL) throws -> RunResult {
        let r = try run(meridianBinary, ["render", "--out", out, "--timeout", "60"] + args,
                        env: ["DISPLAY": "", "WAYLAND_DISPLAY": "", "XDG_CACHE_HOME": dir.path, "XDG_CONFIG_HOME": dir.path])
        guard r.status == 0 else { throw HarnessError("render failed: \(r.stderr)") }
        return r
    }

    @Test("Each paper is its size", arguments: [
        ("a5", 419.528, 595.276), ("a4", 595.276, 841.89), ("a3", 841.89, 1190.55), ("letter", 612.0, 792.0), ("legal", 612.0, 1008.0),
        ("a4,landscape", 841.89, 595.276),
    ])
    func eachPaperIsItsSize(paper: String, width: Double, height: Double) throws {
        let dir = temporaryDirectory("print-paper")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("p.pdf").path
        _ = try render(["--paper", paper, "--zoom", "3", "--center", "50,10"], out: out, dir: dir)
        let info = try run(try tool("pdfinfo"), [out]).stdout
        let line = try #require(info.split(separator: "\n").first { $0.hasPrefix("Page size:") })
        let numbers = line.split(separator: " ").compactMap { Double($0) }
        #expect(numbers.count >= 2 && abs(numbers[0] - width) < 0.5 && abs(numbers[1] - height) < 0.5, "\(line)")
    }

    @Test func aStreetMapPageIsVectorsAndRealText() throws {
        let dir = temporaryDirectory("print-streets")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("helsinki.pdf").path
        _ = try render(["--tiles", Self.mbtiles, "--center", Self.centre, "--paper", "a4", "--map-scale", "1:5000", "--title", "Central Helsinki"],
                       out: out, dir: dir)
        let text = try run(try tool("pdftotext"), ["-raw", out, "-"]).stdout
        for name in ["Central Helsinki", "Aleksanterinkatu", "Pohjoisesplanadi", "Kaivokatu", "KESKUSTA", "© OpenStreetMap contributors", "Scale 1:5 000"] {
            #expect(text.contains(name), "\(name) not in: \(text.prefix(600))")
        }
        // No picture at all: streets, buildings, the scale bar and the labels are vectors.
        let images = try run(try tool("pdfimages"), ["-list", out]).stdout.split(separator: "\n").dropFirst(2)
        #expect(images.isEmpty, "\(images)")
        let info = try run(try tool("pdfinfo"), [out]).stdout
        let lines = info.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("Title:") && $0.hasSuffix("Central Helsinki") })
        #expect(lines.contains { $0.hasPrefix("Pages:") && $0.hasSuffix(" 1") })
    }

    @Test func rasterTilesAreEmbeddedAtTheirOwnSize() throws {
        let dir = temporaryDirectory("print-raster")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try TileServer()
        let out = dir.appendingPathComponent("streets.pdf").path
        _ = try render(["--tiles", server.url("/street/{z}/{x}/{y}.png"), "--center", Self.centre, "--zoom", "13", "--paper", "a5"], out: out, dir: dir)
        let rows = try run(try tool("pdfimages"), ["-list", out]).stdout.split(separator: "\n").dropFirst(2)
        #expect(!rows.isEmpty)
        // pdfimages: page num type width height …; every picture is a 256-pixel tile, none
        // enlarged to the page.
        for row in rows {
            let f = row.split(separator: " ", omittingEmptySubsequences: true)
            #expect(f.count > 4 && f[3] == "256" && f[4] == "256", "\(row)")
        }
    }

    @Test func anSVGIsXMLWithTheTrackAsAPath() throws {
        let dir = temporaryDirectory("print-svg")
        defer { try? FileManager.default.removeItem(at: dir) }
        let gpx = dir.appendingPathComponent("walk.gpx")
        try #"<?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Walk</name><trkseg><trkpt lat="60.168" lon="24.936"/><trkpt lat="60.171" lon="24.945"/><trkpt lat="60.169" lon="24.952"/></trkseg></trk></gpx>"#
            .write(to: gpx, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("walk.svg").path
        _ = try render(["--tiles", Self.mbtiles, "--center", Self.centre, "--zoom", "15", "--size", "500x400", gpx.path], out: out, dir: dir)
        let lint = try run(try tool("xmllint"), ["--noout", out])
        #expect(lint.status == 0, "\(lint.stderr)")
        let svg = try String(contentsOfFile: out, encoding: .utf8)
        #expect(svg.contains("<svg") && svg.contains("width=\"500pt\""))
        // The track's colour (TrackStyle's first, #E8336B… drawn as a stroke) on a path.
        #expect(svg.components(separatedBy: "<path").count > 50)
        #expect(!svg.contains("<image"), "a vector map has no picture in it")
    }

    /// Two pins 1 km apart along the centre's parallel on a 1:10 000 page: 100 mm apart on
    /// paper, measured on the page rasterized at 254 dpi (10 pixels a millimetre).
    @Test func theScaleIsExact() throws {
        let dir = temporaryDirectory("print-scale")
        defer { try? FileManager.default.removeItem(at: dir) }
        let lat = 60.1705, lon = 24.9440
        // 1 km along the parallel on Web Mercator's sphere (R = 6378137 m).
        let dLon = 1000 / (6_378_137 * cos(lat * .pi / 180)) * 180 / .pi
        let pins = dir.appendingPathComponent("pins.geojson")
        let features = [lon - dLon / 2, lon + dLon / 2].enumerated().map { i, x in
            ##"{"type":"Feature","geometry":{"type":"Point","coordinates":[\##(x),\##(lat)]},"properties":{"id":"p\##(i)","title":"","color":"#00FF00"}}"##
        }
        try #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#.write(to: pins, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("scale.pdf").path
        let r = try render(["--tiles", Self.mbtiles, "--center", "\(lat),\(lon)", "--paper", "a4,landscape", "--map-scale", "1:10000",
                            "--pins", pins.path, "--no-labels"], out: out, dir: dir)
        _ = r
        let png = dir.appendingPathComponent("scale").path
        _ = try run(try tool("pdftoppm"), ["-r", "254", "-png", "-singlefile", out, png])
        let page = try PNG(png + ".png")
        // The pins' green, and where each of the two lies (left and right of the middle).
        var sums = [(x: 0.0, y: 0.0, n: 0.0), (x: 0.0, y: 0.0, n: 0.0)]
        for y in 0..<page.height { for x in 0..<page.width {
            let p = page.pixel(x, y)
            guard p.g > 200, p.r < 60, p.b < 60 else { continue }
            let side = x < page.width / 2 ? 0 : 1
            sums[side].x += Double(x); sums[side].y += Double(y); sums[side].n += 1
        } }
        try #require(sums[0].n > 20 && sums[1].n > 20)
        let a = (sums[0].x / sums[0].n, sums[0].y / sums[0].n), b = (sums[1].x / sums[1].n, sums[1].y / sums[1].n)
        let millimetres = hypot(b.0 - a.0, b.1 - a.1) / 10
        #expect(abs(millimetres - 100) < 0.3, "\(millimetres) mm")
        print("scale: the pins are \(millimetres) mm apart on paper")
        #expect(try run(try tool("pdftotext"), [out, "-"]).stdout.contains("Scale 1:10 000"))
    }
}
