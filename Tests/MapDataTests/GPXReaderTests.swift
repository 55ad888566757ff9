import Foundation
@testable import MapData
import MapCore
import Testing

struct GPXReaderTests {
    func read(_ text: String) throws -> GeoDocument { try GPXReader(file: "t.gpx").read(Data(text.utf8)) }

    @Test func tracksRoutesWaypointsAndTheirQuirks() throws {
        // A byte order mark, CRLF lines, a comment, an entity and CDATA in names, an empty
        // segment, a point without elevation, a NaN elevation, Garmin colour and heart rate.
        let text = "\u{FEFF}<?xml version=\"1.0\"?>\r\n" + """
        <gpx version="1.1" xmlns:gpxx="http://www.garmin.com/xmlschemas/GpxExtensions/v3" xmlns:tp="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">\r
        <!-- made by hand -->\r
        <wpt lat="46.5" lon="7.25"><ele>2100</ele><name>Hut &amp; view</name></wpt>\r
        <trk><name><![CDATA[Morning <ride>]]></name>\r
        <extensions><gpxx:TrackExtension><gpxx:DisplayColor>DarkRed</gpxx:DisplayColor></gpxx:TrackExtension></extensions>\r
        <trkseg></trkseg>\r
        <trkseg>\r
        <trkpt lat="46.0" lon="7.0"><ele>1000.5</ele><time>2026-05-01T08:00:00Z</time>\r
          <extensions><tp:TrackPointExtension><tp:hr>121</tp:hr><tp:cad>80</tp:cad></tp:TrackPointExtension></extensions></trkpt>\r
        <trkpt lat='46.001' lon='7.001'><time>2026-05-01T10:00:01+02:00</time></trkpt>\r
        <trkpt lat="46.002" lon="7.002"><ele>NaN</ele></trkpt>\r
        </trkseg>\r
        <trkseg><trkpt lat="46.1" lon="7.1"/></trkseg>\r
        </trk>\r
        <rte><name>Plan</name><rtept lat="1" lon="2"/><rtept lat="3" lon="4"/></rte>\r
        </gpx>\r
        """
        let doc = try read(text)
        #expect(doc.waypoints == [Waypoint(latitude: 46.5, longitude: 7.25, name: "Hut & view", elevation: 2100)])
        #expect(doc.tracks.count == 2)
        let t = doc.tracks[0]
        #expect(t.kind == .track && t.name == "Morning <ride>" && t.color == Color(hex: 0x8B0000))
        #expect(t.segments == [0..<3, 3..<4])
        #expect(t.points.latitude == [46.0, 46.001, 46.002, 46.1] && t.points.longitude == [7.0, 7.001, 7.002, 7.1])
        #expect(t.points.elevation[0] == 1000.5 && t.points.elevation[1].isNaN && t.points.elevation[2].isNaN)
        #expect(t.points.time[0] == 1_777_622_400 && t.points.time[1] == 1_777_622_401 && t.points.time[2].isNaN)
        #expect(t.points.heartRate == [121, 0, 0, 0] && t.points.cadence == [80, 0, 0, 0])
        let r = doc.tracks[1]
        #expect(r.kind == .route && r.name == "Plan" && r.segments == [0..<2] && r.points.latitude == [1, 3])
        // The NaN elevation is reported, with its line (CRLF counts once).
        #expect(doc.problems.map(\.line) == [12] && doc.problems.first?.reason.contains("<ele>") == true, "\(doc.problems)")
    }

    @Test func badPointsAreSkippedWithTheirLinesAndTheRestLoads() throws {
        let doc = try read("""
        <gpx><trk><trkseg>
        <trkpt lat="1" lon="2"/>
        <trkpt lon="2"/>
        <trkpt lat="91" lon="2"/>
        <trkpt lat="x" lon="2"/>
        <trkpt lat="3" lon="4"><time>yesterday</time></trkpt>
        </trkseg></trk></gpx>
        """)
        #expect(doc.tracks.first?.points.latitude == [1, 3])
        #expect(doc.problems.map(\.line) == [3, 4, 5, 6])
        #expect(doc.problems[0].reason.contains("without lat and lon"))
        #expect(doc.problems[1].reason.contains("out of range"))
        #expect(doc.problems[2].reason.contains("not a number"))
        #expect(doc.problems[3].reason.contains("ISO 8601"))
        #expect(doc.problems.allSatisfy { $0.file == "t.gpx" })
    }

