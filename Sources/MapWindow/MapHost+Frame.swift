import CSDL2
import CSystem
import FoundationEssentials
import Glibc
import MapCore
import MapGraphics
import Platform

/// One frame: the session composes, the compositor draws, the window presents; then, in the
/// slack before the next vsync, what the workers finished is uploaded.
extension MapHost {
    /// Builds and presents one frame; returns its time, how many tiles and sprites it made
    /// ready for the next one, and whether anything on screen animates.
    @discardableResult
    func frame(cpuStart: Double) -> (Double, Int, Bool) {
        let start = clock.now
        let slot = clock.frameTime()
        let t = configuration.fixedTime ?? slot
        if let script {
            if let cam = script(t) { session.controller.camera = cam } else { self.script = nil; quitting = true }
        }
        session.status = activities.status
        session.tileStatus = tileStatus
        pipeline.follow(session.tileOverlays)
        let composeStart = MonotonicClock.threadCPU
        let layers = pipeline.availability
        var list = session.frame(at: t, layers: layers, sprites: sprites)
        if !firstPresentDone {
            // Overlays pulse from the very first frame: rasterize their few sprites now.
            let overlays = list.wantedSprites.filter { $0.spec(as: LabelSprite.self) == nil }
            if sprites.prepare(overlays) > 0 { list = session.frame(at: t, layers: layers, sprites: sprites) }
        }
        // Settled at a zoom (unchanged for a moment: a wheel's animation over, a touchpad's
        // stream of small zooms paused; a pan keeps it), styled tiles are painted for it: the
        // frame then wants them anew. The idle loop wakes when the moment is up (`nextWake`).
        let now = MonotonicClock.now
        if let last = lastCamera, last.zoom != session.camera.zoom { zoomSettles = now + Self.zoomSettling }
        let settled = zoomSettles.map { now >= $0 } ?? true
        if settled { zoomSettles = nil }
        if pipeline.follow(settledZoom: settled ? session.camera.zoom : nil) { list = session.frame(at: t, layers: layers, sprites: sprites) }
        // At rest after a turn, hillshading lit from the viewport is painted for the bearing.
        let turnOver = !session.controller.isTurning && !session.isAnimating(at: t)
        if pipeline.follow(settledBearing: turnOver ? session.camera.bearing : nil) { list = session.frame(at: t, layers: layers, sprites: sprites) }
        // Stand-ins wait while the tiles they stand in for are on their way (asked for first).
        pipeline.want(list, now: MonotonicClock.now)
        // Places in the ring around the view can label the edges: until the ring is in, the
        // labels may still change.
        let tilesSettled = pipeline.isIdle
        // Moving while the camera changes and a moment after (frames between a drag's pointer
        // events, a label placed again): drawn as the motion's frames, not as a rest's.
        if lastCamera.map({ $0 != session.camera }) == true { lastMove = now }
        let moving = now - lastMove < Self.restsAfter
        lastCamera = session.camera
        let drawStart = MonotonicClock.threadCPU
        let changed: [PixelBox]
        let byServer = window.serverDraws
        // The app's own compositor draws into the window's pixels.
        let (window, k) = (window, pixelRatio)
        let drawnByApp = { (c: PixelCompositor) in window.surface().map { c.execute(list, pixelRatio: k, into: $0, moving: moving) } ?? [] }
        switch pipeline.drawer {
        case let .gpu(c):
            c.execute(list, pixelRatio: pixelRatio, outputSize: window.outputSize)
            changed = []
        case let .pixels(c):
            changed = drawnByApp(c)
        case let .server(c, large) where byServer:
            large.invalidate()
            serverDrawnSinceSync = true
            changed = c.execute(list, pixelRatio: pixelRatio, size: window.outputSize, moving: moving)
        case let .server(c, large):
            // Too large a window for the server to keep up, or a server that refused a request
            // (out of memory): the app draws, and the server lets go of its pictures.
            if window.serverFrame?.failed == true, !toldServerFailure {
                toldServerFailure = true
                onMessage(tr("The X server could not draw the map (out of memory?): it is drawn in the app from now on."))
            }
            c.standBy()
            changed = drawnByApp(large)
        }
        if configuration.logFrames, window.rendererName != lastRendererName {
            lastRendererName = window.rendererName
            FileIO.printError("renderer \(lastRendererName)")
        }
        let built = clock.now - start
        recentBuilds.append(built)
        if recentBuilds.count > 30 { recentBuilds.removeFirst() }
        let presentStart = MonotonicClock.threadCPU
        clock.beforePresent(slot: slot)
        let presentWall = clock.now
        window.present(changed, byServer: byServer)
        clock.didPresent(wall: clock.now - presentWall)
        let presentedAt = clock.now
        if configuration.logFrames { FileIO.printError(String(cFormat: "present %.4f", clock.now)) }
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
        let still = !list.animating && !moving && !session.isAnimating(at: t)
        let deadline = clock.now + (still ? stillUploadWindow : uploadWindow)
        let uploadStart = MonotonicClock.threadCPU
        let presentCPU = uploadStart - presentStart
        let inBudget = { [clock] in
            let cpu = MonotonicClock.threadCPU
            return clock.now < deadline && (still || cpu - cpuStart < self.frameBudget || cpu - uploadStart < self.uploadAllowance)
        }
        var made = drainSprites(while: inBudget)
        made += takeInTiles(while: inBudget)
        pipeline.rasterizer.want(sprites.missing(list.wantedSprites))
        if inBudget() { pipeline.prepareSlots() }
        let end = MonotonicClock.threadCPU
        stats.record(cpu: end - cpuStart, build: built, presentedAt: presentedAt,
                     phases: [.events: composeStart - cpuStart, .compose: drawStart - composeStart, .draw: presentStart - drawStart,
                              .present: presentCPU, .uploads: end - uploadStart])
        if configuration.logFramePhases {
            FileIO.printError(String(cFormat: "frame-cpu %.4f events %.4f compose %.4f draw %.4f present %.4f uploads %.4f", end - cpuStart,
                                     composeStart - cpuStart, drawStart - composeStart, presentStart - drawStart, presentCPU, end - uploadStart))
        } else if configuration.logFrames {
            FileIO.printError(String(cFormat: "frame-cpu %.4f", end - cpuStart))
        }
        coveredSince = list.tilesCoverView ? (coveredSince ?? presentedAt) : nil
        mapOnScreen = !list.tileCommands.isEmpty
        pipeline.use(list)
        for c in list.spriteCommands { spritesInUse.insert(c.0) }
        framesSinceKeep += 1
        // At rest: the camera still (a pulse on screen animates, but moves nothing).
        upkeep(at: presentedAt, idle: false, resting: !moving)
        // A map that never rests (a pulse on screen) still says what it holds, every 10 s.
        if configuration.logMemory, presentedAt - lastMemoryLine >= 10 {
            lastMemoryLine = presentedAt
            FileIO.printError(memoryLine)
        }
        let drawn = list.missingTiles == 0 && list.wantedSprites.isEmpty && tilesSettled && pendingLoads == 0
        if drawn != isDrawn { setDrawn(drawn) }
        // The list of the last frame drawn whole, for the tests to read where things are.
        if drawn, let path = configuration.drawListOut { FileIO.writeText(list.dump(), to: path) }
        if !fullyDrawnDone && drawn {
            fullyDrawnDone = true
            onFullyDrawn?()
        }
        // A frame drawn in motion in software is followed by a filtered one at rest.
        return (t, made, list.animating || (moving && window.drawsInSoftware))
    }

