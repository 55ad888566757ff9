import Platform

/// How long recent frames took from their start to their present (wall seconds): how early a
/// frame in motion must start to be ready for its slot.
struct BuildTimes {
    private(set) var recent: [Double] = []

    mutating func record(_ seconds: Double) {
        recent.append(seconds)
        if recent.count > 30 { recent.removeFirst() }
    }

    /// How long before its slot a frame in motion starts, for presents `period` apart: most
    /// frames' build time with room to spare (a frame not ready misses its slot where presents
    /// wait for vsync; where the loop paces itself a tighter margin measured no better:
    /// wake-ups come late by a timer's slack), and never more than most of a period.
    func latchMargin(period p: Double) -> Double {
        guard recent.count >= 10 else { return p }
        let p90 = recent.sorted()[recent.count * 9 / 10]
        return min(max(p90 * 1.25 + 0.0015, 0.003), p * 0.8)
    }
}
