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
    /// change of the window, the map's own wake-up), false for one the map has no use for.
    @discardableResult
    public func handle(_ event: inout SDL_Event) -> Bool {
        let (changed, taken) = take(&event, ownLoopTranslator)
        wantsFrame = wantsFrame || changed
        return taken
    }

    /// The map's turn: takes in what its workers finished, draws a frame if the picture
    /// changed, and returns how long (seconds) the app may wait for events before the next
    /// turn: 0 while the map moves (each turn's frame waits for vsync where the renderer
    /// does), a while when a tile is due again, nil when nothing will change until an event.
    public func update() -> Double? {
        wantsFrame = runInbox() || wantsFrame
        wantsFrame = carryOut(session.takeEffects()) || wantsFrame
        wantsFrame = takeChanged() || wantsFrame
        hidden = window.isHiddenOrMinimized
        if !hidden, wantsFrame {
            saidResting = false
            let (t, spritesMade, animating) = frame(cpuStart: MonotonicClock.threadCPU)
            _ = carryOut(session.takeEffects())
            let moves = session.isAnimating(at: t) || animating
            wantsFrame = moves || pipeline.hasTileResults || pipeline.rasterizer.hasResults || spritesMade > 0 || takeChanged()
            // In motion, the next frame starts as late as it safely can (`run` does the same).
            if moves { return configuration.lateLatch ? clock.latchTime(margin: latchMargin).map { max(0, $0 - clock.now) } ?? 0 : 0 }
            if wantsFrame { return pipeline.isLoading || pipeline.rasterizer.isBusy ? settleInterval : 0 }
        }
        if wantsFrame { return 0 }
        if !hidden, serverDrawnSinceSync {
            serverDrawnSinceSync = false
            if window.serverFrame?.sync() == false { wantsFrame = true; return 0 }
        }
        if !saidResting, !hidden {
            saidResting = true
            upkeep(at: clock.now, idle: true, resting: true)
            onIdle?()
        }
        return nextWake.map { max(0, $0 - MonotonicClock.now) }
    }

    /// Whether the map asked to end (its window closed, or a key bound to quit).
    public var wantsToQuit: Bool { quitting }
}
