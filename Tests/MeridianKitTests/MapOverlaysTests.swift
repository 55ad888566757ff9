import Foundation
import MeridianKit
import Testing

/// What is kept of the overlays goes one way round: view.json and `--overlay` say how they
/// start, the session's stack holds them from then on, and what view.json keeps is read from
/// that stack (an overlay whose tiles could not be had keeps what it started with).
struct MapOverlaysTests {
    static func stack(terrain: TileLayerSpec?) -> TileStackModel {
        TileStackModel(layers: [TileLayerSpec(name: "osm", role: .map, zoomRange: 0...19)] + (terrain.map { [$0] } ?? []))
    }

    /// (What is offered is not asked here: sources.json is read once a process, and the
    /// catalogue's own test sets where it is.)
    @Test func theSessionsStackIsWhatIsRememberedAndWhatANewMapIsLaidUnder() throws {
        let started = [ViewState.OverlayState(name: MapOverlays.terrain, on: true, opacity: 0.7),
                       ViewState.OverlayState(name: "hiking", on: false, opacity: 1)]
        // Turned off and faded in the window: the stack says so, and so does what is kept.
        let terrain = TileLayerSpec(name: MapOverlays.terrain, role: .overlay, zoomRange: 0...15, opacity: 0.3, isVisible: false)
        let now = MapOverlays.settings(of: Self.stack(terrain: terrain), otherwise: started)
        #expect(now.first { $0.name == MapOverlays.terrain } == ViewState.OverlayState(name: MapOverlays.terrain, on: false, opacity: 0.3))
        let kept = try #require(MapOverlays.remembered(now))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("overlays-\(getpid()).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try ViewState(center: Coordinate(latitude: 42.5, longitude: 1.5), zoom: 13, overlays: kept).save(to: url)
        #expect(try ViewState.load(from: url)?.overlays == [ViewState.OverlayState(name: MapOverlays.terrain, on: false, opacity: 0.3)])
        #expect(!kept.contains { $0.name == "hiking" }, "off and wholly opaque: nothing to keep")
        // Not in the stack (its tiles could not be had): as it started.
        let missing = MapOverlays.settings(of: Self.stack(terrain: nil), otherwise: started)
        #expect(missing.first { $0.name == MapOverlays.terrain }?.on == true)
    }
}
