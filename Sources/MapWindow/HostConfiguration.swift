import FoundationEssentials
import Platform

/// How the window host runs, read once at start: the test and diagnosis hooks that come from
/// the environment, in one typed place rather than read here and there.
public struct HostConfiguration: Sendable {
    /// Frames in motion start late (`VsyncClock.latchTime`); off, right after the last
    /// present (MERIDIAN_NO_LATE_LATCH).
    public var lateLatch = true
    /// One line per present on stderr ("present SECONDS"), one with the frame's cost
    /// ("frame-cpu SECONDS"; with MERIDIAN_FRAME_LOG=phases, its parts too), "idle SECONDS" each time the loop comes to rest (sleeps until an event), and one
    /// per pin event, so tests see when the loop draws and when it sleeps (MERIDIAN_FRAME_LOG).
    public var logFrames = false
    /// The frame-cpu line names the frame's parts (MERIDIAN_FRAME_LOG=phases): five times
    /// longer, for diagnosis, not for tests that read the log only at the end.
    public var logFramePhases = false
    /// One line each time the loop comes to rest (and every 10 s while it draws) with what the tile and sprite stores hold
    /// ("memory tiles COUNT BYTES other-layers COUNT BYTES sprites COUNT BYTES"), for the memory
    /// account and the soak run (MERIDIAN_MEMORY_LOG).
    public var logMemory = false
    /// Every frame composed at this time (MERIDIAN_FIXED_TIME).
    public var fixedTime: Double?
    /// Where the draw list of the last frame drawn whole is written, so a test can compare
    /// the window's list with `render --drawlist-out` for the same state, or find where a
    /// button is (MERIDIAN_DRAWLIST_OUT).
    public var drawListOut: String?

    public init() {}

    /// The configuration the environment `env` asks for.
    public init(environment env: [String: String]) {
        lateLatch = env["MERIDIAN_NO_LATE_LATCH"] == nil
        logFrames = env["MERIDIAN_FRAME_LOG"] != nil
        logFramePhases = env["MERIDIAN_FRAME_LOG"] == "phases"
        logMemory = env["MERIDIAN_MEMORY_LOG"] != nil
        fixedTime = env["MERIDIAN_FIXED_TIME"].flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil }
        drawListOut = env["MERIDIAN_DRAWLIST_OUT"]
    }

    /// This process's.
    public static let current = HostConfiguration(environment: ProcessInfo.processInfo.environment)
}
