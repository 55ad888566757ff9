import MapGeometry
import Testing
@testable import MapRender

struct StandInGateTests {
    let p = TileID(z: 5, x: 1, y: 1), q = TileID(z: 5, x: 2, y: 1)

    @Test func standInsWaitWhileTheirTilesAreOnTheWay() {
        var gate = StandInGate()
        #expect(gate.admit([p], loading: true, now: 10).isEmpty)
        #expect(gate.nextDue == 10 + StandInGate.grace)
        // q is wanted later: its own wait starts then.
        #expect(gate.admit([p, q], loading: true, now: 10.1).isEmpty)
        #expect(gate.admit([p, q], loading: true, now: 10 + StandInGate.grace + 0.001) == [p])
        #expect(gate.admit([p, q], loading: true, now: 10.1 + StandInGate.grace + 0.001) == [p, q])
    }

    @Test func settledLoadsLetStandInsThroughAtOnce() {
        var gate = StandInGate()
        #expect(gate.admit([p], loading: true, now: 0).isEmpty)
        // The tiles settled (no tile there, or failed): the stand-in is needed now.
        #expect(gate.admit([p], loading: false, now: 0.01) == [p])
        #expect(gate.nextDue == nil)
    }

    @Test func aStandInNoLongerWantedForgetsItsWait() {
        var gate = StandInGate()
        _ = gate.admit([p], loading: true, now: 0)
        _ = gate.admit([q], loading: true, now: 1)
        // p wanted again starts waiting afresh.
        #expect(gate.admit([p, q], loading: true, now: 1.1) == [])
        #expect(gate.admit([p, q], loading: true, now: 1 + StandInGate.grace + 0.001) == [q])
    }
}
