import Foundation
@testable import MapChrome
@testable import MapCore
import MapGeometry
import Testing

/// The session with no window: input in, effects and draw lists out. Each gesture reaches the
/// layer that drew what it touches, or that the key table names, and nothing else.
struct MapSessionTests {
    func standard() -> SessionDriver {
        SessionDriver(layers: Scene.standardLayers + [ZoomControlsLayer(), SearchLayer(), MeasureLayer(), HelpLayer(), LocateLayer()])
    }

    @Test func aNoticeShowsUntilClickedAwayOrEsc() {
        var s = standard()
        s.session.post(notice: "first")
        s.session.post(notice: "second")
        var list = s.frame()
        #expect(list.spriteCommands.contains { $0.0 == .text("first  (1 more)" + NoticeLayer.suffix, .notice) })
        let f = list.noticeFrame!
        #expect(s.click(at: ScreenPoint(x: f.x + 5, y: f.y + 5)).contains(.redraw))
        list = s.frame()
        #expect(list.spriteCommands.contains { $0.0 == .text("second" + NoticeLayer.suffix, .notice) })
        _ = s.key(.escape)
        #expect(s.frame().noticeFrame == nil && s.session.notices.isEmpty)
    }

    @Test func theSearchBoxTakesTheKeyboardAndFliesToWhatIsChosen() {
        var s = standard()
        #expect(s.key(.letter("f"), .control).contains(.searchOpened))
        #expect(s.session.wantsText)
        // Keys the map would take (M measures, Backspace) are the box's while it is open.
        _ = s.type("48.8566, 2.3522")
        _ = s.key(.backspace)
        _ = s.type("2")
        #expect(s.session.scene.layer(SearchLayer.self)?.query == "48.8566, 2.3522")
        #expect(s.session.scene.layer(MeasureLayer.self)?.isActive == false)
        _ = s.key(.enter)
        #expect(!s.session.wantsText && s.session.isAnimating(at: s.t))
        s.t += 10
        _ = s.frame()
        let c = s.session.camera.centerCoordinate
        #expect(abs(c.latitude - 48.8566) < 1e-6 && abs(c.longitude - 2.3522) < 1e-6)
        // Its mark, clicked, becomes a pin.
        let pins = s.session.pins.count
        _ = s.click(SearchLayer.Button.marker)
        #expect(s.session.pins.count == pins + 1)
    }

    @Test func measuringTakesClicksAndPaintsItsLineIntoTheTiles() {
        var s = standard()
        let before = s.session.tileOverlays.revisions
        _ = s.key(.letter("m"))
        #expect(s.session.tileOverlays.make().isEmpty)
        _ = s.click(at: ScreenPoint(x: 300, y: 300))
        _ = s.click(at: ScreenPoint(x: 500, y: 300))
        let overlays = s.session.tileOverlays
        #expect(overlays.revisions != before)
        let line = overlays.make().compactMap { $0 as? LineOverlay }
        #expect(line.count == 1 && line[0].lines[0].track.points.count == 2)
        // The tracks layer holds no stand-in file for it.
        #expect(s.session.scene.tracks.files.isEmpty)
        let kept = s.key(.letter("s"), .control)
        #expect(kept.contains { if case let .keepMeasuredLine(points) = $0 { points.count == 2 } else { false } })
        _ = s.key(.backspace)
        #expect(s.session.scene.layer(MeasureLayer.self)?.points.count == 1)
        _ = s.key(.escape)
        #expect(s.session.scene.layer(MeasureLayer.self)?.isActive == false && s.session.tileOverlays.make().isEmpty)
    }

    @Test func helpOpensWithF1AndEscClosesItFirst() {
        var s = standard()
        _ = s.key(.f1)
        #expect(s.session.scene.layer(HelpLayer.self)?.isShown == true)
        _ = s.key(.letter("m"))
        _ = s.key(.escape)
        // Esc closed the panel; measuring goes on until the next.
        #expect(s.session.scene.layer(HelpLayer.self)?.isShown == false && s.session.scene.layer(MeasureLayer.self)?.isActive == true)
    }

    /// A pin just under the + button: a press on + held half a second and released zooms in,
    /// and the pin is neither lifted, moved nor selected (the button is drawn over it).
    @Test func aPressOnAButtonOverAPinPressesTheButton() throws {
        var s = standard()
        let plus = try #require(s.frame().buttons.last { $0.id.as(ZoomControlsLayer.Button.self) == .zoomIn }).frame
        let p = ScreenPoint(x: plus.x + plus.width / 2, y: plus.y + plus.height / 2)
        let at = s.session.camera.coordinate(for: p)
        s.session.pins = [Pin(coordinate: at, title: "under +")]
        _ = s.frame()
        let z = s.session.camera.zoom
        s.t += 0.01
        _ = s.session.handle(.pointerDown(.left, p, clicks: 1, []), at: s.t)
        for _ in 0..<30 { _ = s.frame(); s.t -= 1 - 1.0 / 60 }  // half a second of frames
        _ = s.session.handle(.pointerUp(.left, p), at: s.t)
        s.t += 1
        _ = s.frame()
        #expect(abs(s.session.camera.zoom - (z + 1)) < 1e-9, "zoom \(s.session.camera.zoom)")
        let pin = try #require(s.session.pins.first)
        #expect(pin.coordinate == at && s.session.scene.pins.selected == nil)
    }

    @Test func tabMovesTheFocusThroughTheControlsAndEnterPresses() {
        var s = standard()
        _ = s.frame()
        _ = s.key(.tab)
        #expect(s.session.focused?.as(ZoomControlsLayer.Button.self) == .zoomIn)
        let ring = s.frame()
        #expect(ring.commands.suffix(4).allSatisfy { if case .fillRect = $0 { true } else { false } })
        let z = s.session.camera.zoom
        _ = s.key(.enter)
        s.t += 1
        _ = s.frame()
        #expect(abs(s.session.camera.zoom - (z + 1)) < 1e-9)
        _ = s.key(.escape)
        #expect(s.session.focused == nil)
    }

    @Test func escStopsLongWorkBeforeItPutsASelectionAway() {
        var s = standard()
        s.session.status = "Opening ride.gpx… 40 %"
        _ = s.key(.letter("t"))
        #expect(s.key(.escape).first == .cancelWork)
        // A panel over the map closes first.
        _ = s.key(.f1)
        #expect(!s.key(.escape).contains(.cancelWork))
    }

    @Test func followingWithoutAPositionSaysWhyAndTheLocateButtonFollows() {
        var s = standard()
        _ = s.key(.letter("f"))
        #expect(s.session.notices.first == "No position yet: the map follows it once a fix arrives")
        // The host says where a position comes from, in its own words.
        var told = standard()
        told.session.position.noFixYet = "No position yet: start gpsd"
        _ = told.key(.letter("f"))
        #expect(told.session.notices.first == "No position yet: start gpsd")
        s.session.receive(.fix(PositionFix(coordinate: Coordinate(latitude: 46.5, longitude: 6.6), accuracy: 20)), from: "gpsd", at: s.t)
        _ = s.click(LocateLayer.Button())
        #expect(s.session.controller.following && s.session.facts.following)
    }

    @Test func ctrlCCopiesThePositionUnderThePointer() {
        var s = standard()
        _ = s.frame()
        _ = s.session.handle(.pointerMoved(ScreenPoint(x: 400, y: 300)), at: s.t)
        let c = s.session.camera.centerCoordinate
        #expect(s.key(.letter("c"), .control).contains(.copy(String(format: "%.6f, %.6f", c.latitude, c.longitude))))
    }
}
