import MapCore
import MapGeometry
import Testing
@testable import MapWindow

/// The one frame scheduler of the host's loop and an app's own: situations and what it
/// decides, in a table, then the sequences that matter (a settle, a latch, a rest).
struct FrameScheduleTests {
    typealias S = FrameSchedule.Situation

    /// A schedule whose last frame began at 10 and ended at 10.01, with what it left.
    static func after(moving: Bool = false, more: Bool = false, latch: Double? = nil, _ s: S = S(now: 10.01)) -> FrameSchedule {
        var f = FrameSchedule()
        f.frameBegins(at: 10)
        f.frameDrawn(moving: moving, more: more, latch: latch, after: s)
        return f
    }

    static let settling = after(more: true, S(now: 10.01, tilesComing: true))
    static let settlingView = after(more: true, S(now: 10.01, tilesComing: true, viewTilesComing: true))
    static let settleEnds = 10.01 + FrameSchedule().settleInterval

    /// (what, schedule, situation now, decision)
    static let table: [(String, FrameSchedule, S, FrameSchedule.Decision)] = [
        ("the first turn draws", FrameSchedule(), S(now: 0), .draw(takeInTiles: false)),
        ("not asked to draw first, nothing due: asleep", FrameSchedule(drawFirst: false), S(now: 0), .sleep),
        ("a still frame, nothing coming, nothing due: asleep", after(), S(now: 10.02), .sleep),
        ("idle stays idle however long", after(), S(now: 1e6), .sleep),
        ("tiles on their way but none arrived: asleep until they wake it", after(), S(now: 10.02, tilesComing: true), .sleep),
        ("a retry due later: wait until then", after(), S(now: 10.02, wake: 70), .wait(until: 70)),
        ("a wake come: draw", after(), S(now: 70, wake: 70), .draw(takeInTiles: false)),
        ("a wake within SDL's millisecond: draw", after(), S(now: 69.9995, wake: 70), .draw(takeInTiles: false)),
        ("a wake the last frame saw to: not woken again", after(), S(now: 10.02, wake: 9.5), .sleep),
        ("a wake at the last frame's start: not woken again", after(), S(now: 10.02, wake: 10), .sleep),
        ("a wake during the last frame: due", after(), S(now: 10.02, wake: 10.005), .draw(takeInTiles: false)),
        ("long work under way: its progress drawn a quarter second on", after(), S(now: 10.02, busy: true),
         .wait(until: 10 + FrameSchedule.progressInterval)),
        ("long work, a wake sooner than the progress", after(), S(now: 10.02, busy: true, wake: 10.1), .wait(until: 10.1)),
        ("long work, progress due: draw", after(), S(now: 10.3, busy: true), .draw(takeInTiles: false)),
        ("in motion before the latch: latch", after(moving: true, latch: 10.012), S(now: 10.01), .latch(until: 10.012)),
        ("in motion, latch come: draw", after(moving: true, latch: 10.012), S(now: 10.012), .draw(takeInTiles: false)),
        ("in motion, latch passed: draw", after(moving: true, latch: 10.012), S(now: 10.05), .draw(takeInTiles: false)),
        ("in motion without a late latch: draw at once", after(moving: true), S(now: 10.01), .draw(takeInTiles: false)),
        ("a latch without motion is none", after(latch: 10.012), S(now: 10.01), .sleep),
        ("in motion, hidden: asleep", after(moving: true, latch: 10.012), S(now: 10.01, hidden: true), .sleep),
        ("pictures ready, more coming: settle", settling, S(now: 10.02, tilesComing: true), .settle(until: settleEnds)),
        ("pictures ready, sprites coming: settle", after(more: true, S(now: 10.01, spritesComing: true)), S(now: 10.02, spritesComing: true),
         .settle(until: settleEnds)),
        ("settling, all in before the time: draw", settling, S(now: 10.02), .draw(takeInTiles: false)),
        ("settling, the time come: draw", settling, S(now: settleEnds, tilesComing: true), .draw(takeInTiles: false)),
        ("settling for the view, the view in: draw with its tiles", settlingView, S(now: 10.02, tilesComing: true),
         .draw(takeInTiles: true)),
        ("settling for the view, the view's tiles coming: settle", settlingView, S(now: 10.02, tilesComing: true, viewTilesComing: true),
         .settle(until: settleEnds)),
        ("settling for the view, view in but sprites coming: settle", settlingView, S(now: 10.02, tilesComing: true, spritesComing: true),
         .settle(until: settleEnds)),
        ("pictures ready, nothing more coming: draw at once", after(more: true), S(now: 10.02), .draw(takeInTiles: false)),
        ("pictures ready, the map not on screen yet: each tile as it comes",
         after(more: true, S(now: 10.01, tilesComing: true, mapOnScreen: false)), S(now: 10.02, tilesComing: true, mapOnScreen: false),
         .draw(takeInTiles: false)),
        ("settling, hidden: asleep", settling, S(now: 10.02, hidden: true, tilesComing: true), .sleep),
    ]

