import Foundation
import MapCore
import MapData
import MapGeometry
import Testing

struct PinFileTests {
    func dir() -> URL {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("pins-\(UUID())")
        try? FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        return d
    }

    @Test func roundTripsAsGeoJSON() throws {
        let d = dir(); defer { try? FileManager.default.removeItem(at: d) }
        let file = PinFile(url: d.appendingPathComponent("pins.geojson"))
        let pins = [Pin(id: "p1", coordinate: Coordinate(latitude: 48.85, longitude: 2.35), title: "Paris", color: Color(hex: 0x34C759)),
                    Pin(id: "p2", coordinate: Coordinate(latitude: -33.9, longitude: 18.4), title: "Kaapstad ✓")]
        try file.save(pins)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: file.url)) as! [String: Any]
        #expect(json["type"] as? String == "FeatureCollection")
        let f0 = (json["features"] as! [[String: Any]])[0]
        #expect((f0["geometry"] as! [String: Any])["coordinates"] as! [Double] == [2.35, 48.85]) // lon, lat
        #expect((f0["properties"] as! [String: Any])["title"] as? String == "Paris")
        let back = file.load()
        #expect(back.problems.isEmpty)
        #expect(back.pins == pins)
    }

    @Test func aFileThatDoesNotParseIsMovedAsideNeverOverwritten() throws {
        let d = dir(); defer { try? FileManager.default.removeItem(at: d) }
        let url = d.appendingPathComponent("pins.geojson")
        try Data("{\"type\": \"FeatureCollection\", \"features\": [".utf8).write(to: url)
        let file = PinFile(url: url)
        let r = file.load(now: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(r.pins.isEmpty)
        #expect(r.movedAside?.lastPathComponent == "pins.geojson.corrupt-20270115-080000")
        #expect(r.problems.count == 1 && r.problems[0].contains("moved aside"))
        #expect(try String(contentsOf: r.movedAside!, encoding: .utf8).hasPrefix("{\"type\""))
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func badFeaturesAreSkippedAndReportedByIndex() throws {
        let d = dir(); defer { try? FileManager.default.removeItem(at: d) }
        let url = d.appendingPathComponent("pins.geojson")
        try Data("""
        {"type":"FeatureCollection","features":[
          {"type":"Feature","geometry":{"type":"Point","coordinates":[2.35,48.85]},"properties":{"id":"a","title":"ok"}},
          {"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]},"properties":{}},
          {"type":"Feature","geometry":{"type":"Point","coordinates":[200,10]},"properties":{}},
          {"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"id":"a","title":"twin"}},
          "nonsense"
        ]}
        """.utf8).write(to: url)
        let r = PinFile(url: url).load()
        #expect(r.pins.map(\.title) == ["ok", "twin"])
        #expect(r.pins[1].id != "a")
        #expect(r.problems.contains { $0.contains("feature 1") && $0.contains("not a Point") })
        #expect(r.problems.contains { $0.contains("feature 2") && $0.contains("out of range") })
        #expect(r.problems.contains { $0.contains("feature 3") && $0.contains("duplicate id") })
        #expect(r.problems.contains { $0.contains("feature 4") })
        #expect(r.movedAside == nil)
    }

    @Test func missingFileIsNoPinsAndTheDefaultPathFollowsXDG() {
        #expect(PinFile(url: URL(fileURLWithPath: "/nonexistent/pins.geojson")).load().pins.isEmpty)
        #expect(PinFile.defaultURL(environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"]).path == "/d/meridian/pins.geojson")
        #expect(PinFile.defaultURL(environment: ["HOME": "/h"]).path == "/h/.local/share/meridian/pins.geojson")
    }
}

extension PinFileTests {
    @Test func aCollectionWithoutFeaturesIsMovedAsideToo() throws {
        let d = dir(); defer { try? FileManager.default.removeItem(at: d) }
        let url = d.appendingPathComponent("pins.geojson")
        try Data("{\"type\": \"FeatureCollection\"}".utf8).write(to: url)
        let r = PinFile(url: url).load()
        #expect(r.movedAside != nil && r.problems[0].contains("no \"features\" array") && !r.mustNotSave)
    }
}
