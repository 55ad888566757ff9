import CSDL2
import CSystem
import FoundationEssentials
import Glibc
import Platform
import MapCore
import MapGeometry
import MapGraphics
import MapTiles

/// The window's frame loop (DESIGN.md "The frame"): drain input and tiles, compose at the
/// predicted present time, composite, present on vsync, then either go on or sleep in
/// SDL_WaitEvent until something happens.
public final class MapHost {
    public let window: SDLWindow
    public var controller: MapController
    /// Where the map's tiles come from, and the plane under them (`setTiles`).
    public private(set) var source: TileSource
    public private(set) var under: UnderPlane?
    public private(set) var stats = FrameStats()
    public let clock: VsyncClock
    /// Called once, right after the first frame is on screen.
    public var onFirstPresent: (() -> Void)?
    private var closed = false
    /// Wall seconds recent frames took from their start to their present.
    private var recentBuilds: [Double] = []
    /// Frames in motion start late (`VsyncClock.latchTime`); off, they start right after
    /// the last present.
    public var lateLatch = ProcessInfo.processInfo.environment["MERIDIAN_NO_LATE_LATCH"] == nil

    /// How long before its slot a frame in motion starts: most frames' build time with room
    /// to spare (a frame not ready misses its slot where presents wait for vsync; where the
    /// loop paces itself a tighter margin measured no better: wake-ups come late by a
    /// timer's slack), and never more than most of a period.
    private var latchMargin: Double {
        let p = clock.period
        guard recentBuilds.count >= 10 else { return p }
        let p90 = recentBuilds.sorted()[recentBuilds.count * 9 / 10]
        return min(max(p90 * 1.25 + 0.0015, 0.003), p * 0.8)
    }
    /// After every present: what the bench times a fix's way to the screen by.
    public var onPresented: (() -> Void)?
    /// Called once, after the first frame with every visible tile and label drawn and the ring
    /// of tiles around the view in (their places label the edges).
    public var onFullyDrawn: (() -> Void)?
    private var fullyDrawnDone = false
    /// Drives the camera instead of the user (benchmarks); returns nil when the script is over.
    public var script: ((Double) -> Camera?)?
    /// Messages a person should see (failed tiles…), also printed to stderr.
    public var onMessage: (String) -> Void = { FileIO.printError("meridian: " + $0) }

    private var pipeline: RenderPipeline
    private var store: TextureStore { pipeline.store }
    private var sprites: SpriteStore { pipeline.sprites }
    private var loader: TileLoader { pipeline.loader }
    private let wakeType: UInt32
    private let wake: WakeSignal
    private var pixelRatio: Double
    private var hidden = false
    private var quitting = false
    private var firstPresentDone = false
    /// The camera of the last frame drawn: a frame with another one moves the map.
    private var lastCamera: Camera?
    /// With MERIDIAN_FRAME_LOG set, one line per present on stderr ("present SECONDS") and one
    /// with the frame's cost ("frame-cpu SECONDS", the frame thread's CPU for the iteration), and
    /// "idle SECONDS" each time it sleeps until an event, so tests see when it draws and sleeps.
    private let logPresents = ProcessInfo.processInfo.environment["MERIDIAN_FRAME_LOG"] != nil
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

