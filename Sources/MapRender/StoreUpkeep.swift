import CSystem
import MapCore
import Platform

/// Lets go of what is out of sight. Before an idle wait: the fallback layers under the map's
/// tiles if these cover the view, and the heap's free pages (tiles come and go a quarter MiB
/// at a time), at once. A map that never rests (a pulsing position, a followed walk) does the
/// same every few seconds, the fallbacks once the tiles have covered the view for a while.
/// Either way, what no frame has used since the last time goes every few seconds.
package struct StoreUpkeep {
    static let interval = 6.0
    /// Tiles taken in (or let go) since memory was last given back to the system.
    private var tilesSinceTrim = 0
    /// Since when the frames' view has lain wholly on the map's own tiles (the frame clock);
    /// nil when the last frame's did not.
    private var coveredSince: Double?
    /// When memory was last looked after while drawing without rest.
    private var last = 0.0
    /// Sprites drawn since the stores last let go of the rest (tiles: `RenderPipeline.use`).
    private var spritesInUse = Set<SpriteKey>()
    /// Frames drawn since the stores last let go of what was not in use.
    private var framesSinceKeep = 0

    package init() {}

    package mutating func tookInTile() { tilesSinceTrim += 1 }

    /// A frame showing `list` was presented at `t`.
    package mutating func presented(_ list: DrawList, at t: Double) {
        coveredSince = list.tilesCoverView ? (coveredSince ?? t) : nil
        for c in list.spriteCommands { spritesInUse.insert(c.0) }
        framesSinceKeep += 1
    }

    /// Looks after `pipeline`'s stores at `now` (the frame clock): before an idle wait
    /// (`idle`), or after a frame, every `interval`. `resting`: the camera still. `shown`
    /// says which tile layers are shown, by index.
    package mutating func run(at now: Double, idle: Bool, resting: Bool, pipeline: inout RenderPipeline, shown: (Int) -> Bool) {
        let due = now - last >= Self.interval
        guard idle || due else { return }
        // Not between the notches of a zoom that may cross the fallback's edge again.
        let coveredAWhile = idle || now - (coveredSince ?? now) >= Self.interval / 2
        if resting, coveredSince != nil, coveredAWhile, pipeline.releaseFallbacks() { tilesSinceTrim += 1 }
        if due {
            last = now
            keepInUse(resting: resting, pipeline: pipeline)
            // An overlay switched off lets go of all it held.
            if pipeline.dropHidden(shown) { tilesSinceTrim += 1 }
        }
        if tilesSinceTrim > 0 {
            tilesSinceTrim = 0
            meridian_trim_memory()
        }
    }

    /// The stores keep what was drawn, wanted or in the ring since the last time: what a view
    /// needs, not everything seen since the start (a tile that went is decoded again from its
    /// source's cache if it comes back, a millisecond; a label is drawn again off the frame).
    private mutating func keepInUse(resting: Bool, pipeline: RenderPipeline) {
        // Only what frames since the last time have shown: with none drawn (an event that
        // changed nothing), the sets are empty and say nothing of what is on screen.
        guard framesSinceKeep > 0 else { return }
        framesSinceKeep = 0
        if pipeline.keepOnly(sprites: spritesInUse, resting: resting) > 0 { tilesSinceTrim += 1 }
        spritesInUse.removeAll(keepingCapacity: true)
    }
}