    /// Lets go of what is out of sight. Before an idle wait (`idle`): the fallback layers under
    /// the map's tiles if these cover the view, and the heap's free pages (tiles come and go a quarter MiB
    /// at a time), at once. A map that never rests (a pulsing position, a followed walk) does
    /// the same every few seconds, the fallbacks once the tiles have covered the view for a while.
    /// Either way, what no frame has used since the last time goes every few seconds.
    func upkeep(at now: Double, idle: Bool, resting: Bool) {
        let due = now - lastUpkeep >= Self.upkeepInterval
        guard idle || due else { return }
        // Not between the notches of a zoom that may cross the fallback's edge again.
        let coveredAWhile = idle || now - (coveredSince ?? now) >= Self.upkeepInterval / 2
        if resting, coveredSince != nil, coveredAWhile, pipeline.releaseFallbacks() { tilesSinceTrim += 1 }
        if due {
            lastUpkeep = now
            keepTilesInUse(resting: resting)
            // An overlay switched off lets go of all it held.
            let layers = session.scene.tileLayers
            if pipeline.dropHidden({ layers.indices.contains($0) && layers[$0].isShown }) { tilesSinceTrim += 1 }
        }
        if tilesSinceTrim > 0 {
            tilesSinceTrim = 0
            meridian_trim_memory()
        }
    }