    private var painter: VectorTilePainter
    /// The map the window shows: base settings and layers. Its camera and pins belong to the
    /// controller (input changes them) and its notice to `showNotice`; they are copied in
    /// for each frame, so every frame is composed from one complete state.
    public var state: Scene
    /// Test hooks: with MERIDIAN_FIXED_TIME every frame is composed at that time, and with
    /// MERIDIAN_DRAWLIST_OUT the first fully drawn frame's draw list is written there, so a
    /// test can compare the window's list with `render --drawlist-out` for the same state.
    private let fixedTime = ProcessInfo.processInfo.environment["MERIDIAN_FIXED_TIME"].flatMap(Double.init)
    private let drawListOut = ProcessInfo.processInfo.environment["MERIDIAN_DRAWLIST_OUT"]
    /// Every drag-state change, selection, addition, move, deletion and rename of a pin, on
    /// the frame thread, in order (MapKit's delegate calls, as one callback).
    public var onPinEvent: (PinEvent) -> Void = { _ in }
    /// Guards what other threads post: notices and the inbox.
    private let postLock = Lock()
    /// Messages for the user (posted from anywhere, shown at the top until clicked).
    private var notices: [String] = []
    /// The last frame's draw list: where its notice and buttons are (a click on one is theirs).
    private(set) var lastFrame = DrawList()
    private var textInputOn = false
    /// Work posted from other threads, run on the frame thread before the next frame.
    private var inbox: [@Sendable (MapHost) -> Void] = []
    /// Files the user asked to open: a path (dropped on the window) or nil (Ctrl+O).
    public var onOpenRequest: (String?) -> Void = { _ in }
    /// The user chose the map of this name in the layer switcher (the embedder calls `setTiles`).
    public var onChooseTiles: (String) -> Void = { _ in }
    /// A link was clicked (the attribution's copyright page).
    public var onOpenLink: (String) -> Void = { _ in }
    /// The switcher's one-time hint was shown (the embedder remembers not to offer it again).
    public var onHintShown: () -> Void = {}
    /// The first start's hint of where the keys are was on screen.
    public var onHelpHintShown: () -> Void = {}
    /// The search box was opened for the first time: what it searches may be read now.
    public var onSearchOpened: () -> Void = {}
    private var searchOpened = false
    /// Ctrl+S: save the live position's trail.
    public var onSaveTrail: () -> Void = {}
    /// Ctrl+S while measuring: keep the measured line as a track.
    public var onSaveMeasure: (Track?) -> Void = { _ in }
    /// Where the pointer was last over the map (nil: it left the window).
    var pointer: ScreenPoint?
    /// The measured line among the tracks layer's files.
    var measureFileID: Int?
    /// The button the keyboard's focus is on (Tab), by name.
    var focusedButton: String?
    /// One-time hints (by their button's name) whose showing was reported.
    private var hintsReported = Set<String>()
    /// Reasons tiles failed for that were said already (`tell(tileFailure:)`).
    private var toldFailures = Set<String>()
    /// Tiles taken in since memory was last trimmed (before an idle wait).
    private var tilesSinceTrim = 0
    /// The live position's settings and bookkeeping (`MapHost+Position.swift`).
    public var position = PositionState()
    /// Loads in progress whose results the picture waits for: the window does not call itself
    /// fully drawn while any is pending (the embedder counts them).
    public var pendingLoads = 0

    /// Shows `state` (its camera fitted to the window) with tiles from `source`.
    public init(window: SDLWindow, state: Scene, source: TileSource, under: UnderPlane? = nil,
                painter: VectorTilePainter = VectorTilePainter()) throws {
        self.window = window
        self.source = source
        self.under = under
        self.painter = painter
        self.state = state
        let camera = state.camera
        clock = VsyncClock(refreshRateHint: window.refreshRateHint)
        pixelRatio = window.pixelRatio
        var cam = camera
        cam.viewportSize = window.size
        cam.pixelRatio = pixelRatio
        controller = MapController(camera: cam)
        controller.pins = state.pins
        controller.imperialUnits = state.imperialUnits
        let type = SDL_RegisterEvents(1)
        guard type != UInt32.max else { throw SDLError("SDL_RegisterEvents") }
        wakeType = type
        wake = WakeSignal(eventType: type)
        // SDL starts with text input on; it is wanted only while a pin's title is typed.
        SDL_StopTextInput()
        pipeline = Self.makePipeline(window, source, under, painter, pixelRatio, state.background, state.layer(TracksLayer.self), wake)
        pipeline.rasterizer.start()
    }

