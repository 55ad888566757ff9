import Platform
import Foundation
import MapData
import MapGeometry
import Testing

struct ViewStateTests {
    func tempDir() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("meridian-vs-\(UUID())")
    }

    @Test func roundTripsThroughTheDocumentedFormat() throws {
        let dir = tempDir(); defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("meridian/view.json")
        let v = ViewState(center: Coordinate(latitude: 48.5, longitude: -3.25), zoom: 7.5)
        try v.save(to: url)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        let center = json["center"] as! [String: Double]
        #expect(center["lat"] == 48.5 && center["lon"] == -3.25 && json["zoom"] as? Double == 7.5)
        #expect(try ViewState.load(from: url) == v)
        // No temporary files left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path) == ["view.json"])
    }

    /// The open files are kept with the view; a state written before files were kept reads
    /// as one with no files.
    @Test func openFilesRoundTripAndOldStatesHaveNone() throws {
        let dir = tempDir(); defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("meridian/view.json")
        let files = [ViewState.OpenFile(path: "/home/me/ride.gpx", hidden: false), ViewState.OpenFile(path: "/home/me/area.geojson", hidden: true)]
        try ViewState(center: Coordinate(latitude: 1, longitude: 2), zoom: 3, files: files).save(to: url)
        #expect(try ViewState.load(from: url)?.files == files)
        try Data(#"{"center":{"lat":51.5,"lon":-0.12},"zoom":9.25}"#.utf8).write(to: url)
        let old = try #require(try ViewState.load(from: url))
        #expect(old.files == nil && old.zoom == 9.25)
    }

    @Test func missingIsNilDamagedIsAnErrorAndLeftAlone() throws {
        let dir = tempDir(); defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("view.json")
        #expect(try ViewState.load(from: url) == nil)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data("{\"center\":{\"lat\":1}".utf8).write(to: url)
        #expect(throws: ViewState.LoadError.self) { try ViewState.load(from: url) }
        try Data("{\"center\":{\"lat\":100,\"lon\":0},\"zoom\":3}".utf8).write(to: url)
        #expect(throws: ViewState.LoadError.self) { try ViewState.load(from: url) }
        #expect(try String(contentsOf: url, encoding: .utf8).contains("100"))
    }

    @Test func defaultLocationFollowsXDG() {
        #expect(ViewState.defaultURL(environment: ["XDG_STATE_HOME": "/x/state", "HOME": "/home/u"]).path == "/x/state/meridian/view.json")
        #expect(ViewState.defaultURL(environment: ["HOME": "/home/u"]).path == "/home/u/.local/state/meridian/view.json")
        // A relative XDG path is invalid per the spec and ignored.
        #expect(ViewState.defaultURL(environment: ["XDG_STATE_HOME": "rel", "HOME": "/home/u"]).path == "/home/u/.local/state/meridian/view.json")
    }

    @Test func atomicWriteReportsWhatWentWrong() {
        let url = URL(fileURLWithPath: "/proc/meridian-cannot/view.json")
        #expect(throws: FileWriteError.self) { try AtomicFile.write(Data("x".utf8), to: url) }
    }

    @Test func overlaysRoundTripAndAnOpacityOutOfRangeIsRefused() throws {
        let dir = tempDir(); defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("meridian/view.json")
        let overlays = [ViewState.OverlayState(name: "terrain", on: true, opacity: 0.6), ViewState.OverlayState(name: "hiking", on: false, opacity: 0.3)]
        try ViewState(center: Coordinate(latitude: 42.5, longitude: 1.5), zoom: 13, overlays: overlays).save(to: url)
        #expect(try ViewState.load(from: url)?.overlays == overlays)
        for bad in ["1.5", "-0.2", "0"] {
            try Data(#"{"center":{"lat":1,"lon":2},"zoom":3,"overlays":[{"name":"terrain","on":true,"opacity":\#(bad)}]}"#.utf8).write(to: url)
            #expect(throws: ViewState.LoadError.self) { try ViewState.load(from: url) }
        }
    }
}
