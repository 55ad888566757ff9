import CSDL2
import CSystem
import FoundationEssentials
import Glibc
import Platform
import MapCore
import MapGeometry
import MapGraphics
import MapTiles

/// The window's frame loop (DESIGN.md "The frame"): drain input and tiles, have the session
/// compose at the predicted present time, composite, present on vsync, then either go on or
/// sleep in SDL_WaitEvent until something happens. What the map is and does is the
/// session's (`MapSession`); the host runs the loop, the tile pipeline, and carries out the
/// session's effects. It names no kind of layer.
public final class MapHost {
    public let window: SDLWindow
    /// The map: camera, pins, layers, notices. Read on the frame thread; changed with
    /// `change` (from another thread, within `perform`): the one way in from outside, with
    /// one rule for drawing again.
    public internal(set) var session: MapSession
    /// The map's tile layers: where their tiles come from and how they are drawn (`setTiles`).
    public private(set) var stack: TileStack
    /// Where the chosen map's tiles come from.
    public var source: TileSource { stack.source }
    public internal(set) var stats = FrameStats()
    public let clock: VsyncClock
    public let configuration: HostConfiguration
    /// Called once, right after the first frame is on screen.
    public var onFirstPresent: (() -> Void)?
    /// After every present: what the bench times a fix's way to the screen by.
    public var onPresented: (() -> Void)?
    /// Called once, after the first frame with every visible tile and label drawn and the ring
    /// of tiles around the view in (their places label the edges).
    public var onFullyDrawn: (() -> Void)?
    /// Called each time the loop goes to sleep: nothing moves and nothing is left to draw
    /// until an event (MapLibre's "map became idle"); on the frame thread.
    public var onIdle: (() -> Void)?
    /// Drives the camera instead of the user (benchmarks); returns nil when the script is over.
    public var script: ((Double) -> Camera?)?
    /// Messages a person should see (failed tiles…), also printed to stderr.
    public var onMessage: (String) -> Void = { FileIO.printError($0) }
    /// The session's effects the host does not carry out itself (files, maps, links, pins'
    /// news), on the frame thread, in order.
    public var onEffect: (SessionEffect) -> Void = { _ in }
    /// Loads in progress whose results the picture waits for: the window does not call itself
    /// fully drawn while any is pending (the embedder counts them).
    public var pendingLoads = 0

    /// How long before its slot a frame in motion starts: most frames' build time with room
    /// to spare (a frame not ready misses its slot where presents wait for vsync; where the
    /// loop paces itself a tighter margin measured no better: wake-ups come late by a
    /// timer's slack), and never more than most of a period.
    var latchMargin: Double {
        let p = clock.period
        guard recentBuilds.count >= 10 else { return p }
        let p90 = recentBuilds.sorted()[recentBuilds.count * 9 / 10]
        return min(max(p90 * 1.25 + 0.0015, 0.003), p * 0.8)
    }
    /// Wall seconds recent frames took from their start to their present.
    var recentBuilds: [Double] = []
    /// The frame thread's CPU per frame that texture uploads after the present may fill up
    /// to: a cheap frame uploads many, a busy one fewer, so a burst of tiles never pushes a
    /// frame past its vsync.
    public var frameBudget = 0.003
    /// However busy the frame, uploads may take this much CPU: a frame that alone costs the
    /// budget (the software compositor draws 1920×1080 in ~3 ms) must still bring in more than
    /// one label per frame, or a screen of them trickles in over seconds.
    public var uploadAllowance = 0.0005
    /// Nor do uploads go on longer than this after the present, in wall time.
    public var uploadWindow = 0.004
    /// How long a still map may take in arrived pictures after a present.
    public var stillUploadWindow = 0.03
    /// How often a still map shows pictures as they arrive (`run`).
    public var settleInterval = 0.08