    @Test func eachSituationHasItsDecision() {
        for (what, schedule, situation, expected) in Self.table {
            #expect(schedule.decide(situation) == expected, "\(what)")
        }
    }

    @Test func aChangeDrawsAtOnceButWaitsForTheLatch() {
        var resting = Self.after()
        resting.wantFrame()
        #expect(resting.decide(S(now: 10.02)) == .draw(takeInTiles: false))
        // Hidden, even a change waits until the window shows.
        #expect(resting.decide(S(now: 10.02, hidden: true)) == .sleep)
        var moving = Self.after(moving: true, latch: 10.012)
        moving.wantFrame()
        #expect(moving.decide(S(now: 10.01)) == .latch(until: 10.012))
        #expect(moving.decide(S(now: 10.012)) == .draw(takeInTiles: false))
    }

    @Test func aChangeWhileAFrameIsDrawnAsksForTheNext() {
        var s = FrameSchedule()
        s.frameBegins(at: 10)
        s.wantFrame() // a callback of the frame changes the map
        s.frameDrawn(moving: false, more: false, latch: nil, after: S(now: 10.01))
        #expect(s.decide(S(now: 10.01)) == .draw(takeInTiles: false))
    }

    @Test func aChangeEndsASettleButPicturesArrivingDoNot() {
        var s = Self.settling
        s.woken()
        #expect(s.decide(S(now: 10.02, tilesComing: true)) == .settle(until: Self.settleEnds))
        s.wantFrame()
        #expect(s.decide(S(now: 10.02, tilesComing: true)) == .draw(takeInTiles: false))
    }

    @Test func aWorkersWakeUpDrawsAResting() {
        var s = Self.after()
        #expect(s.decide(S(now: 11)) == .sleep)
        s.woken()
        #expect(s.decide(S(now: 11)) == .draw(takeInTiles: false))
    }

    @Test func aFrameStartsAfreshWhatItLeaves() {
        var s = Self.settling
        // The settle ends with a frame; that frame, still with nothing moving and nothing
        // left, rests.
        s.frameBegins(at: 10.1)
        s.frameDrawn(moving: false, more: false, latch: nil, after: S(now: 10.11, tilesComing: true))
        #expect(s.decide(S(now: 10.2, tilesComing: true)) == .sleep)
        // Motion stopping: the last frame in motion leaves a rest.
        var m = Self.after(moving: true, latch: 10.012)
        m.frameBegins(at: 10.012)
        m.frameDrawn(moving: false, more: false, latch: 10.03, after: S(now: 10.02))
        #expect(m.decide(S(now: 10.021)) == .sleep)
    }

    @Test func itComesToRestOnceBetweenFrames() {
        var s = Self.after()
        let timed = s.comesToRest(.wait(until: 70)), drawing = s.comesToRest(.draw(takeInTiles: false))
        #expect(!timed, "a timed wait is not a rest")
        #expect(!drawing)
        let first = s.comesToRest(.sleep)
        // An event that changes nothing, then asleep again: said already.
        let again = s.comesToRest(.sleep)
        s.frameBegins(at: 11)
        s.frameDrawn(moving: false, more: false, latch: nil, after: S(now: 11.01))
        let afterFrame = s.comesToRest(.sleep)
        #expect(first && !again && afterFrame)
    }

