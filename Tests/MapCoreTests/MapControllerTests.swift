import Foundation
import MapCore
import MapGeometry
import Testing
import TestSupport

struct MapControllerTests {
    func controller(zoom: Double = 3) -> MapController {
        MapController(camera: Camera(center: Coordinate(latitude: 0, longitude: 0), zoom: zoom,
                                     viewportSize: ScreenSize(width: 800, height: 600)))
    }

    @Test func dragPansExactlyAndAPauseBeforeReleaseThrowsNothing() {
        var c = controller()
        let start = c.camera.center
        c.handle(.pointerDown(.left, ScreenPoint(x: 400, y: 300), clicks: 1, []), at: 0)
        for i in 1...20 { c.handle(.pointerMoved(ScreenPoint(x: 400 + Double(i) * 5, y: 300 + Double(i) * 2.5)), at: Double(i) * 0.02) }
        c.handle(.pointerUp(.left, ScreenPoint(x: 500, y: 350)), at: 0.4 + 0.3) // rested 0.3 s
        #expect(!c.isAnimating(at: 0.7))
        #expect(abs((start.x - c.camera.center.x) * 8 - 100) < 1e-9)
        #expect(abs((start.y - c.camera.center.y) * 8 - 50) < 1e-9)
    }

    @Test func flickGlidesAndDecays() {
        var c = controller()
        c.handle(.pointerDown(.left, ScreenPoint(x: 400, y: 300), clicks: 1, []), at: 0)
        for i in 1...5 { c.handle(.pointerMoved(ScreenPoint(x: 400 + Double(i) * 20, y: 300)), at: Double(i) * 0.016) }
        c.handle(.pointerUp(.left, ScreenPoint(x: 500, y: 300)), at: 0.08)
        #expect(c.isAnimating(at: 0.08))
        let released = c.camera.center.x
        var xs: [Double] = []
        for t in stride(from: 0.1, through: 3.0, by: 0.1) { c.advance(to: t); xs.append(c.camera.center.x) }
        // Content moves right, so the centre moves west; each step shorter than the last.
        let steps = zip(xs, xs.dropFirst()).map { $0 - $1 } // equal 0.1 s steps
        #expect(steps.allSatisfy { $0 >= -1e-12 })
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $1 <= $0 + 1e-12 })
        #expect(!c.isAnimating(at: 3.0))
        // v0 = 1250 pt/s for τ = 0.325 s glides about v0·τ ≈ 406 pt (minus the tail below stop speed).
        let glided = (released - c.camera.center.x) * 8
        #expect(glided > 390 && glided < 410)
    }

    @Test func kineticDistanceFollowsTheExponential() {
        let k = KineticPan(start: 1, velocity: ScreenPoint(x: 1000, y: 0), timeConstant: 0.325)
        #expect(abs(k.offset(at: 1).x) < 1e-12)
        #expect(abs(k.offset(at: 1.325).x - 325 * (1 - exp(-1))) < 1e-9)
        #expect(abs(k.speed(at: 1.325) - 1000 * exp(-1)) < 1e-9)
        #expect(abs(k.duration - 0.325 * log(1000 / KineticPan.stopSpeed)) < 1e-12)
    }

    @Test func wheelNotchZoomsHalfALevelAroundTheCursorEasedOut() {
        var c = controller()
        let cursor = ScreenPoint(x: 600, y: 300)
        let under = c.camera.coordinate(for: cursor)
        c.handle(.wheel(dy: 1, precise: false, at: cursor), at: 10)
        c.advance(to: 10.1)
        // Halfway in time, ease-out is past halfway in zoom.
        #expect(c.camera.zoom > 3.25 && c.camera.zoom < 3.5)
        #expect(screenDistance(c.camera.screenPoint(for: under), cursor) < 1e-6)
        c.advance(to: 10.2)
        #expect(abs(c.camera.zoom - 3.5) < 1e-12)
        #expect(!c.isAnimating(at: 10.2))
        #expect(screenDistance(c.camera.screenPoint(for: under), cursor) < 1e-6)
    }

    @Test func notchesDuringTheAnimationAccumulate() {
        var c = controller()
        let cursor = ScreenPoint(x: 200, y: 150)
        c.handle(.wheel(dy: 1, precise: false, at: cursor), at: 0)
        c.handle(.wheel(dy: 1, precise: false, at: cursor), at: 0.05)
        c.handle(.wheel(dy: 1, precise: false, at: cursor), at: 0.1)
        c.advance(to: 0.15)
        #expect(c.isAnimating(at: 0.15))
        c.advance(to: 0.3)
        #expect(abs(c.camera.zoom - 4.5) < 1e-12)
        // Out again: two notches down.
        c.handle(.wheel(dy: -1, precise: false, at: cursor), at: 1)
        c.handle(.wheel(dy: -1, precise: false, at: cursor), at: 1.05)
        c.advance(to: 2)
        #expect(abs(c.camera.zoom - 3.5) < 1e-12)
    }

    @Test func preciseScrollZoomsProportionallyAtOnce() {
        var c = controller()
        c.handle(.wheel(dy: 0.2, precise: true, at: ScreenPoint(x: 100, y: 100)), at: 0)
        #expect(abs(c.camera.zoom - 3.1) < 1e-12)
        #expect(!c.isAnimating(at: 0))
    }

    @Test func doubleClickZoomsInByOneShiftOut() {
        var c = controller()
        let p = ScreenPoint(x: 123, y: 456)
        let under = c.camera.coordinate(for: p)
        c.handle(.pointerDown(.left, p, clicks: 1, []), at: 0)
        c.handle(.pointerUp(.left, p), at: 0.05)
        c.handle(.pointerDown(.left, p, clicks: 2, []), at: 0.15)
        c.handle(.pointerUp(.left, p), at: 0.2)
        c.advance(to: 1)
        #expect(abs(c.camera.zoom - 4) < 1e-12)
        #expect(screenDistance(c.camera.screenPoint(for: under), p) < 1e-6)
        c.handle(.pointerDown(.left, p, clicks: 2, [.shift]), at: 2)
        c.advance(to: 3)
        #expect(abs(c.camera.zoom - 3) < 1e-12)
    }

    @Test func keysPanZoomAndQuit() {
        var c = controller()
        let x0 = c.camera.center.x
        c.handle(.keyDown(.right, []), at: 0)
        c.advance(to: 1)
        #expect(abs((c.camera.center.x - x0) * 8 - MapController.keyPanDistance) < 1e-9)
        c.handle(.keyDown(.plus, []), at: 2)
        c.handle(.keyDown(.plus, []), at: 2.05)
        c.advance(to: 3)
        #expect(abs(c.camera.zoom - 5) < 1e-12)
        c.handle(.keyDown(.minus, []), at: 4)
        c.advance(to: 5)
        #expect(abs(c.camera.zoom - 4) < 1e-12)
        // Ctrl+Q and F11 are the app's to bind (Meridian's `AppKeys`); the close button is the map's.
        #expect(c.handle(.keyDown(.letter("q"), [.control]), at: 6) == [])
        #expect(c.handle(.keyDown(.letter("q"), []), at: 6) == [])
        #expect(c.handle(.keyDown(.f11, []), at: 6) == [])
        #expect(c.handle(.quitRequested, at: 6) == [.quit])
    }

    @Test func losingFocusEndsADrag() {
        var c = controller()
        c.handle(.pointerDown(.left, ScreenPoint(x: 400, y: 300), clicks: 1, []), at: 0)
        c.handle(.pointerMoved(ScreenPoint(x: 420, y: 300)), at: 0.1)
        c.handle(.focusLost, at: 0.2)
        let center = c.camera.center
        c.handle(.pointerMoved(ScreenPoint(x: 600, y: 300)), at: 0.3)
        #expect(c.camera.center == center)
    }

    @Test func pressStopsAGlide() {
        var c = controller()
        c.handle(.pointerDown(.left, ScreenPoint(x: 400, y: 300), clicks: 1, []), at: 0)
        for i in 1...5 { c.handle(.pointerMoved(ScreenPoint(x: 400 + Double(i) * 20, y: 300)), at: Double(i) * 0.016) }
        c.handle(.pointerUp(.left, ScreenPoint(x: 500, y: 300)), at: 0.08)
        c.handle(.pointerDown(.left, ScreenPoint(x: 300, y: 300), clicks: 1, []), at: 0.2)
        #expect(!c.isAnimating(at: 0.2))
    }
}
