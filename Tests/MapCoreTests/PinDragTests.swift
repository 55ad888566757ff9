import Foundation
import MapCore
import MapGeometry
import Testing

struct PinDragTests {
    let tip = ScreenPoint(x: 100, y: 200)
    let here = Coordinate(latitude: 10, longitude: 20)
    /// 1 point = 0.01° east/south of `here`, tip at (100, 200).
    func coord(_ p: ScreenPoint) -> Coordinate {
        Coordinate(latitude: 10 - (p.y - 200) * 0.01, longitude: 20 + (p.x - 100) * 0.01)
    }

    func pressed() -> PinDragMachine {
        var m = PinDragMachine()
        _ = m.press(pin: "a", at: ScreenPoint(x: 103, y: 180), tip: tip, coordinate: here, t: 0)
        return m
    }

    @Test func holdingLiftsMovingCarriesReleaseDropsWithTheGrabOffset() {
        var m = pressed()
        #expect(m.tick(0.2).isEmpty && m.state == .none)                      // not yet held long enough
        #expect(m.tick(0.25) == [.stateChanged(pin: "a", .starting)])
        #expect(m.move(to: ScreenPoint(x: 183, y: 220), t: 0.4, coordinateAt: coord) == [.stateChanged(pin: "a", .dragging)])
        // Grabbed 3 right and 20 above the tip: the tip lands at (180, 240), not at the pointer.
        #expect(m.landing == coord(ScreenPoint(x: 180, y: 240)))
        #expect(m.release(t: 0.6) == [.stateChanged(pin: "a", .ending)])
        #expect(m.tick(0.7).isEmpty && m.state == .ending)
        #expect(m.tick(0.9) == [.stateChanged(pin: "a", .none), .moved(pin: "a", from: here, to: coord(ScreenPoint(x: 180, y: 240)))])
        #expect(m.state == .none && !m.isActive)
    }

    @Test("Moving 4 points lifts at once; less does not", arguments: [(3.9, false), (4.0, true)])
    func moveThreshold(distance: Double, lifts: Bool) {
        var m = pressed()
        let e = m.move(to: ScreenPoint(x: 103 + distance, y: 180), t: 0.05, coordinateAt: coord)
        #expect((m.state == .dragging) == lifts)
        #expect(e == (lifts ? [.stateChanged(pin: "a", .starting), .stateChanged(pin: "a", .dragging)] : []))
    }

    @Test func aClickSelectsAndAHoldWithoutMovingLandsWhereItWas() {
        var m = pressed()
        #expect(m.release(t: 0.1) == [.clicked(pin: "a")])
        #expect(!m.isActive)
        var h = pressed()
        _ = h.tick(0.3)
        _ = h.release(t: 0.5)
        #expect(h.tick(0.8) == [.stateChanged(pin: "a", .none), .moved(pin: "a", from: here, to: here)])
    }

    @Test("Cancel floats back: Esc, focus lost, a second button", arguments: ["esc", "focus", "button"])
    func cancelReturnsToTheStart(_ why: String) {
        var m = pressed()
        _ = m.move(to: ScreenPoint(x: 150, y: 150), t: 0.1, coordinateAt: coord)
        #expect(m.cancel(t: 0.3) == [.stateChanged(pin: "a", .canceling)])
        #expect(m.landing == here)
        #expect(m.release(t: 0.35).isEmpty) // a release during the float-back changes nothing
        #expect(m.tick(0.6) == [.stateChanged(pin: "a", .none)])
        #expect(m.state == .none)
    }

    @Test func releaseOutsideTheWindowStillEndsTheDrag() {
        var m = pressed()
        _ = m.move(to: ScreenPoint(x: -40, y: 500), t: 0.1, coordinateAt: coord)
        #expect(m.release(t: 0.2) == [.stateChanged(pin: "a", .ending)])
        _ = m.tick(0.5)
        #expect(m.state == .none)
    }

    @Test func liftRisesFloatsAndSettles() {
        var m = pressed()
        _ = m.tick(0.25)
        #expect(m.lift(at: 0.25) == 0)
        #expect(abs(m.lift(at: 0.55) - 1) < 1e-9)
        _ = m.move(to: ScreenPoint(x: 200, y: 200), t: 0.6, coordinateAt: coord)
        #expect(m.lift(at: 0.7) == 1)
        _ = m.release(t: 1)
        #expect(m.lift(at: 1.2) > 0 && m.lift(at: 1.2) < 1)   // falling
        #expect(m.lift(at: 1.27) < 0)                        // the settle dips below the mark…
        #expect(abs(m.lift(at: 1.3)) < 1e-9)                 // …and comes to rest on it
    }

    @Test func theHitAreaIsWiderThanThePin() {
        let r = Pin.hitRect(tip: ScreenPoint(x: 50, y: 50))
        #expect(r.width >= 44 && r.height >= 44 && r.width > Pin.imageSize.width)
    }
}
