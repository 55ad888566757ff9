import Foundation
@testable import MapCore
import MapGeometry
import Testing

/// Input goes through the layers in the order they are drawn, top first, and the camera last:
/// what is drawn over something takes the gesture before it.
struct InputOrderTests {
    static let center = Coordinate(latitude: 46.005, longitude: 7.05)

    /// A layer of the test's own that takes presses inside `box`, drawn at `level`.
    struct Pad: MapLayer {
        var box: ScreenRect
        var level: LayerLevel
        var presses = 0
        var clicks = 0
        var levels: [LayerLevel] { [level] }
        func compose(at level: LayerLevel, into list: inout DrawList, context: LayerContext) {}
        mutating func take(_ event: InputEvent, context: InputContext) -> [LayerAction]? {
            guard case let .pointerDown(_, p, _, _) = event, box.contains(p) else { return nil }
            presses += 1
            return [.changed]
        }
        mutating func click(at p: ScreenPoint, context: InputContext) -> [LayerAction]? {
            guard box.contains(p) else { return nil }
            clicks += 1
            return [.changed]
        }
    }

    func driver(_ extra: [any MapLayer]) -> SessionDriver {
        var d = SessionDriver(layers: Scene.standardLayers + extra, zoom: 14, center: Self.center)
        d.session.pins = [Pin(id: "p", coordinate: Self.center, title: "Here")]
        d.frame()
        return d
    }

    let head = ScreenPoint(x: 400, y: 300 - 26)   // the pin's head, 26 points above its tip
    let around = ScreenRect(x: 300, y: 250, width: 200, height: 80)

    @Test func aLayerDrawnOverThePinsTakesThePressAndTheCameraNeverSeesIt() {
        var d = driver([Pad(box: around, level: .chrome)])
        let camera = d.session.camera
        _ = d.session.handle(.pointerDown(.left, head, clicks: 1, []), at: d.t + 0.01)
        _ = d.session.handle(.pointerMoved(head + ScreenPoint(x: 60, y: 0)), at: d.t + 0.1)
        _ = d.session.handle(.pointerUp(.left, head + ScreenPoint(x: 60, y: 0)), at: d.t + 0.2)
        #expect(d.session.scene.layer(Pad.self)?.presses == 1)
        #expect(d.session.scene.pins.selected == nil && !d.session.scene.pins.drag.isActive)
        #expect(d.session.camera == camera)                      // the drag began on the pad: no pan
    }

    @Test func aLayerDrawnUnderThePinsGetsNoPressOnAPin() {
        var d = driver([Pad(box: around, level: .base)])
        _ = d.click(at: head)
        #expect(d.session.scene.layer(Pad.self)?.presses == 0)
        #expect(d.session.scene.pins.selected == "p")
        // Beside the pin, inside the pad: the pad's.
        _ = d.click(at: ScreenPoint(x: 320, y: 285))
        #expect(d.session.scene.layer(Pad.self)?.presses == 1)
    }

    @Test func whatNoLayerTakesIsTheCamerasAndAClickBesideEverythingPutsSelectionsAway() throws {
        var d = driver([])
        _ = d.click(at: head)
        #expect(d.session.scene.pins.selected == "p")
        let camera = d.session.camera
        d.t += 0.01
        _ = d.session.handle(.pointerDown(.left, ScreenPoint(x: 100, y: 100), clicks: 1, []), at: d.t)
        _ = d.session.handle(.pointerMoved(ScreenPoint(x: 160, y: 100)), at: d.t + 0.05)
        #expect(d.session.camera != camera)                       // the camera, last, pans
        #expect(d.session.scene.pins.selected == "p")             // a drag is not a click
        _ = d.session.handle(.pointerUp(.left, ScreenPoint(x: 160, y: 100)), at: d.t + 0.3)
        d.t += 1
        let effects = d.click(at: ScreenPoint(x: 700, y: 500))
        #expect(d.session.scene.pins.selected == nil)
        #expect(effects.contains(.pin(.selected(pin: nil))) && effects.contains(.redraw))
    }

    @Test func aClickOnATrackSelectsItAndPutsThePinAway() throws {
        var d = driver([])
        var points = TrackPoints()
        for k in 0...100 { points.append(latitude: 46, longitude: 7 + Double(k) * 0.001, elevation: 500, time: Double(k)) }
        let track = Track(kind: .track, segments: [0..<101], points: points)
        d.session.scene.tracks.add(TrackFile(path: "/rides/south.gpx", lines: [TrackLine(track: track, geometry: TrackGeometry(track), style: TrackStyle(color: TrackStyle.palette[1]))]))
        _ = d.click(at: head)
        #expect(d.session.scene.pins.selected == "p")
        _ = d.click(at: d.session.camera.screenPoint(for: Coordinate(latitude: 46, longitude: 7.03)))
        #expect(d.session.scene.tracks.selection != nil)
        #expect(d.session.scene.pins.selected == nil)
        // A click beside both: the track's callout goes too.
        _ = d.click(at: ScreenPoint(x: 700, y: 80))
        #expect(d.session.scene.tracks.selection == nil)
    }

    @Test func theNoticeIsALayerOnTopOfEverything() throws {
        var d = driver([Pad(box: ScreenRect(x: 0, y: 0, width: 800, height: 600), level: .chrome)])
        d.session.post(notice: "Over the pad")
        let frame = try #require(d.frame().noticeFrame)
        _ = d.click(at: ScreenPoint(x: frame.x + frame.width / 2, y: frame.y + frame.height / 2))
        #expect(d.session.notices.isEmpty)
        #expect(d.session.scene.layer(Pad.self)?.presses == 0)    // drawn under the notice
        _ = d.click(at: ScreenPoint(x: frame.x + frame.width / 2, y: frame.y + frame.height / 2))
        #expect(d.session.scene.layer(Pad.self)?.presses == 1)    // the notice gone, the pad's
    }

    @Test func theCameraIsTheSessionsOneCameraAndEveryFrameIsSeenThroughIt() {
        var d = driver([])
        d.session.controller.camera.setCenter(WebMercator.project(Coordinate(latitude: 46.01, longitude: 7.05)))
        let list = d.frame()
        // The pin, 0.005° south of the new centre, is drawn where the session's camera puts it.
        let tip = d.session.camera.screenPoint(for: Self.center)
        let pin = list.spriteCommands.first { if case .pin? = $0.0.spec(as: PinSprite.self) { return true } else { return false } }
        #expect(pin != nil && abs(pin!.1.x + pin!.1.width / 2 - tip.x) < 1e-6 && abs(pin!.1.maxY - tip.y) < 1e-6)
        #expect(tip.y > 350)
    }
}
