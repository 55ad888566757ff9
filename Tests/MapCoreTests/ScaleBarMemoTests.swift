import MapGeometry
import Testing
@testable import MapCore

/// The chrome keeps its scale bar while a pan goes east or west, and makes it anew when the
/// latitude changes: what it draws is always what a chrome made afresh draws.
struct ScaleBarMemoTests {
    /// The scale bar's rule (the ink bar, 2 points high) as drawn.
    func rule(_ list: DrawList) -> ScreenRect? {
        for case let .fillRect(r, c) in list.commands where r.height == 2 && c == ChromeLayer.ink { return r }
        return nil
    }

    func compose(_ chrome: ChromeLayer, _ camera: Camera) -> DrawList {
        var list = DrawList()
        chrome.compose(at: .chrome, into: &list, context: LayerContext(camera: camera, time: 0, sprites: FixedSprites(), tiles: NoTiles(), shownTiles: []))
        return list
    }

    @Test func theBarFollowsTheLatitudeNotTheLongitude() throws {
        let chrome = ChromeLayer()
        var camera = Camera(center: Coordinate(latitude: 10, longitude: 8), zoom: 5, viewportSize: ScreenSize(width: 800, height: 500))
        let first = try #require(rule(compose(chrome, camera)))
        camera.pan(byScreen: -300, 0)
        #expect(rule(compose(chrome, camera)) == first)
        // 300 points north at zoom 5: ten degrees of latitude further from the equator.
        camera.pan(byScreen: 0, 300)
        let north = try #require(rule(compose(chrome, camera)))
        #expect(north != first)
        #expect(north == rule(compose(ChromeLayer(), camera)))
    }
}