    var pipeline: RenderPipeline
    var store: TextureStore { pipeline.store }
    var sprites: SpriteStore { pipeline.sprites }
    var loader: TileLoader { pipeline.loader }
    let wakeType: UInt32
    let wake: WakeSignal
    var pixelRatio: Double
    var hidden = false
    var quitting = false
    private var closed = false
    var firstPresentDone = false
    var fullyDrawnDone = false
    /// The camera of the last frame drawn: a frame with another one moves the map.
    var lastCamera: Camera?
    /// When the camera last changed between frames (monotonic seconds).
    var lastMove = -Double.infinity
    /// A frame this long after the camera last changed is a rest's: drawn filtered, whole.
    static let restsAfter = 0.15
    /// When the zoom, changed last frame, counts as settled if it stays (`MonotonicClock`).
    var zoomSettles: Double?
    /// What drew the last frame, for MERIDIAN_FRAME_LOG (said when it changes).
    var lastRendererName = ""
    /// The user has been told that the X server's drawing failed.
    var toldServerFailure = false
    /// The X server drew a frame since the loop last waited for it.
    var serverDrawnSinceSync = false
    /// Guards the inbox, which other threads post to; signalled when work is posted.
    private let posted = Condition()
    /// Work posted from other threads, run on the frame thread before the next frame.
    private var inbox: [@Sendable (MapHost) -> Void] = []
    var textInputOn = false
    /// The session was changed from outside (`change`) since the loop last looked.
    var changed = false
    /// For an app that runs its own loop (`MapHost+OwnLoop.swift`): whether the map wants a
    /// frame, whether it has said it rests, and the translator of its events.
    var wantsFrame = true
    var saidResting = false
    lazy var ownLoopTranslator = EventTranslator(wakeEventType: wakeType)
    /// Reasons tiles failed for that were said already (`tell(tileFailure:)`).
    var toldFailures = Set<String>()
    /// Tiles taken in since memory was last trimmed (before an idle wait).
    var tilesSinceTrim = 0
    /// Since when the frames' view has lain wholly on the map's own tiles (the frame clock);
    /// nil when the last frame's did not.
    var coveredSince: Double?
    /// The last frame drew some of the map's tiles (its own or stand-ins): until then, each
    /// tile is shown as it comes.
    var mapOnScreen = false
    /// When memory was last looked after while drawing without rest (`upkeep`).
    var lastUpkeep = 0.0
    static let upkeepInterval = 6.0
    /// Sprites drawn since the stores last let go of the rest (tiles: `RenderPipeline.use`).
    var spritesInUse = Set<SpriteKey>()
    /// Frames drawn since the stores last let go of what was not in use.
    var framesSinceKeep = 0
    /// When the last memory line was written (MERIDIAN_MEMORY_LOG), by the frame clock.
    var lastMemoryLine = -Double.infinity

    /// Shows `session` (its camera fitted to the window) with the tile layers of `stack`
    /// (whose settings the session's scene has: `Scene.showTiles(from:)`).
    public init(window: SDLWindow, session: MapSession, stack: TileStack, configuration: HostConfiguration = HostConfiguration()) throws {
        self.window = window
        self.stack = stack
        self.configuration = configuration
        self.session = session
        clock = VsyncClock(refreshRateHint: window.refreshRateHint)
        pixelRatio = window.pixelRatio
        self.session.resize(to: window.size, pixelRatio: pixelRatio)
        // Labels come and go by fading, as the window animates (MapLibre's 200–300 ms); not
        // on a clock held still (MERIDIAN_FIXED_TIME), where a fade would never end.
        self.session.scene.labelFadeSeconds = configuration.fixedTime == nil ? 0.2 : 0
        let type = SDL_RegisterEvents(1)
        guard type != UInt32.max else { throw SDLError("SDL_RegisterEvents") }
        wakeType = type
        wake = WakeSignal(eventType: type)
        // SDL starts with text input on; it is wanted only while text is typed.
        SDL_StopTextInput()
        pipeline = Self.makePipeline(window, stack, pixelRatio, session.tileOverlays, wake)
        pipeline.rasterizer.start()
    }

