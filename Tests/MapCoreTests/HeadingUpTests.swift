import Foundation
@testable import MapChrome
@testable import MapCore
import MapGeometry
import Testing

/// Following heading-up: F goes off → follow → heading-up → off; heading-up, the map turns with
/// the position's course, smoothed, and north-up again when the course is unknown.
struct HeadingUpTests {
    static let here = Coordinate(latitude: 60.17, longitude: 24.94)

    struct Drive {
        var session = MapSession(scene: Scene(layers: Scene.standardLayers + [LocateLayer()]),
                                 camera: Camera(center: Coordinate(latitude: 60, longitude: 25), zoom: 14, viewportSize: ScreenSize(width: 800, height: 600)))
        var t = 0.0
        /// Bearings of the frames drawn, in order.
        var bearings: [Double] = []

        mutating func fix(course: Double?) {
            session.receive(.fix(PositionFix(coordinate: HeadingUpTests.here, accuracy: 5, course: course, speed: course == nil ? 0 : 4)),
                            from: "test", at: t)
        }

        /// Frames at 30 a second for `seconds`, a fix of `course(i)` each second.
        mutating func run(_ seconds: Double, course: (Int) -> Double?) {
            let frames = Int(seconds * 30)
            for i in 0..<frames {
                if i % 30 == 0 { fix(course: course(i / 30)) }
                t += 1.0 / 30
                _ = session.frame(at: t, tiles: NoTiles(), sprites: AllSprites())
                bearings.append(session.camera.bearing)
            }
        }

        mutating func key(_ k: Key, _ mods: KeyModifiers = []) {
            t += 0.01
            _ = session.handle(.keyDown(k, mods), at: t)
        }

        /// A fix moving along `course`, then F twice: following heading-up.
        mutating func headingUp(course: Double) {
            fix(course: course)
            key(.letter("f"))
            key(.letter("f"))
        }
    }

    func apart(_ a: Double, _ b: Double) -> Double { abs(TurnTransition.shortestTurn(from: a, to: b)) }