    /// Shows tiles from `source` from now on, drawn by `painter`, over `under` (nil: none) and `background`. The
    /// pictures of the old source go; the view, overlays and sprites stay.
    public func setTiles(_ source: TileSource, under: UnderPlane?, background: Color, painter: VectorTilePainter) {
        self.source = source
        self.painter = painter
        self.under = under
        state.showTiles(from: source, under: under, background: background)
        pipeline.stop()
        pipeline = Self.makePipeline(window, source, under, painter, pixelRatio, background, state.layer(TracksLayer.self), wake)
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

    public var camera: Camera { controller.camera }

    /// The pins on the map, in paint order.
    public var pins: [Pin] {
        get { controller.pins.pins }
        set { controller.pins = PinEditor(pins: newValue) }
    }

    /// Whether the last frame showed everything asked for (`MapHost+Drawn.swift`).
    let drawnCondition = Condition()
    var drawnFlag = false

    /// Long work under way, shown at the bottom of the window; Esc cancels it.
    public private(set) lazy var activities = ActivityBoard(wake: { [wake] in wake.signal() })

    /// Shows `message` at the top of the window until the user clicks it away (and prints it).
    /// May be called from any thread.
    public func showNotice(_ message: String) {
        FileIO.printError("meridian: " + message)
        postLock.lock()
        notices.append(message)
        postLock.unlock()
        wake.signal()
    }

    private var currentNotice: String? {
        postLock.lock(); defer { postLock.unlock() }
        guard let first = notices.first else { return nil }
        // One at a time; the count says that closing it shows the next.
        return notices.count > 1 ? first + "  (\(notices.count - 1) more)" : first
    }

    private func dismissNotice() {
        postLock.lock()
        if !notices.isEmpty { notices.removeFirst() }
        postLock.unlock()
        lastFrame.noticeFrame = nil
    }

    /// Runs `body` on the frame thread before the next frame (waking an idle loop). May be
    /// called from any thread: how workers hand results to the map.
    public func perform(_ body: @escaping @Sendable (MapHost) -> Void) {
        postLock.lock()
        inbox.append(body)
        postLock.unlock()
        wake.signal()
    }

    private var hasInbox: Bool {
        postLock.lock(); defer { postLock.unlock() }
        return !inbox.isEmpty
    }

    private func runInbox() -> Bool {
        postLock.lock()
        let work = inbox
        inbox.removeAll()
        postLock.unlock()
        for body in work { body(self) }
        return !work.isEmpty
    }

    /// Shows `rect` (what was just opened): a flight there, or a jump when `animated` is false.
    public func show(_ rect: MapRect, animated: Bool) {
        controller.show(rect, animated: animated, at: clock.now)
    }

    /// Hands the pins' news to the embedder, and gives the keyboard to a title being typed.
    private func deliverPinEvents() {
        for e in controller.takePinEvents() { onPinEvent(e) }
        let typing = controller.pins.renameText != nil || state.layer(SearchLayer.self)?.isOpen == true
        if typing != textInputOn {
            textInputOn = typing
            if typing { SDL_StartTextInput() } else { SDL_StopTextInput() }
        }
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
        var latchUntil: Double?
        quitting = false
        while !quitting {
            // The frame's cost is this thread's CPU for the whole iteration, from the moment
            // it wakes: events, drain, compose, execute, present and the uploads after it.
            var cpuStart = MonotonicClock.threadCPU
            if !needsFrame, !hidden, activities.isBusy {
                // Long work under way: its progress is drawn again every quarter of a second.
                if SDL_WaitEventTimeout(&event, 250) != 0 { needsFrame = process(&event, translator) || needsFrame }
                cpuStart = MonotonicClock.threadCPU
                needsFrame = true
            } else if !hidden, !needsFrame, let wake = nextWake {
                // Tiles that failed are asked for again when their wait is over (a minute at
                // most): the network may be back. A live position turns grey on time.
                let wait = Int32(clamping: Int(max(0, wake - MonotonicClock.now) * 1000) + 1)
                if SDL_WaitEventTimeout(&event, wait) != 0 { needsFrame = process(&event, translator) || needsFrame } else { needsFrame = true }
                cpuStart = MonotonicClock.threadCPU
            } else if !needsFrame || hidden {
                // Idle means idle: no frames and no wake-ups until something happens. Tiles
                // come in bursts, each picture a quarter MiB from a worker's heap: what the
                // burst freed goes back to the system before the wait.
                if tilesSinceTrim > 0 {
                    tilesSinceTrim = 0
                    meridian_trim_memory()
                }
                if logPresents { FileIO.printError(String(cFormat: "idle %.4f", clock.now)) }
                guard SDL_WaitEvent(&event) != 0 else { continue }
                cpuStart = MonotonicClock.threadCPU
                needsFrame = process(&event, translator) || needsFrame
            } else if let latch = latchUntil {
                // In motion: the next frame starts as late as it safely can, so that what
                // arrives meanwhile (a fix, the pointer) shows at the next vsync, not the one after.
                latchUntil = nil
                while !quitting {
                    let wait = latch - clock.now
                    guard wait > 0.001, SDL_WaitEventTimeout(&event, Int32(wait * 1000)) != 0 else { break }
                    needsFrame = process(&event, translator) || needsFrame
                }
                cpuStart = MonotonicClock.threadCPU
            } else if let until = settleUntil {
                let wait = Int32(clamping: Int(max(0, until - clock.now) * 1000))
                if wait > 0, SDL_WaitEventTimeout(&event, wait) != 0 {
                    cpuStart = MonotonicClock.threadCPU
                    // Anything but more pictures arriving ends the wait.
                    if process(&event, translator), event.type != wakeType { settleUntil = nil }
                    if settleUntil != nil, clock.now < until, !hasInbox, pipeline.isLoading || pipeline.rasterizer.isBusy { continue }
                }
                settleUntil = nil
            }
            while SDL_PollEvent(&event) != 0 {
                needsFrame = process(&event, translator) || needsFrame
            }
            needsFrame = runInbox() || needsFrame
            deliverPinEvents()
            if quitting { break }
            hidden = window.isHiddenOrMinimized
            if hidden || !needsFrame { continue }
            let (t, spritesMade, animating) = frame(cpuStart: cpuStart)
            // Frames go on only while something moves on screen; otherwise the loop sleeps.
            let moves = controller.isAnimating(at: t) || script != nil || animating
            needsFrame = moves || pipeline.hasTileResults || pipeline.rasterizer.hasResults || spritesMade > 0
            let making = pipeline.isLoading || pipeline.rasterizer.isBusy
            settleUntil = needsFrame && !moves && making ? clock.now + settleInterval : nil
            latchUntil = moves && lateLatch ? clock.latchTime(margin: latchMargin) : nil
        }
        // A pin on its way down lands; one in the air goes back. Then the embedder hears of it.
        controller.finishPinGestures(at: clock.now)
        deliverPinEvents()
        if logPresents {
            FileIO.printError(String(cFormat: "quit %.4f cache-hits %d cache-fills %d", clock.now,
                                              pipeline.drawer.cacheHits, pipeline.drawer.cacheFills))
        }
    }

    public func requestQuit() { quitting = true }

    /// Handles one event; true when the picture may have changed.
    private func process(_ event: inout SDL_Event, _ translator: EventTranslator) -> Bool {
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
            if case let .pixels(c) = pipeline.drawer { c.invalidate() }
        case nil: break
        }
        if let input {
            // The notice takes the click that closes it, and Esc.
            if let frame = lastFrame.noticeFrame {
                switch input {
                case let .pointerDown(_, p, _, _) where frame.contains(p):
                    dismissNotice(); return true
                case .keyDown(.escape, _) where !controller.pins.drag.isActive && controller.pins.renameText == nil && controller.pins.selected == nil:
                    dismissNotice(); return true
                default: break
                }
            }
            if let taken = searchInput(input) ?? focusInput(input) ?? toolInput(input) { return taken || changed }
            // Typed text only matters while a title is being edited.
            if case .text = input, controller.pins.renameText == nil { return changed }
            let before = controller.camera
            let t = clock.eventTime(sdlTicks: event.common.timestamp)
            for action in controller.handle(input, at: t) { changed = perform(action) || changed }
            changed = changed || controller.camera != before || controller.isAnimating(at: t)
        }
        return changed
    }

