import Foundation
import Testing
import TestPictures

/// Tracks and shapes from files through `meridian render`: the pixels lie where the
/// projection puts them, at more than one zoom, over the open sea (no land, no labels).
struct TrackRenderTests {
    func render(_ files: [URL], center: String = "35,-30", zoom: Double, size: String, dir: URL, name: String) throws -> PNG {
        let out = dir.appendingPathComponent("\(name).png").path
        var args = ["render", "--size", size, "--no-labels", "--no-location", "--out", out]
        if !center.isEmpty { args += ["--center", center, "--zoom", "\(zoom)"] }
        let r = try run(meridianBinary, args + files.map(\.path))
        guard r.status == 0 else { throw HarnessError(r.stderr) }
        return try PNG(out)
    }

    /// The palette's first colour (0xD6246E), give or take the resampling.
    func isTrack(_ p: (r: Int, g: Int, b: Int)) -> Bool { abs(p.r - 0xD6) < 30 && abs(p.g - 0x24) < 30 && abs(p.b - 0x6E) < 30 }

    @Test func aRouteLiesWhereTheProjectionPutsItAtTwoZooms() throws {
        let dir = temporaryDirectory("track-render")
        defer { try? FileManager.default.removeItem(at: dir) }
        // East–west along 35° N, from 30.05° W to 29.95° W.
        let gpx = dir.appendingPathComponent("line.gpx")
        try Data("""
        <gpx version="1.1" creator="t"><rte><rtept lat="35" lon="-30.05"/><rtept lat="35" lon="-29.95"/></rte></gpx>
        """.utf8).write(to: gpx)
        // Wide enough that the ends stay clear of the buttons on the right.
        for (zoom, width) in [(12.0, 480), (13.0, 800)] {
            let png = try render([gpx], zoom: zoom, size: "\(width)x300", dir: dir, name: "z\(Int(zoom))")
            // Half the route is 0.05° of longitude: 0.05 / 360 · 256 · 2^zoom points.
            let half = 0.05 / 360 * 256 * pow(2, zoom)
            let cx = width / 2, water = png.pixel(cx, 40)
            for dx in [-half + 6, -half / 2, 0, half / 2, half - 6] {
                let p = png.pixel(cx + Int(dx), 150)
                #expect(isTrack(p), "z\(zoom) at \(cx + Int(dx)),150: \(p)")
            }
            // Across the line: 3–5 rows of its colour around y = 150, a light casing row on
            // either side (lighter than the sea), and sea a few points further.
            let rows = (140...160).filter { isTrack(png.pixel(cx, $0)) }
            #expect(rows.count >= 3 && rows.count <= 5 && rows.contains(150) && rows.last! - rows.first! == rows.count - 1, "rows \(rows)")
            func light(_ y: Int) -> Bool { let p = png.pixel(cx, y); return p.r + p.g + p.b > water.r + water.g + water.b + 60 }
            if let first = rows.first, let last = rows.last {
                #expect(light(first - 2) || light(first - 1), "no casing above")
                #expect(light(last + 1) || light(last + 2), "no casing below")
            }
            #expect(png.pixel(cx, 160) == water && png.pixel(cx, 140) == water)
            // Beyond its ends: sea.
            #expect(png.pixel(cx + Int(half) + 12, 150) == water)
            #expect(png.pixel(cx - Int(half) - 12, 150) == water)
        }
    }

    @Test func aPolygonIsFilledInsideNotInItsHoleNorOutside() throws {
        let dir = temporaryDirectory("area-render")
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = dir.appendingPathComponent("area.geojson")
        try Data("""
        {"type":"Feature","properties":{"fill":"#ff0000","fill-opacity":0.5,"stroke":"#0000ff"},
         "geometry":{"type":"Polygon","coordinates":[[[-30.04,34.97],[-29.96,34.97],[-29.96,35.03],[-30.04,35.03],[-30.04,34.97]],
                                                    [[-30.01,34.99],[-29.99,34.99],[-29.99,35.01],[-30.01,35.01],[-30.01,34.99]]]}}
        """.utf8).write(to: json)
        let png = try render([json], zoom: 12, size: "400x300", dir: dir, name: "area")
        let water = png.pixel(5, 5)
        // 0.025° east of the centre: inside the outline, outside the hole (±0.01°, ±29 pt).
        let px = 0.025 / 360 * 256 * 4096
        let filled = png.pixel(200 + Int(px), 150)
        #expect(filled.r > water.r + 30 && filled.g < water.g - 60, "filled \(filled) water \(water)")
        #expect(png.pixel(200, 150) == water, "the hole: \(png.pixel(200, 150))")
        #expect(png.pixel(200 + Int(0.05 / 360 * 256 * 4096), 150) == water, "outside")
    }

    @Test func renderFitsTheViewToTheFilesWhenNoCentreIsGiven() throws {
        let dir = temporaryDirectory("fit-render")
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("walk.csv")
        try Data("-33.90,18.40\n-33.80,18.50\n".utf8).write(to: csv)
        let png = try render([csv], center: "", zoom: 0, size: "400x300", dir: dir, name: "fit")
        // The diagonal's middle is the view's centre.
        #expect(isTrack(png.pixel(200, 150)), "\(png.pixel(200, 150))")
    }