    @Test func fGoesFromFollowToHeadingUpToOff() {
        var d = Drive()
        d.fix(course: 90)
        d.key(.letter("f"))
        #expect(d.session.controller.followMode == .follow && d.session.facts.following && !d.session.facts.headingUp)
        d.run(4) { _ in 90 }
        // Following keeps north up.
        #expect(d.session.camera.bearing == 0)
        #expect(d.session.camera.screenPoint(for: Self.here).distance(to: d.session.camera.screenCenter) < 1e-6)
        d.key(.letter("f"))
        #expect(d.session.controller.followMode == .headingUp && d.session.facts.headingUp)
        d.run(6) { _ in 90 }
        #expect(apart(d.session.camera.bearing, 90) < 0.1)
        // The location stays at the centre while the map turns about it.
        #expect(d.session.camera.screenPoint(for: Self.here).distance(to: d.session.camera.screenCenter) < 1e-6)
        // The locate button shows heading-up: a cone straight up over its dot.
        let list = d.session.frame(at: d.t, tiles: NoTiles(), sprites: AllSprites())
        #expect(list.commands.contains {
            if case let .rotatedSprite(key, r, _, degrees) = $0 { key == .headingCone(.systemBlue) && degrees == 0 && r.x > 700 && r.y > 450 } else { false }
        })
        d.key(.letter("f"))
        #expect(d.session.controller.followMode == .off && !d.session.facts.following)
        d.run(1) { _ in 90 }
        #expect(d.session.camera.bearing == 0, "off: north-up again")
    }

    @Test func noisyCoursesDoNotRockTheMapButATurnIsFollowed() {
        var d = Drive()
        d.headingUp(course: 90)
        // A receiver whose course wanders ±10° about east.
        let noise = [7.0, -9, 3, -4, 10, -8, 1, 6, -10, 4, -2, 9, -6, 0, 8, -7, 5, -3, 10, -9, 2, -5, 7, -1, -8]
        d.run(6) { _ in 90 }
        d.bearings.removeAll()
        d.run(Double(noise.count)) { 90 + noise[$0] }
        #expect(d.bearings.allSatisfy { apart($0, 90) < 6 }, "\(d.bearings.map { apart($0, 90) }.max()!)° off")
        // How far the map turned, all told: a raw course would have swung it some 250°.
        let travelled = zip(d.bearings, d.bearings.dropFirst()).reduce(0) { $0 + apart($1.0, $1.1) }
        #expect(travelled < 25, "turned \(travelled)° in all")
        // A real turn, to the south, is followed (to within the average's last degree).
        d.run(12) { _ in 180 }
        #expect(apart(d.session.camera.bearing, 180) < 1.5)
        // Across north the short way: 350° → 10° never passes south.
        d.run(12) { _ in 350 }
        d.bearings.removeAll()
        d.run(12) { _ in 10 }
        #expect(d.bearings.allSatisfy { apart($0, 0) <= 20 })
    }

    @Test func anUnknownCourseTurnsTheMapBackNorthUp() {
        var d = Drive()
        d.headingUp(course: 120)
        d.run(8) { _ in 120 }
        #expect(apart(d.session.camera.bearing, 120) < 0.1)
        // Standing still (no course) for a moment: the map holds.
        d.run(2) { _ in nil }
        #expect(apart(d.session.camera.bearing, 120) < 0.1)
        // Longer: north-up, still following.
        d.run(10) { _ in nil }
        #expect(d.session.camera.bearing == 0 && d.session.controller.followMode == .headingUp)
    }

    @Test func aPanLeavesFollowingAndKeepsTheBearing() {
        var d = Drive()
        d.headingUp(course: 60)
        d.run(6) { _ in 60 }
        let turned = d.session.camera.bearing
        d.t += 0.01
        _ = d.session.handle(.pointerDown(.left, ScreenPoint(x: 400, y: 300), clicks: 1, []), at: d.t)
        d.t += 0.2
        _ = d.session.handle(.pointerMoved(ScreenPoint(x: 500, y: 350)), at: d.t)
        d.t += 0.5
        _ = d.session.handle(.pointerUp(.left, ScreenPoint(x: 500, y: 350)), at: d.t)
        #expect(!d.session.facts.following && d.session.camera.bearing == turned)
        d.run(3) { _ in 150 }
        #expect(d.session.camera.bearing == turned, "no longer turned by the course")
    }

    @Test func aTurnByHandHeadingUpStillFollowsButNorthUpByHand() {
        var d = Drive()
        d.headingUp(course: 60)
        d.run(6) { _ in 60 }
        d.key(.right, .shift)
        #expect(d.session.controller.followMode == .follow)
        d.run(2) { _ in 100 }
        #expect(apart(d.session.camera.bearing, 75) < 0.2)
    }

    @Test func theFollowerAveragesAcrossNorthAndIgnoresSmallChanges() {
        var h = HeadingFollower()
        h.take(350, at: 0)
        h.take(10, at: 1)
        // Averaged as directions, 350° and then 10° make a course near north (not 180°).
        #expect(apart(h.target(at: 1)!, 0) < 5)
        for i in 2..<20 { h.take(10, at: Double(i)) }
        #expect(apart(h.target(at: 19)!, 10) < 1)
        // A course swinging ±8° about east: the target hardly moves.
        var w = HeadingFollower(), targets: [Double] = []
        for i in 0..<30 {
            w.take(90 + (i % 2 == 0 ? 8 : -8), at: Double(i))
            targets.append(w.target(at: Double(i))!)
        }
        let moved = zip(targets.dropFirst(5), targets.dropFirst(6)).reduce(0) { $0 + apart($1.0, $1.1) }
        #expect(moved < 3, "the target moved \(moved)°")
        #expect(h.target(at: 19 + HeadingFollower.holdUnknown + 0.1) == nil)
        // A step towards it goes the short way and eases.
        #expect(h.step(from: 350, toward: 10, seconds: 0.1) > 350)
        #expect(h.step(from: 10, toward: 10.01, seconds: 0.1) == 10.01)
    }
}
