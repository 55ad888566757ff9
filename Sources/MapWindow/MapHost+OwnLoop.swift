import CSDL2
import MapCore
import Platform

/// The frame loop's two calls, which the host's own loop (`run`) makes as an app that runs
/// its own does (MapLibre's run loop the embedder drives): the app waits for SDL events
/// itself, keeps those that are its own, hands the rest to the map (`handle`), and gives the
/// map a turn (`update`), which draws a frame when one is due (`FrameSchedule`) and says how
/// long the app may wait before the next turn.
///
/// ```swift
/// var event = SDL_Event()
/// while running {
///     let wait = host.update()
///     if SDL_WaitEventTimeout(&event, wait.map { Int32(saturating: $0 * 1000) } ?? -1) != 0 {
///         if isMine(event) { … } else { _ = host.handle(&event) }
///     }
/// }
/// ```
extension MapHost {
    /// Hands the map one SDL event; true when it was the map's (input to its window, a
    /// change of the window, the map's own wake-up), false for one the map has no use for
    /// (another window's among them).
    @discardableResult
    public func handle(_ event: inout SDL_Event) -> Bool {
        if let id = Self.windowID(of: event), id != SDL_GetWindowID(window.raw) { return false }
        let (changed, woken, taken) = take(&event)
        if changed { schedule.wantFrame() }
        if woken { schedule.woken() }
        return taken
    }

    /// The map's turn: takes in what its workers finished, draws a frame if one is due, and
    /// returns how long (seconds) the app may wait for events before the next turn: 0 when
    /// the next frame is due at once, until the next frame starts while the map moves or
    /// pictures arrive, a while when something comes due by itself (a tile asked for again, a
    /// position going stale), nil when nothing will change until an event.
    public func update() -> Double? {
        turn(since: MonotonicClock.threadCPU).seconds(from: clock.now)
    }

    /// A turn of the loop whose CPU began at `cpuStart` (when it woke): posted work and the
    /// session's effects are taken in, a frame is drawn if one is due; what to do next.
    func turn(since cpuStart: Double) -> FrameSchedule.Decision {
        if runPosted() { schedule.wantFrame() }
        if carryOut(session.takeEffects()) { schedule.wantFrame() }
        hidden = window.isHiddenOrMinimized
        // A map asked to end draws no more.
        if quitting { return .sleep }
        var decision = schedule.decide(situation)
        if case let .draw(takeInTiles) = decision {
            // A map not on screen yet shows each tile as it comes: the first picture at once.
            if takeInTiles || (!mapOnScreen && pipeline.hasTileResults) { takeInTilesNow() }
            decision = schedule.decide(drawFrame(cpuStart: cpuStart))
        }
        if decision.waitsForEvents, !hidden, serverDrawnSinceSync {
            // Before waiting: the server has drawn the frames sent, or refused them (out of
            // memory), and then the frame is drawn at once by the app rather than left wrong
            // until the next event.
            serverDrawnSinceSync = false
            if window.serverFrame?.sync() == false {
                schedule.wantFrame()
                return .draw(takeInTiles: false)
            }
        }
        if schedule.comesToRest(decision) { rest() }
        return decision
    }

    /// Draws a frame and tells the schedule what came of it; the situation after it.
    private func drawFrame(cpuStart: Double) -> FrameSchedule.Situation {
        schedule.frameBegins(at: clock.now)
        let (t, spritesMade, animating) = frame(cpuStart: cpuStart)
        // What the frame brought about (a notice of a stale position, a hint shown).
        _ = carryOut(session.takeEffects())
        // Frames go on only while something moves on screen; otherwise the loop sleeps.
        let moves = session.isAnimating(at: t) || script != nil || animating
        let more = pipeline.hasTileResults || pipeline.rasterizer.hasResults || spritesMade > 0
        let latch = moves && configuration.lateLatch ? clock.latchTime(margin: builds.latchMargin(period: clock.period)) : nil
        let after = situation
        schedule.frameDrawn(moving: moves, more: more, latch: latch, after: after)
        return after
    }

    /// The map comes to rest: nothing moves, nothing is due. Tiles come in bursts, each picture
    /// a quarter MiB from a worker's heap: what the burst freed goes back to the system. The
    /// map's own tiles covered the view: the fallback under them is out of sight, and at rest
    /// (not between the notches of a zoom that crosses its edge) it goes. What left the view a
    /// while ago goes too (not what the last gesture just left: a zoom back finds its tiles
    /// and labels).
    private func rest() {
        keepStores(at: clock.now, idle: true, resting: true)
        frameLog.rest(at: clock.now, held: memoryLine)
        if !hidden { onIdle?() }
    }

    /// The window an event is about, for those that name one.
    static func windowID(of e: SDL_Event) -> UInt32? {
        switch SDL_EventType(e.type) {
        case SDL_WINDOWEVENT: return e.window.windowID
        case SDL_KEYDOWN, SDL_KEYUP: return e.key.windowID
        case SDL_TEXTINPUT: return e.text.windowID
        case SDL_TEXTEDITING: return e.edit.windowID
        case SDL_MOUSEMOTION: return e.motion.windowID
        case SDL_MOUSEBUTTONDOWN, SDL_MOUSEBUTTONUP: return e.button.windowID
        case SDL_MOUSEWHEEL: return e.wheel.windowID
        case SDL_DROPFILE, SDL_DROPTEXT, SDL_DROPBEGIN, SDL_DROPCOMPLETE: return e.drop.windowID
        default: return nil
        }
    }

    /// Ends the pins' gestures as `run` does when it ends: a pin on its way down lands, one
    /// in the air goes back, and `onEffect` hears of it. For an app's own loop, before `close`.
    public func finish() {
        session.finish(at: clock.now)
        _ = carryOut(session.takeEffects())
    }

    /// Whether the map asked to end (its window closed, or a key bound to quit).
    public var wantsToQuit: Bool { quitting }
}

extension FrameSchedule.Decision {
    /// No frame is coming by itself: the loop waits for an event or a time.
    var waitsForEvents: Bool {
        switch self {
        case .wait, .sleep: return true
        case .draw, .latch, .settle: return false
        }
    }
}
