import Foundation
@testable import MapChrome
@testable import MapCore
import MapGeometry
import Testing
import TestSupport

/// Turning the map by hand: keys, the right button, Ctrl+drag, fingers; the turn animated the
/// shortest way round about the view's centre, snapping north near north; and the gestures
/// that keep a point under the pointer still keeping it there on a turned map.
struct TurningTests {
    static let center = Coordinate(latitude: 60.17, longitude: 24.94)

    func controller(bearing: Double = 0) -> MapController {
        MapController(camera: Camera(center: Self.center, zoom: 12, viewportSize: ScreenSize(width: 800, height: 600), bearing: bearing))
    }

    func session(bearing: Double = 0, layers: [any MapLayer] = Scene.standardLayers) -> MapSession {
        MapSession(scene: Scene(layers: layers),
                   camera: Camera(center: Self.center, zoom: 12, viewportSize: ScreenSize(width: 800, height: 600), bearing: bearing))
    }

    /// The angle between two bearings, whichever way round is shorter.
    func apart(_ a: Double, _ b: Double) -> Double { abs(TurnTransition.shortestTurn(from: a, to: b)) }

    // MARK: the animation

    @Test("A turn ends at its bearing and goes the shortest way round", arguments: [(350.0, 10.0), (10.0, 350.0), (0.0, 180.0), (90.0, 300.0)])
    func aTurnGoesTheShortestWay(from: Double, to: Double) {
        var c = controller(bearing: from)
        let centre = c.camera.center
        c.animator.turn(to: to, camera: c.camera, at: 0)
        var passed: [Double] = []
        for i in 1...30 {
            c.advance(to: Double(i) * 0.01)
            passed.append(c.camera.bearing)
            // About the view's centre: the centre stays.
            #expect((c.camera.center - centre).length < 1e-9)
        }
        #expect(c.camera.bearing == to)
        #expect(!c.isAnimating(at: 0.3))
        // Never further from either end than the shortest turn between them.
        let sweep = apart(from, to)
        #expect(passed.allSatisfy { apart($0, from) <= sweep + 1e-9 && apart($0, to) <= sweep + 1e-9 })
        // 350° → 10° passes north, not 180°.
        if from == 350 { #expect(passed.contains { apart($0, 0) < 5 }) }
    }

    @Test func shiftArrowsTurnFifteenDegreesAnimatedAndAddUp() {
        var c = controller()
        #expect(KeyBindings.command(for: .right, .shift) == .turn && KeyBindings.command(for: .left, .shift) == .turn)
        #expect(KeyBindings.command(for: .right, []) == .panRight)
        let centre = c.camera.center
        #expect(c.handle(.keyDown(.right, .shift), at: 0).isEmpty)
        c.advance(to: 0.1)
        #expect(c.camera.bearing > 0 && c.camera.bearing < 15)
        c.advance(to: 0.3)
        #expect(c.camera.bearing == 15)
        #expect((c.camera.center - centre).length < 1e-9, "not panned: Shift+→ is not →")
        // Two presses in a row: 30° more; Shift+← back the other way through north.
        c.handle(.keyDown(.right, .shift), at: 1)
        c.handle(.keyDown(.right, .shift), at: 1.05)
        c.advance(to: 2)
        #expect(abs(c.camera.bearing - 45) < 1e-9)
        for i in 0..<4 { c.handle(.keyDown(.left, .shift), at: 3 + Double(i)) }
        c.advance(to: 8)
        #expect(abs(c.camera.bearing - 345) < 1e-9)
        // The embedder's table has them too.
        #expect(KeyBindings.command(for: .right, .shift, in: KeyBindings.map) == .turn)
    }

    // MARK: by hand

    @Test func aRightDragTurnsByTheAngleThePointerSweepsAboutTheCentre() {
        var s = session(layers: [PinsLayer()])
        let centre = s.camera.center
        // From straight right of the centre to straight below it: a quarter turn clockwise.
        _ = s.handle(.pointerDown(.right, ScreenPoint(x: 600, y: 300), clicks: 1, []), at: 0)
        for i in 1...9 {
            let a = Double(i) * 10 * .pi / 180
            _ = s.handle(.pointerMoved(ScreenPoint(x: 400 + 200 * cos(a), y: 300 + 200 * sin(a))), at: Double(i) * 0.01)
        }
        // The map turned with the pointer: clockwise on screen, so its top now faces west.
        #expect(abs(s.camera.bearing - 270) < 1e-9)
        #expect((s.camera.center - centre).length < 1e-9)
        _ = s.handle(.pointerUp(.right, ScreenPoint(x: 400, y: 500)), at: 0.2)
        s.advance(to: 1)
        #expect(abs(s.camera.bearing - 270) < 1e-9)
        // A drag is not a click: no pin dropped.
        #expect(s.pins.isEmpty)
        // A right-click (released where pressed) still drops a pin, where it was pressed.
        let at = ScreenPoint(x: 500, y: 200)
        _ = s.handle(.pointerDown(.right, at, clicks: 1, []), at: 2)
        #expect(s.pins.isEmpty, "held back until known to be a click")
        _ = s.handle(.pointerUp(.right, at), at: 2.1)
        #expect(s.pins.count == 1)
        #expect(screenDistance(s.camera.screenPoint(for: s.pins[0].coordinate), at) < 1e-6)
        #expect(abs(s.camera.bearing - 270) < 1e-9)
    }

    @Test func ctrlDragTurnsAsARightDragDoes() {
        var c = controller()
        let centre = c.camera.center
        c.handle(.pointerDown(.left, ScreenPoint(x: 400, y: 100), clicks: 1, .control), at: 0)
        // From straight above the centre to straight left of it: a quarter turn anticlockwise.
        c.handle(.pointerMoved(ScreenPoint(x: 300, y: 130)), at: 0.05)
        c.handle(.pointerMoved(ScreenPoint(x: 200, y: 300)), at: 0.1)
        #expect(abs(c.camera.bearing - 90) < 1e-9)
        #expect((c.camera.center - centre).length < 1e-9, "not panned")
        #expect(c.handle(.pointerUp(.left, ScreenPoint(x: 200, y: 300)), at: 0.2) == [.redraw])
        #expect(!c.isAnimating(at: 0.2))
        // A Ctrl+click that does not move is still a click on the map.
        let q = ScreenPoint(x: 250, y: 260)
        c.handle(.pointerDown(.left, q, clicks: 1, .control), at: 1)
        #expect(c.handle(.pointerUp(.left, q), at: 1.1) == [.clicked(q)])
        #expect(abs(c.camera.bearing - 90) < 1e-9)
    }

    @Test("Let go within 7° of north, a turn ends north-up (animated); further, it stays", arguments: [(5.0, 0.0), (-6.5, 0.0), (9.0, 351.0), (-20.0, 20.0)])
    func nearNorthItSnaps(swept: Double, ends: Double) {
        var s = session()
        let r = 200.0, start = -90.0 // straight above the centre
        func at(_ degrees: Double) -> ScreenPoint {
            ScreenPoint(x: 400 + r * cos(degrees * .pi / 180), y: 300 + r * sin(degrees * .pi / 180))
        }
        _ = s.handle(.pointerDown(.right, at(start), clicks: 1, []), at: 0)
        _ = s.handle(.pointerMoved(at(start + swept / 2)), at: 0.05)
        _ = s.handle(.pointerMoved(at(start + swept)), at: 0.1)
        #expect(apart(s.camera.bearing, -swept) < 1e-9)
        _ = s.handle(.pointerUp(.right, at(start + swept)), at: 0.2)
        s.advance(to: 0.3)
        if ends == 0 { #expect(s.isAnimating(at: 0.3), "snapping, animated") }
        s.advance(to: 1)
        #expect(apart(s.camera.bearing, ends) < 1e-9)
        #expect(s.camera.isTurned == (ends != 0))
    }

    @Test func fingersTurnTheMapAndSnapWhenLifted() {
        var c = controller()
        // Fingers turning clockwise on the screen take the map with them: its top faces west of north.
        c.handle(.rotate(degrees: 12), at: 0)
        c.handle(.rotate(degrees: 8), at: 0.02)
        #expect(abs(c.camera.bearing - 340) < 1e-9)
        c.handle(.rotateEnded, at: 0.1)
        c.advance(to: 1)
        #expect(abs(c.camera.bearing - 340) < 1e-9)
        c.handle(.rotate(degrees: -15), at: 2)
        #expect(abs(c.camera.bearing - 355) < 1e-9)
        c.handle(.rotateEnded, at: 2.1)
        c.advance(to: 3)
        #expect(c.camera.bearing == 0)
    }

    @Test func aPinchTurnsNothingUntilTheFingersTurnTenDegrees() {
        var c = controller()
        c.handle(.rotate(degrees: 4), at: 0)
        c.handle(.rotate(degrees: -3), at: 0.02)
        c.handle(.rotate(degrees: 5), at: 0.04)
        #expect(c.camera.bearing == 0 && !c.isTurning)
        c.handle(.rotateEnded, at: 0.1)
        // What a gesture turned by accident does not carry over to the next one.
        c.handle(.rotate(degrees: 6), at: 1)
        #expect(c.camera.bearing == 0)
        c.handle(.rotate(degrees: 6), at: 1.02)
        #expect(abs(c.camera.bearing - 348) < 1e-9)
    }

    /// SDL sends a touchscreen's first finger as the mouse too: its press, moves and release
    /// neither pan, click nor keep the map turning after the fingers lift.
    @Test func aFingerTurnEndsWhenTheFingersLiftThoughTheFirstFingerIsAMouse() {
        var c = controller()
        let p = ScreenPoint(x: 300, y: 200)
        c.handle(.pointerDown(.left, p, clicks: 1, []), at: 0)
        c.handle(.rotate(degrees: 20), at: 0.02)
        c.handle(.pointerMoved(ScreenPoint(x: 320, y: 260)), at: 0.04)
        #expect(abs(c.camera.bearing - 340) < 1e-9)
        let up = c.handle(.pointerUp(.left, ScreenPoint(x: 320, y: 260)), at: 0.06)
        #expect(!up.contains { if case .clicked = $0 { true } else { false } })
        c.handle(.rotateEnded, at: 0.08)
        #expect(!c.isTurning)
        // A hover after it turns nothing.
        c.handle(.pointerMoved(ScreenPoint(x: 100, y: 500)), at: 0.5)
        c.advance(to: 2)
        #expect(abs(c.camera.bearing - 340) < 1e-9)
    }

    // MARK: the point under the pointer, on a turned map

    @Test func dragWheelAndDoubleClickKeepThePointUnderThePointerWhenTurned() {
        var c = controller(bearing: 40)
        // A drag: the point pressed ends under the pointer.
        let press = ScreenPoint(x: 300, y: 250), release = ScreenPoint(x: 520, y: 410)
        let grabbed = c.camera.mapPoint(for: press)
        c.handle(.pointerDown(.left, press, clicks: 1, []), at: 0)
        for i in 1...10 {
            let f = Double(i) / 10
            c.handle(.pointerMoved(ScreenPoint(x: press.x + (release.x - press.x) * f, y: press.y + (release.y - press.y) * f)), at: Double(i) * 0.02)
        }
        #expect(screenDistance(c.camera.screenPoint(for: grabbed), release) < 1e-6)
        c.handle(.pointerUp(.left, release), at: 0.5) // rested: no fling
        #expect(c.camera.bearing == 40)
        // The wheel, about the pointer.
        let pointer = ScreenPoint(x: 650, y: 120)
        let under = c.camera.mapPoint(for: pointer)
        c.handle(.wheel(dy: 1, precise: false, at: pointer), at: 1)
        c.advance(to: 1.1)
        #expect(screenDistance(c.camera.screenPoint(for: under), pointer) < 1e-6)
        c.advance(to: 2)
        #expect(abs(c.camera.zoom - 12.5) < 1e-12)
        #expect(screenDistance(c.camera.screenPoint(for: under), pointer) < 1e-6)
        // A touchpad's continuous zoom.
        c.handle(.wheel(dy: 0.3, precise: true, at: pointer), at: 3)
        #expect(screenDistance(c.camera.screenPoint(for: under), pointer) < 1e-6)
        // A double-click.
        let clicked = ScreenPoint(x: 150, y: 480), there = c.camera.mapPoint(for: clicked)
        c.handle(.pointerDown(.left, clicked, clicks: 1, []), at: 4)
        c.handle(.pointerUp(.left, clicked), at: 4.05)
        c.handle(.pointerDown(.left, clicked, clicks: 2, []), at: 4.1)
        c.advance(to: 5)
        #expect(abs(c.camera.zoom - 13.65) < 1e-9)
        #expect(screenDistance(c.camera.screenPoint(for: there), clicked) < 1e-6)
    }

    @Test func aFlickGlidesTheWayThePointerWentOnScreen() {
        var c = controller(bearing: 120)
        let grabbed = c.camera.mapPoint(for: ScreenPoint(x: 400, y: 300))
        c.handle(.pointerDown(.left, ScreenPoint(x: 400, y: 300), clicks: 1, []), at: 0)
        for i in 1...5 { c.handle(.pointerMoved(ScreenPoint(x: 400 + Double(i) * 20, y: 300)), at: Double(i) * 0.016) }
        c.handle(.pointerUp(.left, ScreenPoint(x: 500, y: 300)), at: 0.08)
        c.advance(to: 3)
        // Still on the line the pointer moved along (y = 300), further along it.
        let now = c.camera.screenPoint(for: grabbed)
        #expect(abs(now.y - 300) < 1e-6)
        #expect(now.x > 880 && now.x < 920)
    }

    @Test func aPinDraggedOnATurnedMapLandsWhereDropped() {
        let paris = Coordinate(latitude: 48.8566, longitude: 2.3522)
        var s = MapSession(scene: Scene(), camera: Camera(center: paris, zoom: 10, viewportSize: ScreenSize(width: 800, height: 600), bearing: 33))
        s.pins = [Pin(id: "p", coordinate: paris, title: "Paris")]
        let head = ScreenPoint(x: 400, y: 300 - 26) // pins stand upright: the head is above the tip
        _ = s.handle(.pointerDown(.left, head, clicks: 1, []), at: 0)
        s.advance(to: 0.3)
        _ = s.handle(.pointerMoved(head + ScreenPoint(x: 80, y: 40)), at: 0.4)
        _ = s.handle(.pointerUp(.left, head + ScreenPoint(x: 80, y: 40)), at: 0.5)
        s.advance(to: 1.5)
        let tip = s.camera.screenPoint(for: s.pins[0].coordinate)
        #expect(screenDistance(tip, ScreenPoint(x: 480, y: 340)) < 1e-6, "landed at \(tip)")
        #expect(s.camera.bearing == 33 && screenDistance(s.camera.screenPoint(for: paris), ScreenPoint(x: 400, y: 300)) < 1e-6)
    }

    // MARK: the compass

    @Test func theCompassShowsWhileTurnedPointsNorthAndTurnsTheMapBack() {
        var s = SessionDriver(layers: [ZoomControlsLayer()])
        #expect(!s.buttons(of: ZoomControlsLayer.Button.self).contains(.north), "no compass north-up")
        _ = s.key(.right, .shift)
        let list = s.frame()
        #expect(s.session.camera.bearing == 15)
        let compass = try? #require(list.buttons.first { $0.id.as(ZoomControlsLayer.Button.self) == .north })
        #expect(compass?.focusStop == true)
        // Its needle is turned to where north is on screen: 15° anticlockwise.
        let needle = list.commands.compactMap { c -> Double? in
            if case let .rotatedSprite(key, _, _, degrees) = c, key == .compassNeedle { return degrees } else { return nil }
        }
        #expect(needle == [345])
        // Its name shows while the pointer rests on it.
        if let f = compass?.frame {
            _ = s.session.handle(.pointerMoved(ScreenPoint(x: f.x + 5, y: f.y + 5)), at: s.t + 0.01)
            s.t += 0.01
            #expect(s.frame().spriteCommands.contains { $0.0 == .text(ZoomControlsLayer.compassName, .notice) })
        }
        // A click turns it back north, animated; the compass then goes.
        _ = s.click(ZoomControlsLayer.Button.north)
        #expect(s.session.isAnimating(at: s.t))
        #expect(s.session.camera.isTurned)
        _ = s.frame()
        #expect(s.session.camera.bearing == 0)
        #expect(!s.buttons(of: ZoomControlsLayer.Button.self).contains(.north))
        // The focus reaches it (Tab), and Enter presses it.
        _ = s.key(.left, .shift)
        _ = s.frame()
        for _ in 0..<3 { _ = s.key(.tab) }
        #expect(s.session.focused?.as(ZoomControlsLayer.Button.self) == .north)
        _ = s.key(.enter)
        _ = s.frame()
        #expect(s.session.camera.bearing == 0)
    }

    // MARK: the location on a turned map

    @Test func theHeadingConePointsAlongTheCourseOnATurnedMap() {
        var s = session(bearing: 70)
        s.receive(.fix(PositionFix(coordinate: Self.center, accuracy: 5, course: 100, speed: 3)), from: "test", at: 0)
        let list = s.frame(at: 0.5, tiles: NoTiles(), sprites: AllSprites())
        let cone = list.commands.compactMap { c -> Double? in
            if case let .rotatedSprite(key, _, _, degrees) = c, key == .headingCone(.systemBlue) { return degrees } else { return nil }
        }
        #expect(cone.count == 1)
        // 100° from north, on a map whose top faces 70°: 30° clockwise from the top of the screen.
        if let d = cone.first { #expect(apart(d, 30) < 1e-9) }
    }

    // MARK: the saved area

    @Test("The area saved from a turned map lies inside the outline, as large as fits", arguments: [0.0, 30.0, 45.0, 100.0, 200.0])
    func theSavedAreaFitsTheOutline(bearing: Double) {
        let camera = Camera(center: Self.center, zoom: 12, viewportSize: ScreenSize(width: 1000, height: 700), bearing: bearing)
        let layer = SaveAreaLayer()
        let r = layer.outline(camera)
        let corners = layer.chosenCorners(camera)
        for p in corners { #expect(p.x >= r.x - 1e-6 && p.x <= r.maxX + 1e-6 && p.y >= r.y - 1e-6 && p.y <= r.maxY + 1e-6, "\(p) outside \(r)") }
        // It touches the outline (it is as large as fits): on two sides at least.
        let touching = corners.filter { abs($0.x - r.x) < 1e-6 || abs($0.x - r.maxX) < 1e-6 || abs($0.y - r.y) < 1e-6 || abs($0.y - r.maxY) < 1e-6 }
        #expect(touching.count >= 2)
        // The area saved is the one outlined.
        let area = layer.area(camera, outline: r, offer: SaveAreaLayer.Offer(title: "t", zooms: 0...16, bytesPerTile: 1))
        let drawn = SaveAreaLayer.screenCorners(of: area, camera)
        for (a, b) in zip(drawn, corners) { #expect(screenDistance(a, b) < 1e-6) }
    }

    @Test func theSavedAreaIsOutlinedTurnedAndTheRestDimmed() {
        var s = SessionDriver(layers: [SaveAreaLayer()])
        s.session.controller.camera.setBearing(30)
        s.session.update(SaveAreaLayer.self, at: s.t) { $0.open(); return [] }
        let list = s.frame()
        let layer = s.session.scene.layer(SaveAreaLayer.self)!
        let corners = layer.chosenCorners(s.session.camera)
        // Four turned edges of the outline.
        let edges = list.commands.filter { if case let .rotatedSprite(key, _, _, _) = $0 { key == .solid(SaveAreaLayer.ink) } else { false } }
        #expect(edges.count == 4)
        // The dimmed rows cover what is outside, once, and nothing inside.
        let dim = list.commands.compactMap { c -> ScreenRect? in
            if case let .fillRect(r, color) = c, color == Color(hex: 0x000000, alpha: 0.22) { return r } else { return nil }
        }
        func covered(_ p: ScreenPoint) -> Int { dim.filter { $0.contains(p) }.count }
        let centre = ScreenPoint(x: (corners[0].x + corners[2].x) / 2, y: (corners[0].y + corners[2].y) / 2)
        #expect(covered(centre) == 0)
        for (i, a) in corners.enumerated() {
            let b = corners[(i + 1) % 4], mid = ScreenPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
            let out = ScreenPoint(x: mid.x + (mid.x - centre.x) * 0.05, y: mid.y + (mid.y - centre.y) * 0.05)
            let inside = ScreenPoint(x: mid.x - (mid.x - centre.x) * 0.05, y: mid.y - (mid.y - centre.y) * 0.05)
            #expect(covered(out) == 1 && covered(inside) == 0, "edge \(i)")
        }
        for p in [ScreenPoint(x: 1, y: 1), ScreenPoint(x: 799, y: 1), ScreenPoint(x: 799, y: 599), ScreenPoint(x: 1, y: 599)] { #expect(covered(p) == 1) }
    }

    @Test func theInscribedRectangleIsTheLargest() {
        // A square turned 45° in a square: its diagonal is the side.
        let (w, h) = SaveAreaLayer.inscribed(800, 800, turnedBy: 45)
        #expect(abs(w - 800 / 2.squareRoot()) < 1e-9 && abs(h - w) < 1e-9)
        // Against a search over widths.
        for degrees in [10.0, 30.0, 60.0, 80.0, 135.0] {
            let (w, h) = SaveAreaLayer.inscribed(1000, 600, turnedBy: degrees)
            let c = abs(cos(degrees * .pi / 180)), s = abs(sin(degrees * .pi / 180))
            var best = 0.0
            for i in 1...4000 {
                let x = Double(i) / 4
                let y = min((1000 - x * c) / s, (600 - x * s) / c)
                if y > 0 { best = max(best, x * y) }
            }
            #expect(w * h >= best * (1 - 1e-3), "\(degrees)°: \(w * h) < \(best)")
            #expect(w * c + h * s <= 1000 + 1e-6 && w * s + h * c <= 600 + 1e-6)
        }
    }
}