    private func resized() {
        let ratio = window.pixelRatio
        controller.resize(to: window.size, pixelRatio: ratio)
        if abs(ratio - pixelRatio) > 0.01 {
            // A new density needs tiles rasterized anew.
            pixelRatio = ratio
            pipeline.stop()
            pipeline = Self.makePipeline(window, source, under, painter, ratio, state.background, state.layer(TracksLayer.self), wake)
        }
    }

    /// The window's pipeline at a pixel density; its workers wake the frame loop.
    private static func makePipeline(_ window: SDLWindow, _ source: TileSource, _ under: UnderPlane?, _ painter: VectorTilePainter,
                                     _ pixelRatio: Double, _ background: Color, _ tracks: TracksLayer?, _ wake: WakeSignal) -> RenderPipeline {
        RenderPipeline(renderer: window.renderer, viewport: window.largestPixelSize, source: source, painter: painter,
                       pixelRatio: pixelRatio, background: background, under: under, overlay: tracks, wake: { [wake] in wake.signal() })
    }

    /// Builds and presents one frame; returns its time, how many tiles and sprites it made
    /// ready for the next one, and whether anything on screen animates.
    @discardableResult
    private func frame(cpuStart: Double) -> (Double, Int, Bool) {
        let start = clock.now
        let slot = clock.frameTime()
        let t = fixedTime ?? slot
        if let script {
            if let cam = script(t) { controller.camera = cam } else { self.script = nil; quitting = true }
        }
        controller.advance(to: t)
        checkStaleness()
        controller.follow(state.location?.point(at: t), at: t)
        var scene = state
        if scene.layer(LocateLayer.self) != nil {
            let following = controller.following
            scene.modify(LocateLayer.self, default: LocateLayer()) { $0.following = following }
        }
        scene.camera = controller.camera
        scene.pins = controller.pins
        scene.imperialUnits = controller.imperialUnits
        scene.notice = currentNotice
        scene.status = activities.status
        if scene.layer(SourcesLayer.self) != nil {
            let status = tileStatus
            scene.modify(SourcesLayer.self, default: SourcesLayer()) { $0.status = status }
        }
        pipeline.follow(scene.layer(TracksLayer.self))
        let composeStart = MonotonicClock.threadCPU
        let under = pipeline.underStore
        var list = scene.compose(at: t, tiles: store, under: under, sprites: sprites)
        if !firstPresentDone {
            // Overlays pulse from the very first frame: rasterize their few sprites now.
            let overlays = list.wantedSprites.filter { $0.spec(as: LabelSprite.self) == nil }
            if sprites.prepare(overlays) > 0 { list = scene.compose(at: t, tiles: store, under: under, sprites: sprites) }
        }
        controller.pins.calloutFrame = list.calloutFrame
        controller.pins.calloutTitleFrame = list.calloutTitleFrame
        controller.pins.clusterFrames = list.pinClusters.map(\.frame)
        controller.pins.pressablePins = list.pressablePins
        drawFocus(into: &list)
        lastFrame = list
        if !searchOpened, scene.layer(SearchLayer.self)?.isOpen == true {
            searchOpened = true
            onSearchOpened()
        }
        for (hint, report) in [("sources.hint", onHintShown), ("help.hint", onHelpHintShown)]
        where !hintsReported.contains(hint) && list.buttons.contains(where: { $0.name == hint }) {
            hintsReported.insert(hint)
            report()
        }
        loader.want(list.wantedTiles)
        pipeline.underLoader?.want(list.wantedUnderTiles)
        // Places in the ring around the view can label the edges: until the ring is in, the
        // labels may still change.
        let tilesSettled = loader.isIdle
        let moving = lastCamera.map { $0 != scene.camera } ?? false
        lastCamera = scene.camera
        let drawStart = MonotonicClock.threadCPU
        let changed: [PixelBox]
        switch pipeline.drawer {
        case let .gpu(c):
            c.execute(list, pixelRatio: pixelRatio, outputSize: window.outputSize)
            changed = []
        case let .pixels(c):
            changed = window.surface().map { c.execute(list, pixelRatio: pixelRatio, into: $0, moving: moving) } ?? []
        }
        let built = clock.now - start
        recentBuilds.append(built)
        if recentBuilds.count > 30 { recentBuilds.removeFirst() }
        let presentStart = MonotonicClock.threadCPU
        clock.beforePresent(slot: slot)
        let presentWall = clock.now
        window.present(changed)
        clock.didPresent(wall: clock.now - presentWall)
        let presentedAt = clock.now
        if logPresents { FileIO.printError(String(cFormat: "present %.4f", clock.now)) }
        onPresented?()
        if !firstPresentDone {
            firstPresentDone = true
            onFirstPresent?()
        }
        // Uploads of finished sprites and tiles, and atlas pages, happen here, in the slack
        // after a present and within the frame's CPU budget: llvmpipe has finished drawing,
        // so updating a texture cannot stall on the frame in flight. What arrives shows in
        // the next frame. The sprites this frame lacked go to the sprite worker.
        // A still map has no next vsync to keep: it takes in all that has arrived (up to
        // `stillUploadWindow`), rather than a little per frame and a frame for each little.
        let still = !list.animating && !moving && !controller.isAnimating(at: t)
        let deadline = clock.now + (still ? stillUploadWindow : uploadWindow)
        let uploadStart = MonotonicClock.threadCPU
        let presentCPU = uploadStart - presentStart
        let inBudget = { [clock] in
            let cpu = MonotonicClock.threadCPU
            return clock.now < deadline && (still || cpu - cpuStart < self.frameBudget || cpu - uploadStart < self.uploadAllowance)
        }
        var made = drainSprites(while: inBudget)
        made += drainTiles(while: inBudget)
        pipeline.rasterizer.want(sprites.missing(list.wantedSprites))
        if inBudget() { store.prepareSlots(); pipeline.underStore?.prepareSlots() }
        let end = MonotonicClock.threadCPU
        stats.record(cpu: end - cpuStart, build: built, presentedAt: presentedAt,
                     phases: [.events: composeStart - cpuStart, .compose: drawStart - composeStart, .draw: presentStart - drawStart,
                              .present: presentCPU, .uploads: end - uploadStart])
        if logPresents { FileIO.printError(String(cFormat: "frame-cpu %.4f", end - cpuStart)) }
        let drawn = list.missingTiles == 0 && list.wantedSprites.isEmpty && tilesSettled && pendingLoads == 0
        if drawn != isDrawn { setDrawn(drawn) }
        if !fullyDrawnDone && drawn {
            fullyDrawnDone = true
            if let path = drawListOut { FileIO.writeText(list.dump(), to: path) }
            onFullyDrawn?()
        }
        // A frame drawn in motion in software is followed by a filtered one at rest.
        return (t, made, list.animating || (moving && window.drawsInSoftware))
    }

