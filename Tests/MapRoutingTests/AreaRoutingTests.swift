import Foundation
import MapCore
import MapNetwork
@testable import MapRouting
import MapTiles
import Platform
import Testing
import TestSupport

/// The pieces of "Directions offline too": Geofabrik's index read and the smallest region
/// holding an area found; a region's file downloaded in pieces, going on from what an
/// interrupted download left.
@Suite struct AreaRoutingTests {
    static func region(_ id: String, _ rings: [[(Double, Double)]]) -> String {
        let r = rings.map { ring in "[" + ring.map { "[\($0.0),\($0.1)]" }.joined(separator: ",") + "]" }.joined(separator: ",")
        return #"{"type":"Feature","properties":{"id":"\#(id)","name":"\#(id.capitalized)","urls":{"pbf":"https://example.org/\#(id)-latest.osm.pbf"}},"geometry":{"type":"MultiPolygon","coordinates":[[\#(r)]]}}"#
    }

    static func box(_ w: Double, _ s: Double, _ e: Double, _ n: Double) -> [(Double, Double)] { [(w, s), (e, s), (e, n), (w, n), (w, s)] }

    @Test func theSmallestRegionHoldingTheAreaWholeIsChosen() throws {
        let json = #"{"type":"FeatureCollection","features":["#
            + [Self.region("europe", [Self.box(-25, 34, 45, 72)]),
               Self.region("finland", [Self.box(19, 59.5, 32, 70.1)]),
               // Uusimaa with a hole east of Helsinki.
               Self.region("uusimaa", [Self.box(23.5, 59.8, 26.5, 61), Self.box(25.5, 60.3, 25.8, 60.5)]),
               Self.region("helsinki", [Self.box(24.8, 60.1, 25.3, 60.3)])].joined(separator: ",")
            + #",{"type":"Feature","properties":{"id":"broken"},"geometry":null}]}"#
        let index = try GeofabrikIndex.read(Data(json.utf8)).get()
        #expect(index.regions.map(\.id) == ["europe", "finland", "uusimaa", "helsinki"])
        #expect(index.smallestRegion(west: 24.93, south: 60.16, east: 24.96, north: 60.18)?.id == "helsinki")
        // Across Helsinki's edge: Uusimaa holds it whole.
        #expect(index.smallestRegion(west: 25.2, south: 60.2, east: 25.4, north: 60.28)?.id == "uusimaa")
        // In Uusimaa's hole: only Finland holds it.
        #expect(index.smallestRegion(west: 25.55, south: 60.35, east: 25.7, north: 60.45)?.id == "finland")
        #expect(index.smallestRegion(west: 140, south: -40, east: 141, north: -39) == nil)
        #expect(index.regions.first { $0.id == "helsinki" }?.pbf == "https://example.org/helsinki-latest.osm.pbf")
        for bad in ["", "[]", #"{"features": []}"#, #"{"features": [{"properties": {"id": "x", "urls": {"pbf": "ftp://x"}}, "geometry": {"type": "Polygon", "coordinates": [[[0,0],[1,0],[1,1]]]}}]}"#] {
            guard case .failure(.unreadable) = GeofabrikIndex.read(Data(bad.utf8)) else { Issue.record("\(bad) was read"); continue }
        }
    }

    @Test func aDownloadGoesOnWhereItStoppedInPieces() throws {
        let server = try TileServer()
        let file = packageRoot.appendingPathComponent("Tests/Fixtures/osm/helsinki.osm.pbf").path
        let original = try Data(contentsOf: URL(fileURLWithPath: file))
        let url = server.url("/file" + file)
        let client = HTTPClient(options: .init(userAgent: "Meridian/0.1.0 tests"))
        let head = try RegionDownload.head(of: url, client: client).get()
        let size = head.size
        #expect(size == Int64(original.count) && head.validator != nil)
        let dir = try #require(TemporaryDirectory.make("region-download"))
        defer { _ = FileIO.removeTree(dir) }
        let path = dir + "/region.osm.pbf"
        // What an interrupted download of the same file left: its first 100,001 bytes.
        try original.prefix(100_001).write(to: URL(fileURLWithPath: path + ".part"))
        _ = FileIO.writeText(head.validator!, to: path + ".part.validator")
        var reports: [Int64] = []
        try RegionDownload.fetch(url, head: head, to: path, client: client, cancel: RouteCancellation()) { reports.append($0) }.get()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
        #expect(!FileIO.exists(path + ".part") && !FileIO.exists(path + ".part.validator"))
        #expect(reports.first ?? 0 > 100_001 && reports.last == size)
        // A part of another version of the file (its validator differs): begun again, not joined.
        try Data(repeating: 0xAB, count: 50_000).write(to: URL(fileURLWithPath: path + "-old.part"))
        _ = FileIO.writeText("\"yesterday\"", to: path + "-old.part.validator")
        try RegionDownload.fetch(url, head: head, to: path + "-old", client: client, cancel: RouteCancellation()).get()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + "-old")) == original)
        // A server that ignores ranges: said before anything is downloaded.
        guard case let .failure(.failed(said)) = RegionDownload.head(of: server.url("/file-whole" + file), client: client) else {
            Issue.record("a server without ranges was taken"); return
        }
        #expect(said.contains("cannot be downloaded resumably"))
    }
}