    @Test func theWaitAnAppIsToldOf() {
        #expect(FrameSchedule.Decision.draw(takeInTiles: true).seconds(from: 5) == 0)
        #expect(FrameSchedule.Decision.latch(until: 5.01).seconds(from: 5)! == 5.01 - 5)
        #expect(FrameSchedule.Decision.settle(until: 5.08).seconds(from: 5)! == 5.08 - 5)
        #expect(FrameSchedule.Decision.wait(until: 65).seconds(from: 5) == 60)
        #expect(FrameSchedule.Decision.wait(until: 4).seconds(from: 5) == 0)
        #expect(FrameSchedule.Decision.sleep.seconds(from: 5) == nil)
    }

    /// A still map's tiles arriving one by one over 200 ms, a worker's wake-up for each (each
    /// frame takes in what arrived after its present, for the next frame to show): frames
    /// come once per settle, not once per tile, and the loop then sleeps.
    @Test func tilesArrivingOneByOneShowInFewFrames() {
        var s = FrameSchedule()
        let tiles = (1...20).map { Double($0) / 100 }
        var now = 0.0, frames = 0, arrived = 0, takenIn = 0
        func arrive() { now = tiles[arrived]; arrived += 1; s.woken() }
        while now < 1 {
            let coming = arrived < tiles.count
            let situation = S(now: now, tilesComing: coming, viewTilesComing: coming)
            switch s.decide(situation) {
            case .draw:
                frames += 1
                let more = arrived > takenIn
                takenIn = arrived
                s.frameBegins(at: now)
                s.frameDrawn(moving: false, more: more, latch: nil, after: situation)
            case let .settle(until), let .wait(until):
                // An event comes first (the next tile), or the time.
                if coming, tiles[arrived] < until { arrive() } else { now = until }
            case .sleep:
                if coming { arrive() } else { now = 1 }
            case .latch:
                Issue.record("nothing moves")
                return
            }
        }
        // The first picture, then one per 80 ms of arrivals and one for the last tiles.
        #expect(frames <= 6, "\(frames) frames for 20 tiles")
        #expect(takenIn == tiles.count)
        #expect(s.decide(S(now: 1)) == .sleep)
    }
}

struct CameraMotionTests {
    let start = Camera(center: Coordinate(latitude: 0, longitude: 0), zoom: 3, viewportSize: ScreenSize(width: 800, height: 600))

    @Test func aZoomSettlesAMomentAfterItStopsChanging() {
        var m = CameraMotion(), c = start
        let first = m.frame(c, at: 0)
        #expect(first.zoomSettled && !first.moving)
        c.setZoom(3.5)
        let zoomed = m.frame(c, at: 1)
        #expect(!zoomed.zoomSettled && zoomed.moving)
        #expect(m.zoomSettles == 1 + CameraMotion.zoomSettling)
        // Still moving a moment after; settled and resting once the moment is over.
        let soon = m.frame(c, at: 1.1)
        #expect(!soon.zoomSettled && soon.moving)
        let later = m.frame(c, at: 1.2)
        #expect(later.zoomSettled && !later.moving)
        #expect(m.zoomSettles == nil)
    }

    @Test func aPanMovesButKeepsTheZoomSettled() {
        var m = CameraMotion(), c = start
        _ = m.frame(c, at: 0)
        c.setCenter(WebMercator.project(Coordinate(latitude: 1, longitude: 1)))
        let panned = m.frame(c, at: 1)
        #expect(panned.zoomSettled && panned.moving)
        #expect(m.zoomSettles == nil)
    }
}

struct SaidOnceTests {
    @Test func aTileFailureIsSaidOncePerReason() {
        var said = SaidOnce()
        let said1 = said.tileFailure("tile 9/260/175 from osm: offline")
        let said2 = said.tileFailure("tile 9/261/175 from osm: offline")
        let said3 = said.tileFailure("tile 9/261/175 from osm: 404")
        #expect(said1 && !said2 && said3)
        let server1 = said.serverFailed(), server2 = said.serverFailed()
        #expect(server1 && !server2)
    }
}
