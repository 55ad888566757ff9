import Foundation
@testable import MapChrome
@testable import MapCore
import MapGeometry
import Testing

/// The layer switcher: a button naming the map, a list to choose from (click, or L then a
/// digit), the status of the tiles, and the hint offered on the basemap past z8. Driven as
/// the window drives it: clicks and keys into a session, effects and draw lists out. The map
/// shown and the overlays are the session's stack of tile layers, which the switcher draws.
struct SourcesLayerTests {
    let choices = [SourcesLayer.Choice(name: "basemap", title: "World basemap (offline)"),
                   SourcesLayer.Choice(name: "osm", title: "OpenStreetMap"),
                   SourcesLayer.Choice(name: "topo", title: "OpenTopoMap")]

    /// `layer` in a session whose stack (as the host made it, and the host heard of) is the
    /// map `shown` with `overlays` over it.
    static func driver(_ layer: SourcesLayer, shown: String, overlays: [TileLayerSpec] = [], zoom: Double = 5) -> SessionDriver {
        var s = SessionDriver(layers: [layer], zoom: zoom)
        s.session.scene.tileLayers = [TileLayerSpec(name: shown, role: .map, zoomRange: 0...19)] + overlays
        _ = s.session.takeEffects()
        return s
    }

    func session(current: String, zoom: Double = 5, hint: String? = nil) -> SessionDriver {
        var layer = SourcesLayer(choices: choices)
        layer.hint = hint
        return Self.driver(layer, shown: current, zoom: zoom)
    }

    func buttons(_ s: inout SessionDriver) -> [SourcesLayer.Button] { s.buttons(of: SourcesLayer.Button.self) }

    @Test func theButtonOpensTheListAndAChoiceAsksTheHostForThatMap() {
        var s = session(current: "basemap")
        #expect(buttons(&s) == [.toggle])
        #expect(s.click(SourcesLayer.Button.toggle).contains(.redraw))
        #expect(buttons(&s) == [.toggle, .choose("basemap"), .choose("osm"), .choose("topo"), .savedAreas, .saveArea])
        #expect(s.click(SourcesLayer.Button.choose("osm")).contains(.chooseTiles("osm")))
        // Choosing closes the list; choosing the map shown changes nothing else.
        #expect(buttons(&s) == [.toggle])
        _ = s.click(SourcesLayer.Button.toggle)
        let same = s.click(SourcesLayer.Button.choose("basemap"))
        #expect(same.contains(.redraw) && !same.contains { if case .chooseTiles = $0 { true } else { false } })
        // The row of saved areas asks the app to open their list.
        _ = s.click(SourcesLayer.Button.toggle)
        let asked = s.click(SourcesLayer.Button.savedAreas).compactMap { if case let .layer(r) = $0 { r.as(SourcesLayer.Request.self) } else { nil } }
        #expect(asked == [.savedAreas])
    }

    @Test func lAndADigitChooseOnlyWhileTheListIsOpen() {
        var s = session(current: "osm")
        #expect(s.key(.letter("3")).isEmpty)
        #expect(s.key(.letter("l")).contains(.redraw))
        #expect(s.key(.letter("3")).contains(.chooseTiles("topo")))
        #expect(s.key(.letter("4")).isEmpty)
        // Esc closes an open list.
        _ = s.key(.letter("l"))
        _ = s.key(.escape)
        #expect(buttons(&s) == [.toggle])
    }

    @Test func theStatusSaysLoadingOrOffline() {
        var s = session(current: "osm")
        func sprites(_ s: inout SessionDriver) -> [SpriteKey] { s.frame().spriteCommands.map(\.0) }
        let plain = sprites(&s)
        #expect(!plain.contains(.text("loading…", .chrome)) && !plain.contains(.text("offline", .chrome)))
        s.session.tileStatus = .loading
        #expect(sprites(&s).contains(.text("loading…", .chrome)))
        s.session.tileStatus = .unreachable("Couldn't resolve host name")
        #expect(sprites(&s).contains(.text("offline", .chrome)))
    }

