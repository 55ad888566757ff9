import FoundationEssentials
import Platform

/// The parts of a frame's CPU: until the frame starts (events, inbox), composing the scene,
/// drawing it, presenting it, and taking in pictures after the present.
public enum FramePhase: String, CaseIterable, Sendable {
    case events, compose, draw, present, uploads
}

/// What the frame loop measured, in bounded memory: the last `capacity` frames' costs and
/// present intervals (a ring), plus running counts. A pulse left on screen all day keeps
/// the newest window of samples, never a growing list.
public struct FrameStats: Sendable {
    /// Samples kept per series; at 60 Hz about two minutes.
    public static let capacity = 8192

    /// The frame thread's CPU seconds for each whole loop iteration: events, drain, compose,
    /// execute, present, uploads and sprite rasterization after the present.
    public private(set) var frameCPU = Ring(capacity: capacity)
    /// Wall seconds from the start of an iteration to the call of SDL_RenderPresent (the part
    /// the frame thread controls before it waits on vsync).
    public private(set) var buildTimes = Ring(capacity: capacity)
    /// Where the frame thread's CPU went in each frame (the parts of `frameCPU`).
    public private(set) var phases = [FramePhase: Ring]()
    /// Seconds between consecutive presents.
    public private(set) var presentIntervals = Ring(capacity: capacity)
    public private(set) var presents = 0
    private var lastPresent: Double?

    public init() {}

    mutating func record(cpu: Double, build: Double, presentedAt t: Double, phases parts: [FramePhase: Double] = [:]) {
        frameCPU.append(cpu)
        for (phase, seconds) in parts { phases[phase, default: Ring(capacity: Self.capacity)].append(seconds) }
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
        let i = min(s.count - 1, max(0, Int(saturating: (p / 100 * Double(s.count - 1)).rounded())))
        return s[i]
    }

    /// A fixed-size window of the newest samples.
    public struct Ring: Sendable {
        private var storage: [Double] = []
        private var next = 0
        public let capacity: Int

        init(capacity: Int) { self.capacity = capacity }

        mutating func append(_ v: Double) {
            if storage.count < capacity { storage.append(v) } else { storage[next] = v }
            next = (next + 1) % capacity
        }

        public var count: Int { storage.count }
        public func percentile(_ p: Double) -> Double { FrameStats.percentile(storage, p) }
        public var max: Double { storage.max() ?? .nan }
        public func count(above limit: Double) -> Int { storage.filter { $0 > limit }.count }
    }
}
