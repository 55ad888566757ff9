import MapCore
import Testing

struct TicksTests {
    @Test func roundMultiplesThroughTheRange() {
        #expect(Ticks.multiples(of: 2, from: -1, through: 7) == [0, 2, 4, 6])
        #expect(Ticks.multiples(of: 0.5, from: 1, through: 2) == [1, 1.5, 2])
        #expect(Ticks.multiples(of: 10, from: 1, through: 5).isEmpty)
    }

    /// Heights of 1e20 m a metre apart (a broken logger): adding the step leaves the value
    /// where it was, and the profile's loop of `h += step` never ended (found by
    /// fuzz-track-render). Now there is one tick, and the call returns.
    @Test func aStepTooSmallToMoveGivesOneTickNotALoopForever() {
        #expect(Ticks.multiples(of: 1, from: 1e20, through: 1e20 + 1e6) == [1e20])
        #expect(Ticks.multiples(of: 1, from: 0, through: 1e9, limit: 12).count == 12)
    }

    @Test func numbersThatAreNotOnesGiveNoTicks() {
        #expect(Ticks.multiples(of: .nan, from: 0, through: 1).isEmpty)
        #expect(Ticks.multiples(of: 1, from: -.infinity, through: 1).isEmpty)
        #expect(Ticks.multiples(of: 0, from: 0, through: 1).isEmpty)
        #expect(Ticks.multiples(of: -1, from: 0, through: 1).isEmpty)
        #expect(Ticks.multiples(of: 1, from: 2, through: 1).isEmpty)
    }
}
