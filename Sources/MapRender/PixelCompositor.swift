import CPixels
import FoundationEssentials
import MapCore
import MapTiles
import Platform

/// Executes a draw list into 32-bit pixels in memory (the window's surface, or a picture for
/// `render`) with the loops of CPixels: the software path, in place of SDL's software
/// renderer. Pictures are the workers' bitmaps as they are (opaque tiles, premultiplied
/// sprites): nothing is uploaded.
///
/// While only overlays animate over a still map, the base layer is drawn once into a picture
/// of its own, and each frame redraws and presents only the boxes whose overlays changed
/// (`DamageRegion`): a pulse costs its own few thousand pixels, not the window's two million.
public final class PixelCompositor {
    let tiles: TileStores
    let sprites: SpriteStore

    /// The base layer's picture, for frames that repeat it.
    private var base: [UInt32] = []
    private var baseSize = (width: 0, height: 0)
    private var cachedBase: BaseFrame?
    /// Whether the cached base was drawn filtered (at rest) or not (moving): a rest's frame is not
    /// made of a motion's base.
    private var cachedFilter = true
    private var previousBase: BaseFrame?
    /// What the target shows over the cached base, when it is known to show exactly that.
    private var shownOverlay: [DrawCommand]?
    private var shownTarget: PixelTarget?

    /// Frames drawn from the cached base, and fills of the cache.
    public private(set) var cacheHits = 0
    public private(set) var cacheFills = 0

    init(tiles: TileStores, sprites: SpriteStore) {
        self.tiles = tiles
        self.sprites = sprites
    }

    /// What the target shows is not known any more (exposed, or drawn over by someone else):
    /// the next frame draws and presents all of it.
    public func invalidate() { shownOverlay = nil }

    /// Draws `list` into `target`; returns the boxes that changed (none when nothing did).
    /// `moving`: the map moves this frame, and scaled tiles take the nearest texel (filtering
    /// costs several times more and is not seen in motion); the frame at rest filters again.
    package func execute(_ list: DrawList, pixelRatio k: Double, into target: PixelTarget, moving: Bool = false) -> [PixelBox] {
        let whole = target.whole
        let base = BaseFrame(list, tiles: tiles, sprites: sprites)
        let end = base.commands.endIndex
        defer { previousBase = base }
        if target != shownTarget { shownOverlay = nil; shownTarget = target }
        let mode = Mode(k: k, target: target, filter: !moving)
        // Only a pulse over a still map repeats the base frame after frame.
        guard list.animating, end > 0, end < list.commands.count else {
            cachedBase = nil
            shownOverlay = nil
            run(list.commands[...], mode, clip: whole)
            return [whole]
        }
        let overlay = Array(list.commands[end...])
        let size = (width: target.width, height: target.height)
        if cachedBase == base, baseSize == size, cachedFilter == mode.filter {
            cacheHits += 1
            if let shown = shownOverlay {
                let damage = DamageRegion.changes(from: shown[...], to: overlay[...], k, width: target.width, height: target.height)
                for box in damage.boxes {
                    copyBase(into: target, box)
                    run(overlay[...], mode, clip: box)
                }
                shownOverlay = overlay
                return damage.boxes
            }
        } else if previousBase == base {
            fillBase(base.commands, mode)
            cachedBase = base
            cachedFilter = mode.filter
            cacheFills += 1
        } else {
            cachedBase = nil
            shownOverlay = nil
            run(list.commands[...], mode, clip: whole)
            return [whole]
        }
        copyBase(into: target, whole)
        run(overlay[...], mode, clip: whole)
        shownOverlay = overlay
        return [whole]
    }

    private func fillBase(_ commands: ArraySlice<DrawCommand>, _ mode: Mode) {
        let w = mode.target.width, h = mode.target.height
        if baseSize != (w, h) || base.count != w * h {
            base = [UInt32](repeating: 0, count: w * h)
            baseSize = (w, h)
        }
        base.withUnsafeMutableBufferPointer { buf in
            let t = PixelTarget(pixels: buf.baseAddress!, width: w, height: h, stride: w)
            run(commands, Mode(k: mode.k, target: t, filter: mode.filter), clip: t.whole)
        }
    }

    private func copyBase(into target: PixelTarget, _ box: PixelBox) {
        base.withUnsafeBufferPointer { buf in
            mp_copy(target.mp, mp_image(pixels: buf.baseAddress, width: Int32(baseSize.width), height: Int32(baseSize.height),
                                        stride: Int32(baseSize.width)), box.mp)
        }
    }
}
