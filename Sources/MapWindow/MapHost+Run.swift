import CSDL2
import FoundationEssentials
import MapCore
import Platform

/// The host's own loop: the calls an app that runs its own makes (`handle`, `update`), with
/// the waits the schedule asks for.
extension MapHost {
    /// Runs until the user quits (or the script ends). `drawFirst`: draw a frame before
    /// waiting for anything (false when re-entering a loop whose picture is already shown:
    /// a frame then only if one is due).
    public func run(drawFirst: Bool = true) {
        quitting = false
        if drawFirst { schedule.wantFrame() }
        var event = SDL_Event()
        // The frame's cost is this thread's CPU for the whole turn, from the moment it wakes:
        // events, drain, compose, execute, present and the uploads after it.
        var woke = MonotonicClock.threadCPU
        while !quitting {
            let decision = turn(since: woke)
            if quitting { break }
            var waited = false
            switch decision {
            case .draw:
                break
            case let .latch(until):
                // In motion: the loop sleeps until the next frame starts rather than waking for
                // each event: what came meanwhile is taken in below, all at once, in the same
                // frame it would have been in. (A wake-up and SDL's pumps per event cost a drag
                // a sixth of its CPU.) SDL stamps events when pumped, so a flick's speed is
                // measured on frame times: over the 100 ms it is measured across, within a
                // frame's worth. Work posted meanwhile (a file read) is run at once; what it changes
                // shows in that frame.
                posted.sleep(until: MonotonicClock.now + min(max(0, until - clock.now), 0.1))
            case let .settle(until), let .wait(until):
                // Pictures held back for a moment, or something due by itself (a tile asked for
                // again when its wait is over: the network may be back; a live position turning
                // grey on time). An event comes first, or the time.
                waited = SDL_WaitEventTimeout(&event, Self.milliseconds(until - clock.now)) != 0
            case .sleep:
                // Idle means idle: no frames and no wake-ups until something happens.
                waited = SDL_WaitEvent(&event) != 0
            }
            woke = MonotonicClock.threadCPU
            if waited { handle(&event) }
            // One pump, then the queue: SDL_PollEvent would ask the X server again per event.
            SDL_PumpEvents()
            while SDL_PeepEvents(&event, 1, SDL_GETEVENT, SDL_FIRSTEVENT.rawValue, SDL_LASTEVENT.rawValue) > 0 {
                handle(&event)
            }
        }
        // A pin on its way down lands; one in the air goes back. Then the embedder hears of it.
        finish()
        let d = pipeline.drawer
        frameLog.quit(at: clock.now, cacheHits: d.cacheHits, cacheFills: d.cacheFills, onWindow: d.framesOnWindow, scrolled: d.scrolledFrames)
    }

    /// `seconds` as SDL's wait takes it: whole milliseconds, rounded up (a wake-up a little
    /// early would find nothing due yet).
    static func milliseconds(_ seconds: Double) -> Int32 {
        Int32(clamping: Int(saturating: (max(0, seconds) * 1000).rounded(.up)))
    }
}