    /// Uploads sprites the rasterizer finished while `inBudget` (at least one, so a slow
    /// frame cannot starve them); returns how many.
    private func drainSprites(while inBudget: () -> Bool) -> Int {
        var n = 0
        repeat {
            guard let r = pipeline.rasterizer.next() else { return n }
            sprites.accept(r)
            n += 1
        } while inBudget()
        return n
    }

    /// Uploads finished tiles while `inBudget` (at least one); returns how many.
    private func drainTiles(while inBudget: () -> Bool) -> Int {
        var n = 0
        repeat {
            let (accepted, message) = pipeline.acceptTile()
            guard accepted else { return n }
            tilesSinceTrim += 1
            if let message { tell(tileFailure: message) }
            n += 1
        } while inBudget()
        return n
    }

    public func resetStats() { stats.reset() }

    /// Says why a tile failed, once per reason: offline, every tile fails the same way.
    private func tell(tileFailure message: String) {
        // "tile 9/260/175 from osm: reason": the reason is what repeats.
        let reason = message.split(separator: ":", maxSplits: 1).last.map(String.init) ?? message
        guard toldFailures.insert(reason).inserted else { return }
        if toldFailures.count > 256 { toldFailures = [reason] }
        onMessage(message)
    }

    /// When the idle loop must wake by itself (`MonotonicClock` seconds): a failed tile's
    /// retry, or a live position turning stale.
    private var nextWake: Double? {
        let stale = staleDeadline.map { $0 - clock.now + MonotonicClock.now }
        return [loader.nextRetry, stale].compactMap { $0 }.min()
    }