    /// The stores keep what was drawn, wanted or in the ring since the last time: what a view
    /// needs, not everything seen since the start (a tile that went is decoded again from its
    /// source's cache if it comes back, a millisecond; a label is drawn again off the frame).
    private func keepTilesInUse(resting: Bool) {
        // Only what frames since the last time have shown: with none drawn (an event that
        // changed nothing), the sets are empty and say nothing of what is on screen.
        guard framesSinceKeep > 0 else { return }
        framesSinceKeep = 0
        if pipeline.keepOnly(sprites: spritesInUse, resting: resting) > 0 { tilesSinceTrim += 1 }
        spritesInUse.removeAll(keepingCapacity: true)
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

    /// Takes in the tiles that arrived before the frame is drawn, so that it shows them (taken
    /// in after it, they would wait for the next frame): for a still map's first picture, and
    /// once every tile in view is in.
    func takeInTilesNow() {
        let until = clock.now + stillUploadWindow
        takeInTiles(while: { self.clock.now < until })
    }

    /// Takes in arrived tiles while `inBudget` (at least one); returns how many.
    @discardableResult
    func takeInTiles(while inBudget: () -> Bool) -> Int {
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
    func tell(tileFailure message: String) {
        // "tile 9/260/175 from osm: reason": the reason is what repeats.
        let reason = message.split(separator: ":", maxSplits: 1).last.map(String.init) ?? message
        guard toldFailures.insert(reason).inserted else { return }
        if toldFailures.count > 256 { toldFailures = [reason] }
        onMessage(message)
    }

    /// When the idle loop must wake by itself (`MonotonicClock` seconds): a failed tile's
    /// retry, a live position turning stale, or stand-ins for late tiles coming due.
    var nextWake: Double? {
        let stale = session.staleDeadline.map { $0 - clock.now + MonotonicClock.now }
        return [pipeline.nextWake, stale, zoomSettles].compactMap { $0 }.min()
    }

    /// How long the zoom stays the same before the view counts as settled there.
    static let zoomSettling = 0.15

    /// What the stores hold, for MERIDIAN_MEMORY_LOG.
    var memoryLine: String {
        let (t, o) = pipeline.held, s = sprites.held
        return "memory tiles \(t.count) \(t.bytes) other-layers \(o.count) \(o.bytes) sprites \(s.count) \(s.bytes)"
    }

    /// How the map's tiles are coming, for the layer switcher: a server out of reach, or
    /// tiles on their way over the network (local sources are too quick to say so).
    private var tileStatus: TileStatus {
        if let reason = source.unreachable { return .unreachable(reason) }
        return source.isRemote && loader.isLoading ? .loading : .ready
    }
}
