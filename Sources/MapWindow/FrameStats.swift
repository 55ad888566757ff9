import Foundation

/// What the frame loop measured: how long frames took to build and how far apart they were shown.
public struct FrameStats: Sendable {
    public var buildTimes: [Double] = []
    public var presentIntervals: [Double] = []
    public var presents = 0
    private var lastPresent: Double?

    public init() {}

    mutating func record(build: Double, presentedAt t: Double) {
        buildTimes.append(build)
        if let last = lastPresent { presentIntervals.append(t - last) }
        lastPresent = t
        presents += 1
    }

    /// Starts a new measurement window (so intervals after an idle gap are not counted).
    public mutating func reset() { self = FrameStats() }

    public static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let s = values.sorted()
        let i = min(s.count - 1, max(0, Int((p / 100 * Double(s.count - 1)).rounded())))
        return s[i]
    }
}
