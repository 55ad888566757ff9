import Foundation
@testable import MapChrome
@testable import MapCore
import MapGeometry
import Testing

/// "Saved areas" driven as the window drives it, with no window: Shift+A opens the list the
/// app gave, each row has the buttons of its kind, Show flies to the area and outlines it,
/// Delete and Discard ask once, Rename types in place (Enter keeps, Esc leaves), and a list
/// the app changes drops what pointed at a row gone.
struct AreasLayerTests {
    typealias Layer = AreasLayer
    static let box = SaveAreaLayer.Area(west: 24.93, south: 60.16, east: 24.95, north: 60.18, zooms: 0...14)
    static let rows = [
        Layer.Row(path: "/a/helsinki.pmtiles", kind: .saved, title: "Helsinki", detail: "Streets · 12.3 MB · zooms 0–15", area: box),
        Layer.Row(path: "/a/espoo.pmtiles.part", kind: .unfinished, title: "Espoo", detail: "Streets · stopped at 10 of 40 tiles (25 %)", area: box),
    ]

    func session() -> SessionDriver {
        var layer = AreasLayer()
        layer.list(Self.rows, total: "1 area and 1 unfinished · 12.3 MB on disk")
        return SessionDriver(layers: [layer], zoom: 5, center: Coordinate(latitude: 48, longitude: 2))
    }

    func texts(_ s: inout SessionDriver) -> [String] {
        s.frame().spriteCommands.compactMap { command -> String? in
            if case let .text(t, _)? = command.0.spec(as: LabelSprite.self) { return t }
            return nil
        }
    }

    func requests(_ effects: [SessionEffect]) -> [Layer.Request] {
        effects.compactMap { if case let .layer(r) = $0 { return r.as(Layer.Request.self) } else { return nil } }
    }

    @Test func shiftAOpensTheListWithEachRowsButtonsAndEscClosesIt() {
        var s = session()
        #expect(s.buttons(of: Layer.Button.self).isEmpty)
        _ = s.key(.letter("a"), .shift)
        let shown = texts(&s)
        #expect(shown.contains("Helsinki") && shown.contains("Espoo — unfinished") && shown.contains("1 area and 1 unfinished · 12.3 MB on disk"))
        let buttons = s.buttons(of: Layer.Button.self)
        #expect(buttons.contains(.update("/a/helsinki.pmtiles")) && buttons.contains(.rename("/a/helsinki.pmtiles")) && buttons.contains(.delete("/a/helsinki.pmtiles")))
        #expect(buttons.contains(.resume("/a/espoo.pmtiles.part")) && buttons.contains(.discard("/a/espoo.pmtiles.part")) && !buttons.contains(.update("/a/espoo.pmtiles.part")))
        _ = s.key(.escape)
        #expect(s.buttons(of: Layer.Button.self).isEmpty)
    }

    @Test func showFliesThereAndOutlinesIt() {
        var s = session()
        _ = s.key(.letter("a"), .shift)
        _ = s.click(Layer.Button.show("/a/helsinki.pmtiles"))
        #expect(s.session.scene.layer(Layer.self)?.outlined == "/a/helsinki.pmtiles")
        // The camera goes there (the session's glide ends at the box).
        for _ in 0..<200 { s.frame() }
        let c = s.session.camera.centerCoordinate
        #expect(abs(c.latitude - 60.17) < 0.02 && abs(c.longitude - 24.94) < 0.02, "\(c)")
    }

    @Test func deleteAndDiscardAskOnce() {
        var s = session()
        _ = s.key(.letter("a"), .shift)
        #expect(requests(s.click(Layer.Button.delete("/a/helsinki.pmtiles"))).isEmpty)
        #expect(texts(&s).contains("Delete?"))
        #expect(requests(s.click(Layer.Button.delete("/a/helsinki.pmtiles"))) == [.delete("/a/helsinki.pmtiles")])
        #expect(requests(s.click(Layer.Button.discard("/a/espoo.pmtiles.part"))).isEmpty)
        #expect(requests(s.click(Layer.Button.discard("/a/espoo.pmtiles.part"))) == [.discard("/a/espoo.pmtiles.part")])
        #expect(requests(s.click(Layer.Button.update("/a/helsinki.pmtiles"))) == [.update("/a/helsinki.pmtiles")])
        #expect(requests(s.click(Layer.Button.resume("/a/espoo.pmtiles.part"))) == [.resume("/a/espoo.pmtiles.part")])
    }

    /// A Delete pressed once and then left (another button pressed) asks again.
    @Test func aDeleteNotConfirmedAtOnceAsksAgain() {
        var s = session()
        _ = s.key(.letter("a"), .shift)
        _ = s.click(Layer.Button.delete("/a/helsinki.pmtiles"))
        _ = s.click(Layer.Button.show("/a/helsinki.pmtiles"))
        #expect(requests(s.click(Layer.Button.delete("/a/helsinki.pmtiles"))).isEmpty)
    }

    /// More areas than the view holds: a page at a time, every row reachable.
    @Test func aLongListIsShownAPageAtATime() {
        let many = (0..<30).map { Layer.Row(path: "/a/\($0).pmtiles", kind: .saved, title: "Area \($0)", detail: "Streets", area: Self.box) }
        var layer = AreasLayer()
        layer.list(many, total: "30 areas")
        var s = SessionDriver(layers: [layer], zoom: 5)
        _ = s.key(.letter("a"), .shift)
        var seen = Set<String>()
        for _ in 0..<6 {
            seen.formUnion(s.buttons(of: Layer.Button.self).compactMap { if case let .update(p) = $0 { p } else { nil } })
            _ = s.click(Layer.Button.nextPage)
        }
        #expect(seen == Set(many.map(\.path)))
        #expect(texts(&s).contains { $0.hasPrefix("Rows 1–") }, "the pages come round to the first")
    }

    @Test func renameTypesInPlaceEnterKeepsEscLeaves() {
        var s = session()
        _ = s.key(.letter("a"), .shift)
        _ = s.click(Layer.Button.rename("/a/helsinki.pmtiles"))
        #expect(s.session.wantsText)
        for _ in 0..<3 { _ = s.key(.backspace) }
        _ = s.type("nki centre")
        #expect(texts(&s).contains("Helsinki centre|"))
        // Keys that are commands elsewhere are letters here.
        _ = s.type("a")
        _ = s.key(.backspace)
        #expect(requests(s.key(.enter)) == [.rename("/a/helsinki.pmtiles", to: "Helsinki centre")])
        #expect(!s.session.wantsText)
        _ = s.click(Layer.Button.rename("/a/helsinki.pmtiles"))
        _ = s.type(" x")
        #expect(requests(s.key(.escape)).isEmpty)
        #expect(!s.session.wantsText && s.session.scene.layer(Layer.self)?.isOpen == true, "Esc leaves the name, not the list")
        // An unchanged or empty name asks nothing.
        _ = s.click(Layer.Button.rename("/a/helsinki.pmtiles"))
        #expect(requests(s.key(.enter)).isEmpty)
    }

    @Test func aRowGoneTakesItsOutlineAndQuestionWithIt() {
        var s = session()
        _ = s.key(.letter("a"), .shift)
        _ = s.click(Layer.Button.show("/a/helsinki.pmtiles"))
        _ = s.click(Layer.Button.discard("/a/espoo.pmtiles.part"))
        s.session.scene.modify(Layer.self, default: Layer()) { $0.list([], total: "") }
        #expect(s.session.scene.layer(Layer.self)?.outlined == nil)
        #expect(texts(&s).contains("No saved areas yet: press A over a map to save the area in view"))
    }
}
