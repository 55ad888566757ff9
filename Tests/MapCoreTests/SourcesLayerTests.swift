import Foundation
import MapCore
import MapGeometry
import Testing

/// The layer switcher: a button naming the map, a list to choose from (click, or L then a
/// digit), the status of the tiles, and the hint offered on the basemap past z8.
struct SourcesLayerTests {
    let choices = [SourcesLayer.Choice(name: "basemap", title: "World basemap (offline)"),
                   SourcesLayer.Choice(name: "osm", title: "OpenStreetMap"),
                   SourcesLayer.Choice(name: "topo", title: "OpenTopoMap")]

    func scene(current: String, zoom: Double = 5, hint: String? = nil) -> Scene {
        var layer = SourcesLayer(choices: choices, current: current)
        layer.hint = hint
        return Scene(camera: Camera(center: Coordinate(latitude: 48, longitude: 2), zoom: zoom,
                                    viewportSize: ScreenSize(width: 800, height: 600)), layers: [layer])
    }

    func buttons(_ s: Scene) -> [String] { s.compose(at: 0, tiles: NoTiles(), sprites: AllSprites()).buttons.map(\.name) }

    @Test func theButtonOpensTheListAndAChoiceAsksTheHostForThatMap() {
        var s = scene(current: "basemap")
        #expect(buttons(s) == ["sources.toggle"])
        #expect(s.press("sources.toggle") == .changed)
        #expect(buttons(s) == ["sources.toggle", "sources.choose.basemap", "sources.choose.osm", "sources.choose.topo"])
        #expect(s.press("sources.choose.osm") == .chooseTiles("osm"))
        // Choosing closes the list; choosing the map shown changes nothing else.
        #expect(buttons(s) == ["sources.toggle"])
        _ = s.press("sources.toggle")
        #expect(s.press("sources.choose.basemap") == .changed)
        #expect(s.press("tracks.toggle.1") == nil)
    }

    @Test func digitsChooseOnlyWhileTheListIsOpen() {
        var layer = SourcesLayer(choices: choices, current: "osm")
        #expect(layer.choice(number: 1) == nil)
        layer.showsList = true
        #expect(layer.choice(number: 1)?.name == "basemap")
        #expect(layer.choice(number: 3)?.name == "topo")
        #expect(layer.choice(number: 4) == nil && layer.choice(number: 0) == nil)
    }

    @Test func theStatusSaysLoadingOrOffline() {
        var s = scene(current: "osm")
        let plain = s.compose(at: 0, tiles: NoTiles(), sprites: AllSprites()).spriteCommands.map(\.0)
        #expect(!plain.contains(.text("loading…", .chrome)) && !plain.contains(.text("offline", .chrome)))
        s.modify(SourcesLayer.self, default: SourcesLayer()) { $0.status = .loading }
        #expect(s.compose(at: 0, tiles: NoTiles(), sprites: AllSprites()).spriteCommands.contains { $0.0 == .text("loading…", .chrome) })
        s.modify(SourcesLayer.self, default: SourcesLayer()) { $0.status = .unreachable("Couldn't resolve host name") }
        #expect(s.compose(at: 0, tiles: NoTiles(), sprites: AllSprites()).spriteCommands.contains { $0.0 == .text("offline", .chrome) })
    }

    @Test func theHintShowsOnTheBasemapPastZoom8UntilTheListIsOpened() {
        let hint = "Street maps are one key away: press L"
        #expect(!buttons(scene(current: "basemap", zoom: 7.9, hint: hint)).contains("sources.hint"))
        #expect(!buttons(scene(current: "osm", zoom: 12, hint: hint)).contains("sources.hint"))
        #expect(!buttons(scene(current: "basemap", zoom: 12)).contains("sources.hint"))
        var s = scene(current: "basemap", zoom: 9, hint: hint)
        #expect(buttons(s).contains("sources.hint"))
        // Clicking the hint opens the list, and the hint is gone for good.
        #expect(s.press("sources.hint") == .changed)
        #expect(buttons(s).contains("sources.choose.osm"))
        _ = s.press("sources.toggle")
        #expect(!buttons(s).contains("sources.hint"))
    }

    @Test func theAttributionIsALinkWhenTheSourceHasACopyrightPage() {
        var s = Scene(camera: Camera(center: Coordinate(latitude: 0, longitude: 0), zoom: 3, viewportSize: ScreenSize(width: 800, height: 600)),
                      layers: [ChromeLayer()])
        s.attribution = "© OpenStreetMap contributors"
        #expect(!buttons(s).contains("chrome.attribution"))
        s.attributionURL = "https://www.openstreetmap.org/copyright"
        #expect(buttons(s).contains("chrome.attribution"))
        #expect(s.press("chrome.attribution") == .openLink("https://www.openstreetmap.org/copyright"))
    }
}
