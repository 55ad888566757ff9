import CSDL2
import CSystem
import FoundationEssentials
import Glibc
import Platform
import MapCore
import MapGeometry
import MapGraphics
import MapRender
import MapTiles

/// The window's frame loop (DESIGN.md "The frame"): drain input and tiles, have the session
/// compose at the predicted present time, composite, present on vsync, then either go on or
/// sleep in SDL_WaitEvent until something happens. What the map is and does is the
/// session's (`MapSession`); the host runs the loop, the tile pipeline, and carries out the
/// session's effects. It names no kind of layer. When to draw is `FrameSchedule`'s: one
/// policy for the host's own loop (`run`) and an app's (`handle`, `update`).
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
    /// Called each time the map comes to rest: nothing moves, nothing is left to draw and
    /// nothing is due until an event (MapLibre's "map became idle"); on the frame thread.
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
    /// How much of a frame's slack the uploads after its present may take.
    public var uploads = UploadBudget()

    var pipeline: RenderPipeline
    var store: TextureStore { pipeline.store }
    var sprites: SpriteStore { pipeline.sprites }
    var loader: TileLoader { pipeline.loader }
    let wake: WakeSignal
    var pixelRatio: Double
    var hidden = false
    var quitting = false
    private var closed = false
    /// When to draw: one policy for `run` and `update`.
    var schedule = FrameSchedule()
    /// Work posted from other threads, run on the frame thread before the next frame.
    let posted = PostedWork()
    /// Turns SDL events into the map's input; one for the window's life (it remembers the
    /// keys held when the window took the focus).
    let translator: EventTranslator
    /// Whether the camera moves, and when a changed zoom has settled.
    var motion = CameraMotion()
    var builds = BuildTimes()
    var upkeep = StoreUpkeep()
    var frameLog: FrameLog
    var milestones = Milestones()
    var said = SaidOnce()
    /// The last frame drew some of the map's tiles (its own or stand-ins): until then, each
    /// tile is shown as it comes.
    var mapOnScreen = false
    /// The X server drew a frame since the loop last waited for it.
    var serverDrawnSinceSync = false
    var textInputOn = false
    var keysBeforeTyping = KeysBeforeTyping()

    /// Shows `session` (its camera fitted to the window) with the tile layers of `stack`
    /// (whose settings the session's scene has: `Scene.showTiles(from:)`).
    public init(window: SDLWindow, session: MapSession, stack: TileStack, configuration: HostConfiguration = HostConfiguration()) throws {
        self.window = window
        self.stack = stack
        self.configuration = configuration
        self.session = session
        clock = VsyncClock(refreshRateHint: window.refreshRateHint)
        frameLog = FrameLog(configuration)
        pixelRatio = window.pixelRatio
        self.session.resize(to: window.size, pixelRatio: pixelRatio)
        // Labels come and go by fading, as the window animates (MapLibre's 200–300 ms); not
        // on a clock held still (MERIDIAN_FIXED_TIME), where a fade would never end.
        self.session.scene.labelFadeSeconds = configuration.fixedTime == nil ? LabelsLayer.windowFadeSeconds : 0
        let type = SDL_RegisterEvents(1)
        guard type != UInt32.max else { throw SDLError("SDL_RegisterEvents") }
        wake = WakeSignal(eventType: type)
        translator = EventTranslator(wakeEventType: type)
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
    let drawn = DrawnSignal()

    /// Long work under way, shown at the bottom of the window; Esc cancels it.
    public private(set) lazy var activities = ActivityBoard(wake: { [wake] in wake.signal() })

    /// Shows `message` at the top of the window until the user clicks it away (and prints it).
    /// May be called from any thread.
    public func showNotice(_ message: String) { handle.showNotice(message) }

    /// Changes the map, on the frame thread (an effect's handler, a host callback, the work
    /// of `perform`), and has the next frame show it. Returns what `body` returns.
    @discardableResult
    public func change<R>(_ body: (inout MapSession) throws -> R) rethrows -> R {
        defer { schedule.wantFrame() }
        return try body(&session)
    }

    /// Runs `body` on the frame thread before the next frame (waking an idle loop). May be
    /// called from any thread: how workers hand results to the map.
    public func perform(_ body: @escaping @Sendable (MapHost) -> Void) { handle.perform(body) }

    /// What other threads keep of the host: `perform` and `showNotice`.
    public var handle: MapHostHandle { MapHostHandle(posted: posted, wake: wake, drawn: drawn) }

    /// Runs the work posted so far; whether there was any.
    func runPosted() -> Bool {
        let work = posted.take()
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

    public func requestQuit() { quitting = true }

    /// Handles one SDL event: whether the picture may have changed, whether it was a worker's
    /// wake-up (pictures ready, work posted), and whether the event was the map's at all
    /// (input to its window, a change of it, its wake-up).
    func take(_ event: inout SDL_Event) -> (changed: Bool, woken: Bool, taken: Bool) {
        let (input, change) = translator.translate(&event)
        var changed = false
        switch change {
        case .wake?:
            wake.clear()
            return (false, true, true)
        case .resized?: resized(); changed = true
        case .hidden?: hidden = true
        case .shown?, .exposed?:
            hidden = false
            changed = true
            // What the server shows may be gone: the next frame presents all of it.
            pipeline.drawer.invalidate()
        case nil: break
        }
        guard let input else { return (changed, false, change != nil) }
        let t = clock.eventTime(sdlTicks: event.common.timestamp)
        changed = carryOut(session.handle(input, at: t)) || changed
        if let text = keysBeforeTyping.text(of: event), session.wantsText { changed = carryOut(session.handle(.text(text), at: t)) || changed }
        return (changed, false, true)
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
        RenderPipeline(device: window.renderer, serverFrame: window.serverFrame, viewport: window.largestPixelSize, stack: stack,
                       pixelRatio: pixelRatio, overlays: overlays, wake: { [wake] in wake.signal() })
    }
}
