import CSDL2
import CSystem
import FoundationEssentials
import Glibc
import MapCore
import MapGraphics
import MapRender
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
        if !milestones.presented {
            // Overlays pulse from the very first frame: rasterize their few sprites now.
            let overlays = list.wantedSprites.filter { $0.spec(as: LabelSprite.self) == nil }
            if sprites.prepare(overlays) > 0 { list = session.frame(at: t, layers: layers, sprites: sprites) }
        }
        // Settled at a zoom, styled tiles are painted for it: the frame then wants them anew.
        // The loop wakes when the moment is up (`situation`). Moving, the frame is drawn as
        // the motion's, not as a rest's.
        let (zoomSettled, moving) = motion.frame(session.camera, at: MonotonicClock.now)
        if pipeline.follow(settledZoom: zoomSettled ? session.camera.zoom : nil) { list = session.frame(at: t, layers: layers, sprites: sprites) }
        // At rest after a turn, hillshading lit from the viewport is painted for the bearing.
        let turnOver = !session.controller.isTurning && !session.isAnimating(at: t)
        if pipeline.follow(settledBearing: turnOver ? session.camera.bearing : nil) { list = session.frame(at: t, layers: layers, sprites: sprites) }
        // Stand-ins wait while the tiles they stand in for are on their way (asked for first).
        pipeline.want(list, now: MonotonicClock.now)
        // Places in the ring around the view can label the edges: until the ring is in, the
        // labels may still change.
        let tilesSettled = pipeline.isIdle
        let drawStart = MonotonicClock.threadCPU
        let (changed, byServer) = draw(list, moving: moving)
        frameLog.renderer(window.rendererName)
        let built = clock.now - start
        builds.record(built)
        let presentStart = MonotonicClock.threadCPU
        clock.beforePresent(slot: slot)
        let presentWall = clock.now
        window.present(changed, byServer: byServer)
        clock.didPresent(wall: clock.now - presentWall)
        let presentedAt = clock.now
        frameLog.present(at: presentedAt)
        onPresented?()
        if milestones.present() { onFirstPresent?() }
        let still = !list.animating && !moving && !session.isAnimating(at: t)
        let uploadStart = MonotonicClock.threadCPU
        let presentCPU = uploadStart - presentStart
        let made = upload(for: list, still: still, cpuStart: cpuStart, uploadStart: uploadStart)
        let end = MonotonicClock.threadCPU
        stats.record(cpu: end - cpuStart, build: built, presentedAt: presentedAt,
                     phases: [.events: composeStart - cpuStart, .compose: drawStart - composeStart, .draw: presentStart - drawStart,
                              .present: presentCPU, .uploads: end - uploadStart])
        frameLog.cost(end - cpuStart, events: composeStart - cpuStart, compose: drawStart - composeStart, draw: presentStart - drawStart,
                      present: presentCPU, uploads: end - uploadStart)
        mapOnScreen = !list.tileCommands.isEmpty
        pipeline.use(list)
        upkeep.presented(list, at: presentedAt)
        // At rest: the camera still (a pulse on screen animates, but moves nothing).
        keepStores(at: presentedAt, idle: false, resting: !moving)
        frameLog.drawing(at: presentedAt, held: memoryLine)
        let whole = list.missingTiles == 0 && list.wantedSprites.isEmpty && tilesSettled && pendingLoads == 0
        if whole != isDrawn { setDrawn(whole) }
        // The list of the last frame drawn whole, for the tests to read where things are.
        if whole, let path = configuration.drawListOut { FileIO.writeText(list.dump(), to: path) }
        if milestones.drawn(whole: whole) { onFullyDrawn?() }
        // A frame drawn in motion in software is followed by a filtered one at rest.
        return (t, made, list.animating || (moving && window.drawsInSoftware))
    }

    /// Draws `list` with the window's compositor: the boxes of the window that changed (what
    /// `SDLWindow.present` shows), and whether the X server drew them.
    private func draw(_ list: DrawList, moving: Bool) -> (changed: [PixelBox], byServer: Bool) {
        let byServer = window.serverDraws
        // The app's own compositor draws into the window's pixels.
        let (window, k) = (window, pixelRatio)
        let drawnByApp = { (c: PixelCompositor) in window.surface().map { c.execute(list, pixelRatio: k, into: $0, moving: moving) } ?? [] }
        switch pipeline.drawer {
        case let .gpu(c):
            c.execute(list, pixelRatio: pixelRatio, outputSize: window.outputSize)
            return ([], byServer)
        case let .pixels(c):
            return (drawnByApp(c), byServer)
        case let .server(c, large) where byServer:
            large.invalidate()
            serverDrawnSinceSync = true
            return (c.execute(list, pixelRatio: pixelRatio, size: window.outputSize, moving: moving), byServer)
        case let .server(c, large):
            // Too large a window for the server to keep up, or a server that refused a request
            // (out of memory): the app draws, and the server lets go of its pictures.
            if window.serverFrame?.failed == true, said.serverFailed() {
                onMessage(tr("The X server could not draw the map (out of memory?): it is drawn in the app from now on."))
            }
            c.standBy()
            return (drawnByApp(large), byServer)
        }
    }

    /// Uploads of finished sprites and tiles, and atlas pages, in the slack after a present
    /// and within the frame's CPU budget (`uploads`): llvmpipe has finished drawing, so
    /// updating a texture cannot stall on the frame in flight. What arrives shows in the next
    /// frame. The sprites `list` lacked go to the sprite worker. A `still` map has no next
    /// vsync to keep: it takes in all that has arrived (up to `stillWindow`), rather than a
    /// little per frame and a frame for each little. How many tiles and sprites were taken in.
    private func upload(for list: DrawList, still: Bool, cpuStart: Double, uploadStart: Double) -> Int {
        let turn = uploads.turn(still: still, wall: clock.now, frameCPU: cpuStart, uploadCPU: uploadStart)
        let inBudget = { [clock] in turn.allows(wall: clock.now, cpu: MonotonicClock.threadCPU) }
        let made = drainSprites(while: inBudget) + takeInTiles(while: inBudget)
        pipeline.rasterizer.want(sprites.missing(list.wantedSprites))
        if inBudget() { pipeline.prepareSlots() }
        return made
    }

    /// Lets go of what is out of sight (`StoreUpkeep`): before an idle wait (`idle`), and
    /// every few seconds of drawing.
    func keepStores(at now: Double, idle: Bool, resting: Bool) {
        let layers = session.scene.tileLayers
        upkeep.run(at: now, idle: idle, resting: resting, pipeline: &pipeline) { layers.indices.contains($0) && layers[$0].isShown }
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
        let until = clock.now + uploads.stillWindow
        takeInTiles(while: { self.clock.now < until })
    }

    /// Takes in arrived tiles while `inBudget` (at least one); returns how many.
    @discardableResult
    func takeInTiles(while inBudget: () -> Bool) -> Int {
        var n = 0
        repeat {
            let (accepted, message) = pipeline.acceptTile()
            guard accepted else { return n }
            upkeep.tookInTile()
            // Once per reason: offline, every tile fails the same way.
            if let message, said.tileFailure(message) { onMessage(message) }
            n += 1
        } while inBudget()
        return n
    }

    public func resetStats() { stats.reset() }

    /// What the schedule needs to know now (`FrameSchedule.Situation`), on the frame clock.
    var situation: FrameSchedule.Situation {
        let now = clock.now
        // A failed tile's retry, stand-ins for late tiles coming due and a zoom settling are
        // timed on the monotonic clock; a live position turning stale on the frame clock.
        let offset = now - MonotonicClock.now
        let wakes = [pipeline.nextWake.map { $0 + offset }, motion.zoomSettles.map { $0 + offset }, session.staleDeadline]
        return FrameSchedule.Situation(now: now, hidden: hidden, tilesComing: pipeline.isLoading, viewTilesComing: pipeline.isLoadingInView,
                                       spritesComing: pipeline.rasterizer.isBusy, mapOnScreen: mapOnScreen, busy: activities.isBusy,
                                       wake: wakes.compactMap { $0 }.min())
    }

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