    /// Colour modes: a climb east coloured by elevation runs from the ramp's blue to its
    /// red, by speed (slow, fast, slow) red in the middle; the legend names the mode, plain
    /// is the file's colour.
    /// A track whose heights are beyond any real one (<ele>1e20</ele>, as a broken logger
    /// writes) is coloured by them, its legend, profile and statistics written, with no trap
    /// (an Int of 1e20 was one, and the abs of a height saturated to Int.min another).
    @Test func absurdHeightsAreColouredWithoutATrap() throws {
        let dir = temporaryDirectory("track-absurd")
        defer { try? FileManager.default.removeItem(at: dir) }
        let gpx = dir.appendingPathComponent("absurd.gpx")
        var text = "<gpx version=\"1.1\"><trk><trkseg>\n"
        for i in 0..<50 { text += "<trkpt lat=\"35\" lon=\"\(-30.05 + 0.002 * Double(i))\"><ele>\(i % 2 == 0 ? "1e20" : "-3e25")</ele></trkpt>\n" }
        try Data((text + "</trkseg></trk></gpx>").utf8).write(to: gpx)
        // Coloured with its legend; with its profile; its callout's statistics; in feet too.
        for extra in [[], ["--imperial"], ["--profile"], ["--select", "35,-30", "--imperial", "--profile", "--track-list"]] {
            let out = dir.appendingPathComponent("absurd.png").path
            let r = try run(meridianBinary, ["render", "--size", "600x400", "--no-labels", "--no-location", "--center", "35,-30", "--zoom", "12",
                                             "--color-by", "elevation", "--out", out, gpx.path] + extra)
            #expect(r.status == 0, "\(r.stderr)")
        }
    }

    @Test func colourModesFollowElevationAndSpeedWithALegend() throws {
        let dir = temporaryDirectory("track-colours")
        defer { try? FileManager.default.removeItem(at: dir) }
        let gpx = dir.appendingPathComponent("climb.gpx")
        var text = "<gpx version=\"1.1\"><trk><trkseg>\n"
        let formatter = ISO8601DateFormatter()
        for i in 0..<600 {
            // 0.1° of longitude east along 35° N in 600 s; fast in the middle third.
            let lon = -30.05 + 0.1 * Double(i) / 599
            let t = Date(timeIntervalSince1970: 1_777_622_400 + (i < 200 ? Double(i) * 3 : i < 400 ? 600 + Double(i - 200) : 800 + Double(i - 400) * 3))
            text += "<trkpt lat=\"35\" lon=\"\(lon)\"><ele>\(100 + i * 3)</ele><time>\(formatter.string(from: t))</time></trkpt>\n"
        }
        try Data((text + "</trkseg></trk></gpx>").utf8).write(to: gpx)
        func draw(_ mode: String) throws -> PNG {
            let out = dir.appendingPathComponent("\(mode).png").path
            let r = try run(meridianBinary, ["render", "--size", "800x300", "--no-labels", "--no-location", "--center", "35,-30", "--zoom", "13",
                                             "--color-by", mode, "--out", out, gpx.path])
            #expect(r.status == 0, "\(r.stderr)")
            return try PNG(out)
        }
        // The route spans ±0.05° around the centre: ±291 points at zoom 13.
        let west = 400 - 270, east = 400 + 270
        let elevation = try draw("elevation")
        let w = elevation.pixel(west, 150), e = elevation.pixel(east, 150)
        #expect(w.b > w.r + 60, "west end \(w) is not the ramp's blue")
        #expect(e.r > e.b + 60, "east end \(e) is not the ramp's red")
        let speed = try draw("speed")
        let slow = speed.pixel(west + 60, 150), fast = speed.pixel(400, 150)
        #expect(slow.b > slow.r + 40 && fast.r > fast.b + 60, "slow \(slow), fast \(fast)")
        // The legend: a plate above the scale bar with the ramp, blue at its left, red at its right.
        let rampRows = (180..<260).filter { y in
            let blue = speed.pixel(14, y), red = speed.pixel(126, y)
            return blue.b > blue.r + 60 && red.r > red.b + 60
        }
        #expect(rampRows.count >= 5 && rampRows.count <= 9, "legend ramp rows \(rampRows)")
        let plain = try draw("plain")
        #expect(isTrack(plain.pixel(west, 150)) && isTrack(plain.pixel(east, 150)))
    }

    /// 200 MB of random bytes named .gpx: refused at once with the file, line and reason; the
    /// map is drawn anyway.
    @Test func twoHundredMegabytesOfGarbageAreRefusedWithAReason() throws {
        let dir = temporaryDirectory("garbage")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("garbage.gpx")
        // Four megabytes of random bytes, fifty times over.
        var g = SystemRandomNumberGenerator()
        let chunk = Data((0..<(1 << 19)).flatMap { _ in withUnsafeBytes(of: g.next()) { Array($0) } })
        FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        for _ in 0..<50 { try handle.write(contentsOf: chunk) }
        try handle.close()
        let out = dir.appendingPathComponent("map.png").path
        let r = try run(meridianBinary, ["render", "--size", "200x100", "--out", out, file.path])
        #expect(r.status == 0, "\(r.stderr)")
        // "FILE:LINE: reason": which reason depends on the bytes drawn (random bytes may open
        // a declaration, or just be ill-formed), so any reader's reason will do.
        let said = r.stderr.split(separator: "\n").first { $0.contains(file.path + ":") }.map { $0.split(separator: ":", maxSplits: 3) }
        #expect(said.map { $0.count == 4 && Int($0[2]) != nil && !$0[3].trimmingCharacters(in: .whitespaces).isEmpty } == true, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: out))
    }
}
