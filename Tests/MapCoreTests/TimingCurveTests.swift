import Foundation
import MapCore
import Testing

struct TimingCurveTests {
    @Test func endpointsAreFixed() {
        for c in [TimingCurve.linear, .easeIn, .easeOut, .easeInEaseOut] {
            #expect(c.value(at: 0) == 0)
            #expect(abs(c.value(at: 1) - 1) < 1e-9)
            #expect(c.value(at: -1) == 0 && abs(c.value(at: 2) - 1) < 1e-9)
        }
    }

    /// Values of Core Animation's curves, computed independently (bisection on the Bézier in Python).
    @Test("Known values", arguments: [
        (TimingCurve.linear, 0.25, 0.25),
        (TimingCurve.easeOut, 0.5, 0.684643),       // mirror image of ease-in
        (TimingCurve.easeIn, 0.5, 0.315357),
        (TimingCurve.easeInEaseOut, 0.5, 0.5),
        (TimingCurve.easeInEaseOut, 0.25, 0.129161),
        (TimingCurve.easeOut, 0.25, 0.378138),
    ])
    func knownValues(curve: TimingCurve, t: Double, expected: Double) {
        #expect(abs(curve.value(at: t) - expected) < 1e-4)
    }

    @Test func curvesAreMonotonic() {
        for c in [TimingCurve.linear, .easeIn, .easeOut, .easeInEaseOut, TimingCurve(0.1, 0.9, 0.2, 1)] {
            var last = -1.0
            for i in 0...1000 {
                let v = c.value(at: Double(i) / 1000)
                #expect(v >= last - 1e-12)
                last = v
            }
        }
    }

    @Test func easeOutLeadsEaseInLags() {
        for t in stride(from: 0.05, to: 1, by: 0.05) {
            #expect(TimingCurve.easeOut.value(at: t) > t)
            #expect(TimingCurve.easeIn.value(at: t) < t)
        }
    }
}
