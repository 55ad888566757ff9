import Foundation
import MapGeometry
import MapTiles
import Testing
import TestSupport

/// Saved areas are listed from their folder by what their metadata says; files that are not
/// saved areas (another archive, garbage) are left out, not fatal.
struct SavedAreaTests {
    func archive(_ meta: String, zooms: ClosedRange<Int> = 3...14) -> Data {
        var options = PMTilesFixture.Options()
        options.metadata = meta
        return PMTilesFixture.archive([(z: zooms.lowerBound, x: 0, y: 0, data: Data([1, 2, 3])), (z: zooms.upperBound, x: 0, y: 0, data: Data([4]))],
                                      options: options)
    }

    @Test func areasAreListedByTitleAndOthersLeftOut() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("saved-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try archive(#"{"meridian":{"source":"openfreemap","bbox":[13.6,46.3,13.9,46.45],"minzoom":3,"maxzoom":14,"title":"Zlatorog"}}"#)
            .write(to: dir.appendingPathComponent("b.pmtiles"))
        try archive(#"{"meridian":{"source":"https://example.org/planet.pmtiles","bbox":[170,-20,-170,-10],"minzoom":3,"maxzoom":14}}"#)
            .write(to: dir.appendingPathComponent("fiji.pmtiles"))
        try archive(#"{"name":"not saved by meridian"}"#).write(to: dir.appendingPathComponent("other.pmtiles"))
        try Data("garbage".utf8).write(to: dir.appendingPathComponent("broken.pmtiles"))
        try archive(#"{"meridian":{"source":"x","bbox":[1,50,2,40]}}"#).write(to: dir.appendingPathComponent("upside-down.pmtiles"))

        let areas = SavedArea.list(in: dir.path)
        #expect(areas.map(\.title) == ["fiji", "Zlatorog"])
        let z = try #require(areas.last)
        #expect(z.source == "openfreemap" && z.zooms == 3...14 && z.west == 13.6 && z.north == 46.45)
        #expect(z.bytes == UInt64(try FileManager.default.attributesOfItem(atPath: z.path)[.size] as! Int))
        #expect(z.rects.count == 1)
        // Across the antimeridian: two rectangles, at the world's two edges.
        let fiji = try #require(areas.first)
        #expect(fiji.rects.count == 2)
        #expect(fiji.rects.map(\.minX).min() == 0 && abs((fiji.rects.map(\.maxX).max() ?? 0) - WebMercator.worldSize) < 1e-9)
        #expect(throws: TileSourceError.self) { try SavedArea(path: dir.appendingPathComponent("other.pmtiles").path) }
    }

    @Test func theFolderFollowsXDGDataHome() {
        #expect(SavedArea.folder(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"]) == "/data/meridian/areas")
        #expect(SavedArea.folder(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/u"]) == "/home/u/.local/share/meridian/areas")
    }
}