    /// Shows the tile layers of `stack` from now on. The pictures of the old layers go; the
    /// view, what layers draw and the sprites stay.
    public func setTiles(_ stack: TileStack) {
        self.stack = stack
        session.scene.showTiles(from: stack)
        pipeline.stop()
        pipeline = Self.makePipeline(window, stack, pixelRatio, session.tileOverlays, wake)
        pipeline.rasterizer.start()
        setDrawn(false)
    }

    deinit { close() }

    /// Ends the host's work once the loop is over: no worker may wake the window from now on
    /// (SDL would send an X event to a window that SDL_Quit is about to destroy, a fatal X
    /// error), and the workers stop. Called by the embedder before SDL goes, since closures
    /// it set may keep the host itself alive; again by deinit, which then does nothing.
    public func close() {
        guard !closed else { return }
        closed = true
        wake.close()
        pipeline.stop()
        // Tiles fetched but still being decoded are cached only once decoded: let them finish
        // (briefly), so what was downloaded is not downloaded again next time.
        _ = pipeline.loader.waitUntilIdle(deadline: MonotonicClock.now + 1)
    }

    public var camera: Camera { session.camera }

    /// Whether the last frame showed everything asked for (`MapHost+Drawn.swift`).
    let drawnCondition = Condition()
    var drawnFlag = false

    /// Long work under way, shown at the bottom of the window; Esc cancels it.
    public private(set) lazy var activities = ActivityBoard(wake: { [wake] in wake.signal() })

    /// Shows `message` at the top of the window until the user clicks it away (and prints it).
    /// May be called from any thread.
    public func showNotice(_ message: String) {
        perform { $0.session.post(notice: message) }
    }

    /// Changes the map, on the frame thread (an effect's handler, a host callback, the work
    /// of `perform`), and has the next frame show it. Returns what `body` returns.
    @discardableResult
    public func change<R>(_ body: (inout MapSession) throws -> R) rethrows -> R {
        defer { changed = true }
        return try body(&session)
    }

    /// Whether the session was changed from outside since last asked (`change`).
    func takeChanged() -> Bool {
        defer { changed = false }
        return changed
    }

    /// Runs `body` on the frame thread before the next frame (waking an idle loop). May be
    /// called from any thread: how workers hand results to the map.
    public func perform(_ body: @escaping @Sendable (MapHost) -> Void) {
        posted.lock()
        inbox.append(body)
        posted.broadcast()
        posted.unlock()
        wake.signal()
    }

    var hasInbox: Bool {
        posted.lock(); defer { posted.unlock() }
        return !inbox.isEmpty
    }

    /// Sleeps until `deadline` (`MonotonicClock` seconds), or until work is posted: what a
    /// worker hands over (a file read) waits for no frame's latch.
    func sleepUnlessPosted(until deadline: Double) {
        posted.lock(); defer { posted.unlock() }
        while inbox.isEmpty, posted.wait(until: deadline) {}
    }

    func runInbox() -> Bool {
        posted.lock()
        let work = inbox
        inbox.removeAll()
        posted.unlock()
        for body in work { body(self) }
        return !work.isEmpty
    }

    /// Takes one event of the position source named `source` (on the frame thread).
    public func receive(_ event: PositionEvent, from source: String) {
        session.receive(event, from: source, at: clock.now)
    }

    /// Shows `rect` (what was just opened): a flight there, or a jump when `animated` is false.
    public func show(_ rect: MapRect, animated: Bool) {
        session.show(rect, animated: animated, at: clock.now)
    }

