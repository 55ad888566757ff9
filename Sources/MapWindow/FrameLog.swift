import FoundationEssentials
import Platform

/// What the loop says on stderr for tests and diagnosis: when it presents, rests and quits,
/// what each frame cost and what drew it (MERIDIAN_FRAME_LOG), and what the stores hold
/// (MERIDIAN_MEMORY_LOG). Silent unless asked.
struct FrameLog {
    let frames: Bool
    let phases: Bool
    let memory: Bool
    /// What drew the last frame (said when it changes).
    private var rendererName = ""
    /// When the last memory line was written while drawing, by the frame clock.
    private var lastMemoryLine = -Double.infinity

    init(_ configuration: HostConfiguration) {
        frames = configuration.logFrames
        phases = configuration.logFramePhases
        memory = configuration.logMemory
    }

    /// The loop comes to rest at `t`: it sleeps until an event. `held`: what the stores hold.
    func rest(at t: Double, held: @autoclosure () -> String) {
        if frames { FileIO.printError(String(cFormat: "idle %.4f", t)) }
        if memory { FileIO.printError(held()) }
    }

    mutating func renderer(_ name: String) {
        guard frames, name != rendererName else { return }
        rendererName = name
        FileIO.printError("renderer \(name)")
    }

    func present(at t: Double) {
        if frames { FileIO.printError(String(cFormat: "present %.4f", t)) }
    }

    /// A frame's CPU: all of it, and its parts.
    func cost(_ total: Double, events: Double, compose: Double, draw: Double, present: Double, uploads: Double) {
        if phases {
            FileIO.printError(String(cFormat: "frame-cpu %.4f events %.4f compose %.4f draw %.4f present %.4f uploads %.4f", total,
                                     events, compose, draw, present, uploads))
        } else if frames {
            FileIO.printError(String(cFormat: "frame-cpu %.4f", total))
        }
    }

    /// A map that never rests (a pulse on screen) still says what it holds, every 10 s.
    mutating func drawing(at t: Double, held: @autoclosure () -> String) {
        guard memory, t - lastMemoryLine >= 10 else { return }
        lastMemoryLine = t
        FileIO.printError(held())
    }

    /// The loop ends at `t`; the compositor's counts ("quit … cache-hits 12 cache-fills 3
    /// on-window 40 scrolled 9").
    func quit(at t: Double, cacheHits: Int, cacheFills: Int, onWindow: Int, scrolled: Int) {
        guard frames else { return }
        FileIO.printError(String(cFormat: "quit %.4f cache-hits %d cache-fills %d on-window %d scrolled %d", t, cacheHits, cacheFills,
                                 onWindow, scrolled))
    }
}