    @Test func aTruncatedFileKeepsWhatCameBeforeTheCut() throws {
        let doc = try read("<gpx><trk><name>Cut</name><trkseg><trkpt lat=\"1\" lon=\"2\"/><trkpt lat=\"3\" lon=\"4\"/><trkpt lat=\"5\" lo")
        #expect(doc.tracks.first?.points.latitude == [1, 3])
        #expect(doc.tracks.first?.name == "Cut")
        #expect(doc.problems.contains { $0.reason.contains("cut short") })
    }

    @Test("Hostile or foreign documents are refused", arguments: [
        ("<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><gpx>&x;</gpx>", "DTD"),
        ("<kml><Placemark/></kml>", "not a GPX document"),
        ("", "not a GPX document"),
        ("<gpx><wpt lat=1 lon=2/></gpx>", "without quotes"),
    ])
    func refused(text: String, reason: String) {
        #expect { try read(text) } throws: { ($0 as? GeoFileError)?.reason.contains(reason) == true }
    }

    @Test func garbageNeverTraps() throws {
        var rng = SplitMix(seed: 7)
        let pieces = ["<gpx>", "<trk>", "<trkseg>", "<trkpt lat=\"1\" lon=\"2\">", "</trkpt>", "<ele>", "</ele>", "<time>",
                      "2026-01-01T00:00:00Z", "</time>", "<!--", "-->", "<![CDATA[", "]]>", "&amp;", "&#x1F600;", "&#99999999;",
                      "\"", "'", "=", "<", ">", "/", "</gpx>", "<name>", "</name>", "\u{0}", "é"]
        for _ in 0..<2000 {
            let text = (0..<Int(rng.next() % 40)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
            _ = try? read(text)
        }
    }
}

struct TextNumbersTests {
    func double(_ s: String) -> Double? { Array(s.utf8).withUnsafeBufferPointer { TextNumbers.double($0) } }
    func time(_ s: String) -> Double? { Array(s.utf8).withUnsafeBufferPointer { TextNumbers.time($0) } }

    @Test func decimalNumbers() {
        let table: [(String, Double?)] = [
            ("46.0000001", 46.0000001), ("-7.25", -7.25), ("+3", 3), (" 12 ", 12), ("0.1", 0.1), ("1e3", 1000),
            ("2.5E-2", 0.025), (".5", 0.5), ("5.", 5), ("123456789012345678901234", 1.2345678901234568e23),
            ("0.000000000000000000000000001", 1e-27), ("", nil), ("-", nil), ("1e", nil), ("1.2.3", nil), ("abc", nil),
            ("NaN", nil), ("1,5", nil),
        ]
        for (text, want) in table { #expect(double(text) == want, "\(text)") }
        // The fast path agrees with the standard library on typical coordinates.
        var rng = SplitMix(seed: 1)
        for _ in 0..<10_000 {
            let v = Double(Int64(bitPattern: rng.next()) % 180_000_0000) / 1e7
            let s = String(format: "%.7f", v)
            #expect(double(s) == Double(s), "\(s)")
        }
    }

    @Test func isoTimes() {
        let table: [(String, Double?)] = [
            ("1970-01-01T00:00:00Z", 0), ("2026-05-01T08:00:00Z", 1_777_622_400), ("2026-05-01T10:00:00+02:00", 1_777_622_400),
            ("2026-05-01T03:30:00-04:30", 1_777_622_400), ("2000-02-29T12:00:00.250Z", 951_825_600.25),
            ("1969-12-31T23:59:59Z", -1), ("2026-05-01T08:00:00", 1_777_622_400), ("2026-13-01T00:00:00Z", nil),
            ("2026-05-01", nil), ("yesterday", nil), ("", nil),
        ]
        for (text, want) in table { #expect(time(text) == want, "\(text)") }
    }
}

/// A small deterministic generator for tests.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
