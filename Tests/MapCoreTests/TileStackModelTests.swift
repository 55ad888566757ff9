import Foundation
@testable import MapChrome
@testable import MapCore
import MapGeometry
import Testing

/// The stack of tile layers has one holder, the session: the switcher draws it from the
/// facts, a person's change goes through one session call that the next frame lays out (what
/// the host's pipeline loads and drops by), and the host hears of each change once, to keep.
struct TileStackModelTests {
    static let map = 0, overlay = 1

    /// A session over the map "osm" with the terrain overlay, off at 60 %, and the switcher.
    func driver() -> SessionDriver {
        SourcesLayerTests.driver(SourcesLayer(choices: [SourcesLayer.Choice(name: "osm", title: "OpenStreetMap"),
                                                        SourcesLayer.Choice(name: "topo", title: "OpenTopoMap")]),
                                 shown: "osm", overlays: [TileLayerSpec(name: "terrain", title: "Terrain", role: .overlay, zoomRange: 0...15,
                                                                        opacity: 0.6, isVisible: false)], zoom: 9)
    }

    func changes(_ effects: [SessionEffect]) -> [TileStackModel] {
        effects.compactMap { if case let .tileLayersChanged(m) = $0 { m } else { nil } }
    }

    @Test func aToggleInTheSwitcherChangesTheSessionsStackOnceAndTheNextFrameLaysItOut() {
        var s = driver()
        #expect(s.frame().wants(Self.overlay).isEmpty)
        _ = s.key(.letter("l"))
        // No host in between: the click changes the session's stack itself.
        let effects = s.click(SourcesLayer.Button.overlay("terrain"))
        #expect(s.session.tileStack.overlay("terrain")?.isVisible == true)
        #expect(s.session.scene.tileLayers[Self.overlay].isVisible)
        #expect(changes(effects) == [s.session.tileStack], "one effect, as the stack is now: \(effects)")
        #expect(effects.contains(.redraw))
        // The frame after it lays the overlay out at its opacity: what the pipeline loads.
        let list = s.frame()
        #expect(!list.wants(Self.overlay).isEmpty)
        #expect(s.session.takeEffects().isEmpty, "said once")
        // Off again: nothing of it is wanted, which lets the pipeline drop it.
        _ = s.click(SourcesLayer.Button.overlay("terrain"))
        #expect(s.frame().wants(Self.overlay).isEmpty)
    }

    @Test func oneCallSetsVisibilityAndOpacityAndSaysSoOnce() {
        var s = driver()
        let found = s.session.setOverlay("terrain", visible: true, opacity: 0.3)
        #expect(found)
        #expect(s.session.tileStack.overlay("terrain").map { ($0.isVisible, $0.opacity) }! == (true, 0.3))
        let effects = s.session.takeEffects()
        #expect(changes(effects).count == 1 && changes(effects)[0].overlay("terrain")?.opacity == 0.3)
        // The same again changes nothing, and says nothing; nor does an overlay there is not.
        let again = s.session.setOverlay("terrain", visible: true, opacity: 0.3), none = s.session.setOverlay("hiking", visible: true)
        #expect(again && !none)
        #expect(s.session.takeEffects().isEmpty)
        // The switcher shows it as the session has it.
        _ = s.key(.letter("l"))
        let shown = s.frame().spriteCommands.map(\.0)
        #expect(shown.contains(.text("☑  Terrain", .chrome)) && shown.contains(.text("30 %", .chrome)))
    }

    @Test func aStackTheHostShowsIsTheMapChosenAndIsSaidOnce() {
        var s = driver()
        #expect(s.session.tileStack.chosenMap == "osm")
        #expect(s.frame().spriteCommands.map(\.0).contains(.text("OpenStreetMap  ▾", .chrome)))
        // The switcher asks for another map; the host makes its stack and shows it.
        _ = s.key(.letter("l"))
        #expect(s.key(.letter("2")).contains(.chooseTiles("topo")))
        s.session.scene.tileLayers = [TileLayerSpec(name: "topo", role: .map, zoomRange: 0...17)] + s.session.tileStack.overlays
        #expect(changes(s.session.takeEffects()).map(\.chosenMap) == ["topo"])
        #expect(s.frame().spriteCommands.map(\.0).contains(.text("OpenTopoMap  ▾", .chrome)))
        // Chosen again, it is the map shown: nothing is asked of the host.
        _ = s.key(.letter("l"))
        #expect(!s.key(.letter("2")).contains(.chooseTiles("topo")))
    }

    @Test func anOpacityIsBroughtWithin5To100PercentInOnePlace() {
        #expect(TileLayerSpec(name: "o", role: .overlay, zoomRange: 0...1, opacity: 0).opacity == 0.05)
        #expect(TileLayerSpec(name: "o", role: .overlay, zoomRange: 0...1, opacity: 3).opacity == 1)
        #expect(TileLayerSpec(name: "o", role: .overlay, zoomRange: 0...1, opacity: .nan).opacity == 1)
        var spec = TileLayerSpec(name: "o", role: .overlay, zoomRange: 0...1, opacity: 0.5)
        spec.opacity = -2
        #expect(spec.opacity == 0.05 && spec.isShown)
        var s = driver()
        s.session.setOverlay("terrain", visible: true, opacity: 0)
        #expect(s.session.tileStack.overlay("terrain")?.opacity == 0.05)
        // The faintest is still drawn: hiding is visibility's.
        let list = s.frame()
        #expect(!list.wants(Self.overlay).isEmpty)
    }
}
