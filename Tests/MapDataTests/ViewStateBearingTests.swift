import Platform
import Foundation
import MapData
import MapGeometry
import Testing

/// The bearing is kept with the view, as its centre and zoom are; a state written before the
/// map turned opens north-up.
struct ViewStateBearingTests {
    func tempURL() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("meridian-vsb-\(UUID())/meridian/view.json")
    }

    @Test func theBearingRoundTrips() throws {
        let url = tempURL(); defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent().deletingLastPathComponent()) }
        let v = ViewState(center: Coordinate(latitude: 60.17, longitude: 24.94), zoom: 13.5, bearing: 152.5)
        try v.save(to: url)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        #expect(json["bearing"] as? Double == 152.5)
        let back = try #require(try ViewState.load(from: url))
        #expect(back == v && back.openingBearing == 152.5)
    }

    @Test func northUpWritesNoBearingAndOldStatesReadAsNorthUp() throws {
        let url = tempURL(); defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent().deletingLastPathComponent()) }
        try ViewState(center: Coordinate(latitude: 1, longitude: 2), zoom: 3, bearing: 0).save(to: url)
        #expect(try !String(contentsOf: url, encoding: .utf8).contains("bearing"))
        try Data(#"{"center":{"lat":51.5,"lon":-0.12},"zoom":9.25}"#.utf8).write(to: url)
        let old = try #require(try ViewState.load(from: url))
        #expect(old.bearing == nil && old.openingBearing == 0 && old.zoom == 9.25)
    }

    @Test func aBearingThatIsNoNumberIsAnError() throws {
        let url = tempURL(); defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent().deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"center":{"lat":51.5,"lon":-0.12},"zoom":9.25,"bearing":"north"}"#.utf8).write(to: url)
        #expect(throws: ViewState.LoadError.self) { try ViewState.load(from: url) }
    }
}