    /// Runs until the user quits (or the script ends). `drawFirst`: draw a frame before
    /// waiting for anything (false when re-entering a loop whose picture is already shown).
    public func run(drawFirst: Bool = true) {
        let translator = EventTranslator(wakeEventType: wakeType)
        var event = SDL_Event()
        var needsFrame = drawFirst
        /// While nothing moves and pictures are still being made, the next frame waits until
        /// then: what arrives meanwhile shows in one frame, not one frame per tile. (Each
        /// software frame costs the CPU the tile workers need to finish sooner.)
        var settleUntil: Double?
        /// Tiles in view were on their way when the wait began.
        var settlingView = false
        var latchUntil: Double?
        quitting = false
        while !quitting {
            // The frame's cost is this thread's CPU for the whole iteration, from the moment
            // it wakes: events, drain, compose, execute, present and the uploads after it.
            if !needsFrame, !hidden, serverDrawnSinceSync {
                // Before sleeping: the server has drawn the frames sent, or refused them (out of
                // memory), and then the app draws the frame at once rather than leaving it wrong
                // until the next event.
                serverDrawnSinceSync = false
                if window.serverFrame?.sync() == false { needsFrame = true }
            }
            var cpuStart = MonotonicClock.threadCPU
            if !needsFrame, !hidden, activities.isBusy {
                // Long work under way: its progress is drawn again every quarter of a second.
                if SDL_WaitEventTimeout(&event, 250) != 0 { needsFrame = process(&event, translator) || needsFrame }
                cpuStart = MonotonicClock.threadCPU
                needsFrame = true
            } else if !hidden, !needsFrame, let wake = nextWake {
                // Tiles that failed are asked for again when their wait is over (a minute at
                // most): the network may be back. A live position turns grey on time.
                let wait = Int32(clamping: Int(saturating: max(0, wake - MonotonicClock.now) * 1000) + 1)
                if SDL_WaitEventTimeout(&event, wait) != 0 { needsFrame = process(&event, translator) || needsFrame } else { needsFrame = true }
                cpuStart = MonotonicClock.threadCPU
            } else if !needsFrame || hidden {
                // Idle means idle: no frames and no wake-ups until something happens. Tiles
                // come in bursts, each picture a quarter MiB from a worker's heap: what the
                // burst freed goes back to the system before the wait.
                // The map's own tiles covered the view: the fallback under them is out of sight,
                // and at rest (not between the notches of a zoom that crosses its edge) it goes.
                // What left the view a while ago goes too (not what the last gesture just
                // left: a zoom back finds its tiles and labels).
                upkeep(at: clock.now, idle: true, resting: true)
                if configuration.logFrames { FileIO.printError(String(cFormat: "idle %.4f", clock.now)) }
                if !hidden { onIdle?() }
                if configuration.logMemory { FileIO.printError(memoryLine) }
                guard SDL_WaitEvent(&event) != 0 else { continue }
                cpuStart = MonotonicClock.threadCPU
                needsFrame = process(&event, translator) || needsFrame
            } else if let latch = latchUntil {
                // In motion: the next frame starts as late as it safely can, so that what
                // arrives meanwhile (a fix, the pointer) shows at the next vsync, not the one after.
                latchUntil = nil
                // It sleeps until then rather than waking for each event: what came meanwhile
                // is taken in below, all at once, in the same frame it would have been in. (A
                // wake-up and SDL's pumps per event cost a drag a sixth of its CPU.) SDL stamps
                // events when pumped, so a flick's speed is measured on frame times: over the
                // 100 ms it is measured across, within a frame's worth.
                let wait = latch - clock.now
                if wait > 0.0005 { sleepUnlessPosted(until: MonotonicClock.now + min(wait, 0.1)) }
                cpuStart = MonotonicClock.threadCPU
            } else if let until = settleUntil {
                let wait = Int32(clamping: Int(saturating: max(0, until - clock.now) * 1000))
                if wait > 0, SDL_WaitEventTimeout(&event, wait) != 0 {
                    cpuStart = MonotonicClock.threadCPU
                    // Anything but more pictures arriving ends the wait.
                    if process(&event, translator), event.type != wakeType { settleUntil = nil }
                    // Pictures are taken in together, but tiles in view do not wait for the ring
                    // around it: once every one of them is in, the frame is drawn (the map's
                    // first picture came 80 ms late, behind its ring). The ring's own pictures
                    // are still taken in together.
                    let loading = settlingView ? pipeline.isLoadingInView : pipeline.isLoading
                    if settleUntil != nil, clock.now < until, !hasInbox, loading || pipeline.rasterizer.isBusy { continue }
                }
                settleUntil = nil
                if settlingView, !pipeline.isLoadingInView { takeInTilesNow() }
            }
            if !mapOnScreen, pipeline.hasTileResults { takeInTilesNow() }
            // One pump, then the queue: SDL_PollEvent would ask the X server again per event.
            SDL_PumpEvents()
            while SDL_PeepEvents(&event, 1, SDL_GETEVENT, SDL_FIRSTEVENT.rawValue, SDL_LASTEVENT.rawValue) > 0 {
                needsFrame = process(&event, translator) || needsFrame
            }
            needsFrame = runInbox() || needsFrame
            needsFrame = carryOut(session.takeEffects()) || needsFrame
            needsFrame = takeChanged() || needsFrame
            if quitting { break }
            hidden = window.isHiddenOrMinimized
            if hidden || !needsFrame { continue }
            let (t, spritesMade, animating) = frame(cpuStart: cpuStart)
            // What the frame brought about (a notice of a stale position, a hint shown).
            _ = carryOut(session.takeEffects())
            // Frames go on only while something moves on screen; otherwise the loop sleeps.
            let moves = session.isAnimating(at: t) || script != nil || animating
            needsFrame = moves || pipeline.hasTileResults || pipeline.rasterizer.hasResults || spritesMade > 0 || takeChanged()
            let making = pipeline.isLoading || pipeline.rasterizer.isBusy
            // A map not on screen yet shows each tile as it comes: the first picture at once.
            settleUntil = needsFrame && !moves && making && mapOnScreen ? clock.now + settleInterval : nil
            settlingView = settleUntil != nil && pipeline.isLoadingInView
            latchUntil = moves && configuration.lateLatch ? clock.latchTime(margin: latchMargin) : nil
        }
        // A pin on its way down lands; one in the air goes back. Then the embedder hears of it.
        session.finish(at: clock.now)
        _ = carryOut(session.takeEffects())
        if configuration.logFrames {
            FileIO.printError(String(cFormat: "quit %.4f cache-hits %d cache-fills %d on-window %d scrolled %d", clock.now,
                                              pipeline.drawer.cacheHits, pipeline.drawer.cacheFills, pipeline.drawer.framesOnWindow,
                                              pipeline.drawer.scrolledFrames))
        }
    }