    @Test func savedAreasAreListedWithTheirSizeAndDeletedOnASecondClick() {
        var layer = SourcesLayer(choices: choices + [SourcesLayer.Choice(name: "/areas/bled.pmtiles", title: "Bled", detail: "12.3 MB", deletable: true)])
        layer.showsList = true
        var s = Self.driver(layer, shown: "osm")
        let shown = s.frame().spriteCommands.map(\.0)
        #expect(shown.contains(.text("4  Bled  ·  12.3 MB", .chrome)))
        #expect(buttons(&s).contains(.delete("/areas/bled.pmtiles")))
        func deletes(_ effects: [SessionEffect]) -> [SourcesLayer.Request] {
            effects.compactMap { effect -> SourcesLayer.Request? in
                if case let .layer(r) = effect { return r.as(SourcesLayer.Request.self) }
                return nil
            }
        }
        // The first click asks "Delete?"; the second deletes.
        #expect(deletes(s.click(SourcesLayer.Button.delete("/areas/bled.pmtiles"))).isEmpty)
        #expect(s.frame().spriteCommands.map(\.0).contains(.text("Delete?", .chrome)))
        #expect(deletes(s.click(SourcesLayer.Button.delete("/areas/bled.pmtiles"))) == [.deleteArea("/areas/bled.pmtiles")])
        // The list's last row opens "Save this area offline…", as A does.
        #expect(deletes(s.click(SourcesLayer.Button.saveArea)) == [.saveArea])
        #expect(buttons(&s) == [.toggle])
    }

    @Test func offlineWithSavedAreasUnderTheMapTheStatusSaysTheyAreShown() {
        var s = session(current: "osm")
        s.session.tileStatus = .unreachable("Couldn't connect to server")
        s.session.update(SourcesLayer.self, at: 1) { $0.savedAreasUnder = true; return [.changed] }
        #expect(s.frame().spriteCommands.map(\.0).contains(.text("offline · saved areas shown", .chrome)))
    }

    @Test func theHintShowsOnTheBasemapPastZoom8UntilTheListIsOpened() {
        let hint = "Street maps are one key away: press L"
        var low = session(current: "basemap", zoom: 7.9, hint: hint), osm = session(current: "osm", zoom: 12, hint: hint)
        var none = session(current: "basemap", zoom: 12)
        #expect(!buttons(&low).contains(.hint) && !buttons(&osm).contains(.hint) && !buttons(&none).contains(.hint))
        var s = session(current: "basemap", zoom: 9, hint: hint)
        #expect(buttons(&s).contains(.hint))
        // Shown once: the host hears of it once, to remember.
        #expect(s.session.takeEffects() == [.hintShown("sources")])
        _ = s.frame()
        #expect(s.session.takeEffects().isEmpty)
        // Clicking the hint opens the list, and the hint is gone for good.
        _ = s.click(SourcesLayer.Button.hint)
        #expect(buttons(&s).contains(.choose("osm")))
        _ = s.click(SourcesLayer.Button.toggle)
        #expect(!buttons(&s).contains(.hint))
    }

    @Test func theAttributionIsALinkWhenTheSourceHasACopyrightPage() {
        var s = SessionDriver(layers: [ChromeLayer()])
        s.session.scene.attribution = "© OpenStreetMap contributors"
        #expect(s.buttons(of: ChromeLayer.Attribution.self).isEmpty)
        s.session.scene.attributionURL = "https://www.openstreetmap.org/copyright"
        #expect(s.buttons(of: ChromeLayer.Attribution.self).count == 1)
        #expect(s.click(ChromeLayer.Attribution()).contains(.openLink("https://www.openstreetmap.org/copyright")))
    }

