import Foundation
@testable import MapData
import Testing

struct CSVTrackReaderTests {
    func read(_ text: String) throws -> GeoDocument { try CSVTrackReader(file: "r.csv").read(Data(text.utf8)) }

    @Test("Separators, headers and the seed's bare pairs", arguments: [
        ("47.1,8.5\n47.2,8.6\n", [47.1, 47.2], [8.5, 8.6]),                                   // the seed: lat,lon, no header
        ("\u{FEFF}lat;lon\r\n47,1;8,5\r\n47.2;8.6\r\n", [47.2], [8.6]),                           // BOM, CRLF, semicolons (47,1 is no number)
        ("name\tLongitude\tLatitude\tAlt\nA\t8.5\t47.1\t400\nB\t8.6\t47.2\t410\n", [47.1, 47.2], [8.5, 8.6]), // tabs, aliases, any order
        ("lng,lat\n\"8.5\",\"47.1\"\n", [47.1], [8.5]),                                          // quoted cells
        ("# exported\n\n8.5,47.1\n-120.25,36.5\n", [47.1, 36.5], [8.5, -120.25]),                // lon,lat found by range
    ])
    func layouts(text: String, lats: [Double], lons: [Double]) throws {
        let t = try #require(try read(text).tracks.first)
        #expect(t.points.latitude == lats && t.points.longitude == lons)
        #expect(t.kind == .route && t.segments == [0..<lats.count])
    }

    @Test func elevationTimeAndNameColumns() throws {
        let doc = try read("latitude,longitude,elevation,time,name\n46,7,1000.5,2026-05-01T08:00:00Z,Ridge\n46.1,7.1,,bad,\n")
        let t = try #require(doc.tracks.first)
        #expect(t.name == "Ridge")
        #expect(t.points.elevation[0] == 1000.5 && t.points.elevation[1].isNaN)
        #expect(t.points.time[0] == 1_777_622_400 && t.points.time[1].isNaN)
    }

    @Test func badRowsAreSkippedWithTheirLines() throws {
        let doc = try read("lat,lon\n1,2\nx,2\n3\n95,2\n4,5\n")
        #expect(doc.tracks.first?.points.latitude == [1, 4])
        #expect(doc.problems.map(\.line) == [3, 4, 5])
        #expect(doc.problems.map(\.file) == ["r.csv", "r.csv", "r.csv"])
        #expect(doc.problems[0].reason.contains("not a number") && doc.problems[1].reason.contains("fewer") && doc.problems[2].reason.contains("out of range"))
    }

    @Test("Files with nothing to draw are errors that say why", arguments: [
        ("", "no rows"), ("a,b\n1,2\n", "no latitude and longitude"), ("lat,lon\nx,y\n", "not a number"),
    ])
    func refused(text: String, reason: String) {
        #expect { try read(text) } throws: { ($0 as? GeoFileError)?.reason.contains(reason) == true }
    }
}
