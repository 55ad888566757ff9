import CSDL2
import MapCore
import Platform

/// The frame loop driven by an app that runs its own (MapLibre's run loop the embedder
/// drives): the app waits for SDL events itself, keeps those that are its own, hands the
/// rest to the map (`handle`), and gives the map a turn (`update`), which draws a frame when
/// the picture changed and says how long the app may wait before the next turn.
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
        let (changed, taken) = take(&event, ownLoopTranslator)
        wantsFrame = wantsFrame || changed
        return taken
    }

    /// The map's turn: takes in what its workers finished, draws a frame if the picture
    /// changed, and returns how long (seconds) the app may wait for events before the next
    /// turn: 0 while the map moves (each turn's frame waits for vsync where the renderer
    /// does), a while when a tile is due again, nil when nothing will change until an event.
    public func update() -> Double? {
        // A tile due again, a position going stale, a zoom settling: `run` draws then too.
        if let due = nextWake, due <= MonotonicClock.now { wantsFrame = true }
        wantsFrame = runInbox() || wantsFrame
        wantsFrame = carryOut(session.takeEffects()) || wantsFrame
        wantsFrame = takeChanged() || wantsFrame
        hidden = window.isHiddenOrMinimized
        if !hidden, wantsFrame {
            saidResting = false
            let (t, spritesMade, animating) = frame(cpuStart: MonotonicClock.threadCPU)
            _ = carryOut(session.takeEffects())
            let moves = session.isAnimating(at: t) || script != nil || animating
            wantsFrame = moves || pipeline.hasTileResults || pipeline.rasterizer.hasResults || spritesMade > 0 || takeChanged()
            // In motion, the next frame starts as late as it safely can (`run` does the same).
            if moves { return configuration.lateLatch ? clock.latchTime(margin: latchMargin).map { max(0, $0 - clock.now) } ?? 0 : 0 }
            if wantsFrame { return pipeline.isLoading || pipeline.rasterizer.isBusy ? settleInterval : 0 }
        }
        // Hidden, nothing is drawn until the window shows again (an event `handle` takes).
        if hidden { return nil }
        if wantsFrame { return 0 }
        if serverDrawnSinceSync {
            serverDrawnSinceSync = false
            if window.serverFrame?.sync() == false { wantsFrame = true; return 0 }
        }
        if !saidResting {
            saidResting = true
            upkeep(at: clock.now, idle: true, resting: true)
            onIdle?()
        }
        // Long work under way shows its progress every quarter of a second, as in `run`.
        let progress = activities.isBusy ? 0.25 : nil
        return [nextWake.map { max(0, $0 - MonotonicClock.now) }, progress].compactMap { $0 }.min()
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