    @Test func overlaysAreCheckBoxesWithAnOpacityInTenths() {
        let overlays = [TileLayerSpec(name: "terrain", title: "Terrain", role: .overlay, zoomRange: 0...15, opacity: 0.6, isVisible: false),
                        TileLayerSpec(name: "hiking", title: "Hiking routes", role: .overlay, zoomRange: 0...17)]
        var s = Self.driver(SourcesLayer(choices: choices), shown: "osm", overlays: overlays)
        /// The overlays as the session's stack has them after `effects`, which say so once.
        func said(_ effects: [SessionEffect]) -> [TileLayerSpec]? {
            let stacks = effects.compactMap { if case let .tileLayersChanged(m) = $0 { m } else { nil } }
            #expect(stacks.count == 1)
            #expect(stacks.last == s.session.tileStack)
            return stacks.last?.overlays
        }
        func state(_ effects: [SessionEffect], _ name: String) -> (Bool, Double)? {
            said(effects)?.first { $0.name == name }.map { ($0.isVisible, $0.opacity) }
        }
        _ = s.click(SourcesLayer.Button.toggle)
        let shown = s.frame().spriteCommands.map(\.0)
        #expect(shown.contains(.text("☐  Terrain", .chrome)) && shown.contains(.text("☑  Hiking routes", .chrome)))
        #expect(shown.contains(.text("60 %", .chrome)) && shown.contains(.text("100 %", .chrome)))
        #expect(buttons(&s).contains(.overlay("terrain")) && buttons(&s).contains(.fade("hiking", -1)))
        // A click on the row turns it on (at its opacity), again off; the list stays open.
        #expect(state(s.click(SourcesLayer.Button.overlay("terrain")), "terrain")! == (true, 0.6))
        #expect(s.frame().spriteCommands.map(\.0).contains(.text("☑  Terrain", .chrome)))
        #expect(state(s.click(SourcesLayer.Button.overlay("terrain")), "terrain")! == (false, 0.6))
        // − and + go by tenths, from 10 % to 100 %, and turn the overlay on.
        #expect(state(s.click(SourcesLayer.Button.fade("terrain", 1)), "terrain")! == (true, 0.7))
        #expect(s.frame().spriteCommands.map(\.0).contains(.text("70 %", .chrome)))
        let full = s.click(SourcesLayer.Button.fade("hiking", 1))
        #expect(!full.contains { if case .tileLayersChanged = $0 { true } else { false } }, "nothing changed: at 100 % already")
        for _ in 0..<12 { _ = s.click(SourcesLayer.Button.fade("hiking", -1)) }
        #expect(s.session.tileStack.overlay("hiking")?.opacity == 0.1)
        #expect(buttons(&s).contains(.toggle) && buttons(&s).count > 1)
    }
}

/// The panels' keys are their layers' own (`MapLayer.keyBindings`), and the help lists them
/// with the table when it opens: what a person reads is what the map answers.
struct PanelKeysTests {
    @Test func theHelpListsThePanelsKeysAndTheyAnswer() {
        var s = SessionDriver(layers: [SourcesLayer(choices: [SourcesLayer.Choice(name: "basemap", title: "Basemap"), SourcesLayer.Choice(name: "osm", title: "OSM")]),
                                       SaveAreaLayer(), AreasLayer(), HelpLayer()])
        let table = s.session.keyTable.map(\.label)
        #expect(table.contains("L, 1 … 9") && table.contains("A") && table.contains("Shift+A"))
        _ = s.key(.f1)
        let listed = s.session.scene.layer(HelpLayer.self)?.keys.map(\.label) ?? []
        #expect(listed.contains("L, 1 … 9") && listed.contains("A") && listed.contains("Shift+A") && listed.contains("F1, ?"), "\(listed)")
        _ = s.key(.escape)
        #expect(s.key(.letter("l")).contains(.redraw))
        #expect(s.key(.letter("2")).contains(.chooseTiles("osm")))
        _ = s.key(.letter("a"), .shift)
        #expect(s.session.scene.layer(AreasLayer.self)?.isOpen == true)
        // Opened with its button before any key was pressed, the help lists them too.
        var clicked = SessionDriver(layers: [SourcesLayer(choices: [SourcesLayer.Choice(name: "basemap", title: "Basemap")]), SaveAreaLayer(), AreasLayer(), HelpLayer()])
        _ = clicked.click(HelpLayer.Button.toggle)
        let shown = clicked.session.scene.layer(HelpLayer.self)?.keys.map(\.label) ?? []
        #expect(clicked.session.scene.layer(HelpLayer.self)?.isShown == true && shown.contains("Shift+A") && shown.contains("L, 1 … 9"), "\(shown)")
        // Without the panels, their keys are nobody's.
        var bare = SessionDriver(layers: [HelpLayer()])
        #expect(bare.key(.letter("l")).isEmpty && bare.key(.letter("a")).isEmpty)
    }
}
