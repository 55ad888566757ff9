@testable import MapRender
import Testing

/// The graticule's spacing and its labels in the margin.
struct PageGridTests {
    @Test("Steps", arguments: [(0.03, 0.005), (0.0004, 0.0005), (1.5, 0.2), (12.0, 2.0), (400.0, 90.0)])
    func steps(span: Double, step: Double) {
        #expect(PagePrinter.gridStep(span: span) == step)
    }

    @Test("Labels", arguments: [(24.95, 0.005, "24.950° E"), (-0.5, 0.5, "0.5° W"), (0.0, 1.0, "0°"), (-179.75, 0.25, "179.75° W")])
    func labels(value: Double, step: Double, text: String) {
        #expect(PagePrinter.gridLabel(value, step: step, positive: "E", negative: "W") == text)
    }
}
