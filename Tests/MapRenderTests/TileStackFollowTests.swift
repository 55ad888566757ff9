@testable import MapRender
import MapCore
import MapGeometry
import MapTiles
import Platform
import Foundation
import Testing

/// The pipeline follows the session's stack of tile layers, not a copy of its own: an overlay
/// shown through the session is loaded by the next frame, and let go once hidden, with
/// nothing in between to keep in step (the window used to copy each toggle into the scene by
/// hand, while its own stack kept the state it was made with).
struct TileStackFollowTests {
    static let map = 0, overlay = 1

    @Test func anOverlayShownThroughTheSessionIsLoadedAndOnceHiddenLetGo() throws {
        let stack = TileStack(map: DebugGridSource(), background: .noMap,
                              overlays: [.overlay(DebugGridSource(), name: "grid", title: "Grid", opacity: 0.5, visible: false)])
        var scene = Scene(layers: [])
        scene.showTiles(from: stack)
        var session = MapSession(scene: scene, camera: Camera(center: Coordinate(latitude: 10, longitude: 10), zoom: 3,
                                                             viewportSize: ScreenSize(width: 256, height: 256)))
        var pipeline = RenderPipeline(device: nil, viewport: (256, 256), stack: stack, pixelRatio: 1)
        defer { pipeline.stop() }
        var t = 0.0
        /// What the window does each frame with the session and its pipeline.
        func frame() -> DrawList {
            t += 1
            let list = session.frame(at: t, layers: pipeline.availability)
            pipeline.want(list, now: t)
            let layers = session.tileStack.layers
            _ = pipeline.dropHidden { layers.indices.contains($0) && layers[$0].isShown }
            return list
        }
        func loads(_ layer: Int) -> Bool { pipeline.tiles[layer] != nil }

        #expect(session.tileStack.chosenMap == "debug" && session.tileStack.overlay("grid")?.isVisible == false)
        #expect(session.takeEffects().isEmpty, "the stack the session started with is no news")
        _ = frame()
        #expect(loads(Self.map) && !loads(Self.overlay))

        let found = session.setOverlay("grid", visible: true, opacity: 0.8)
        #expect(found)
        let shown = frame()
        #expect(loads(Self.overlay), "the overlay shown through the session is loaded")
        #expect(shown.commands.contains { if case .tile(_, Self.overlay, _, _, _, _) = $0 { true } else { false } }
                    || !shown.wants(Self.overlay).isEmpty)
        let said = session.takeEffects().compactMap { if case let .tileLayersChanged(m) = $0 { m } else { nil } }
        #expect(said.count == 1 && said.first?.overlay("grid")?.opacity == 0.8)

        session.setOverlay("grid", visible: false)
        _ = frame()
        #expect(!loads(Self.overlay), "the overlay hidden through the session is let go")
        #expect(loads(Self.map))
    }
}