    /// How the map's tiles are coming, for the layer switcher: a server out of reach, or
    /// tiles on their way over the network (local sources are too quick to say so).
    private var tileStatus: SourcesLayer.Status {
        if let reason = source.unreachable { return .unreachable(reason) }
        return source.isRemote && loader.isLoading ? .loading : .ready
    }
}

/// Wakes the frame loop from a worker thread with one SDL user event, coalesced. Closed
/// before the window goes: on X11 SDL wakes a waiting loop with an XSendEvent to the window,
/// and one sent to a window already destroyed is a fatal X error.
final class WakeSignal: @unchecked Sendable {
    private let lock = Lock()
    private var pending = false
    private var closed = false
    private let eventType: UInt32

    init(eventType: UInt32) { self.eventType = eventType }

    func signal() {
        // Held while pushing, so that close() returns only once no push is under way.
        lock.lock(); defer { lock.unlock() }
        guard !pending, !closed else { return }
        pending = true
        var e = SDL_Event()
        e.type = eventType
        SDL_PushEvent(&e)
    }

    /// No more wake-ups (workers may still finish; their results are dropped with the host).
    func close() {
        lock.lock(); closed = true; lock.unlock()
    }

    func clear() {
        lock.lock(); pending = false; lock.unlock()
    }
}