    public func requestQuit() { quitting = true }

    /// Handles one SDL event; true when the picture may have changed.
    private func process(_ event: inout SDL_Event, _ translator: EventTranslator) -> Bool {
        take(&event, translator).changed
    }

    /// Handles one SDL event: whether the picture may have changed, and whether the event was
    /// the map's at all (input to its window, a change of it, its wake-up).
    func take(_ event: inout SDL_Event, _ translator: EventTranslator) -> (changed: Bool, taken: Bool) {
        let (input, change) = translator.translate(&event)
        var changed = false
        switch change {
        case .wake?: wake.clear(); changed = true
        case .resized?: resized(); changed = true
        case .hidden?: hidden = true
        case .shown?, .exposed?:
            hidden = false
            changed = true
            // What the server shows may be gone: the next frame presents all of it.
            pipeline.drawer.invalidate()
        case nil: break
        }
        guard let input else { return (changed, change != nil) }
        let t = clock.eventTime(sdlTicks: event.common.timestamp)
        return (carryOut(session.handle(input, at: t)) || changed, true)
    }

    private func resized() {
        let ratio = window.pixelRatio
        session.resize(to: window.size, pixelRatio: ratio)
        if abs(ratio - pixelRatio) > 0.01 {
            // A new density needs tiles rasterized anew.
            pixelRatio = ratio
            pipeline.stop()
            pipeline = Self.makePipeline(window, stack, ratio, session.tileOverlays, wake)
        }
    }

    /// The window's pipeline at a pixel density; its workers wake the frame loop.
    private static func makePipeline(_ window: SDLWindow, _ stack: TileStack, _ pixelRatio: Double, _ overlays: TileOverlays,
                                     _ wake: WakeSignal) -> RenderPipeline {
        RenderPipeline(renderer: window.renderer, serverFrame: window.serverFrame, viewport: window.largestPixelSize, stack: stack,
                       pixelRatio: pixelRatio, overlays: overlays, wake: { [wake] in wake.signal() })
    }
}
