import CPixels
import CXlib
import MapCore
import MapGeometry
import MapTiles
import Platform

/// Executes a draw list in the X server (`XRenderFrame`): tiles and sprites are uploaded
/// once as server pictures and each frame is a few dozen composite requests, so a pan or a
/// zoom costs the app its draw list, not the window's two million pixels. The server keeps
/// the frame: one that changed only some commands (a pulse) redraws and presents only their
/// boxes.
package final class XRenderCompositor {
    let frame: XRenderFrame
    let tiles: TileStores
    let sprites: SpriteStore

    private struct TileKey: Hashable { let layer: Int; let tile: TileID }
    private struct Uploaded { let picture: UInt; let stamp: Int; var used: Int }
    private var tilePictures: [TileKey: Uploaded] = [:]
    private var spritePictures: [SpriteKey: Uploaded] = [:]
    private var frameNumber = 0

    /// What the frame in the server shows, when known: the commands, how they were drawn and
    /// the stores' counts of pictures taken in then.
    private struct Drawn: Equatable {
        let width: Int, height: Int, k: Double, filter: Bool
    }
    private var shown: (commands: [DrawCommand], how: Drawn, pictures: Int)?
    /// `shown`'s commands as where their pixels go, when a frame in motion worked them out:
    /// the next frame in motion compares with them (`ScrollDamage`) without working them out again.
    private var shownPlaced: [ScrollDamage.Placed?]?

    /// Pictures uploaded to the server.
    private(set) var uploads = 0
    /// Frames that redrew only what changed, keeping the rest of the server's frame.
    private(set) var partialFrames = 0
    /// Frames of a sliding map: the window scrolled by the slide, and only what the copy could
    /// not give drawn and presented (`ScrollDamage`).
    private(set) var scrolledFrames = 0
    /// The window was scrolled since the last whole frame: a window covered in part by
    /// another copies what it cannot see, so the first frame at rest is drawn whole.
    private var windowScrolled = false
    /// Frames drawn on the window, not into the server's frame.
    private(set) var framesOnWindow = 0

    init(frame: XRenderFrame, tiles: TileStores, sprites: SpriteStore) {
        self.frame = frame
        self.tiles = tiles
        self.sprites = sprites
    }

    deinit {
        for p in tilePictures.values { mx_picture_free(frame.raw, p.picture) }
        for p in spritePictures.values { mx_picture_free(frame.raw, p.picture) }
    }

    /// What the window shows is not known any more: the next frame presents all of it.
    func invalidate() { shown = nil }

    /// The app draws the frames for now: the server's pictures go, and the next frame drawn
    /// here is a whole one.
    package func standBy() {
        shown = nil
        guard !tilePictures.isEmpty || !spritePictures.isEmpty else { return }
        keepOnly(tiles: [], sprites: [])
    }

    /// Draws `list` into the server's frame of `size` device pixels; returns the boxes that
    /// changed (none when nothing did), for `XRenderFrame.present`.
    package func execute(_ list: DrawList, pixelRatio k: Double, size: (width: Int, height: Int), moving: Bool) -> [PixelBox] {
        let (w, h) = size
        guard w > 0, h > 0, mx_render_resize(frame.raw, Int32(clamping: w), Int32(clamping: h)) != 0 else { return [] }
        frameNumber += 1
        // At rest, scaled tiles are filtered; tiles at their own size look the same either way,
        // so the frame that ends a pan at a whole zoom need not be drawn again.
        let filter = !moving && scalesTiles(list, k)
        let how = Drawn(width: w, height: h, k: k, filter: filter)
        let pictures = tiles.generation &+ sprites.generation
        let whole = PixelBox(x0: 0, y0: 0, x1: Int32(w), y1: Int32(h))
        var boxes = [whole]
        if !moving, windowScrolled { shown = nil; windowScrolled = false }
        // In motion the frame is drawn on the window itself: a present would copy every pixel
        // drawn a second time (a fifth of the server's work in a wheel zoom). The server carries
        // out one client's requests for a frame together, so a compositing window manager
        // never shows a frame half drawn; a frame at rest is drawn into the frame and
        // presented, as before. The server's frame is then older than the window outside what
        // is drawn next, which is harmless: a present copies only boxes just drawn in full, and
        // an exposed window is drawn whole.
        mx_render_on_window(frame.raw, moving ? 1 : 0)
        if moving { framesOnWindow += 1 }
        let placed = moving ? ScrollDamage.placed(list.commands, k, width: w, height: h) : nil
        defer { shownPlaced = placed }
        if let shown, shown.how == how {
            // Pictures came in since (a tile, a label): what now draws another picture than the
            // server's frame shows is drawn again, however the rest compares. (A pan into new
            // ground takes tiles and labels in every few frames: redrawn whole then, a turned
            // one cost the server a quarter more.)
            let renewed = shown.pictures == pictures ? [] : renewedBoxes(list, k, width: w, height: h)
            if !moving {
                var damage = DamageRegion.changes(from: shown.commands[...], to: list.commands[...], k, width: w, height: h)
                for b in renewed { damage.add(b) }
                boxes = damage.boxes
            } else if let placed, let slide = ScrollDamage(from: shown.commands, shownPlaced ?? ScrollDamage.placed(shown.commands, k, width: w, height: h),
                                                            to: list.commands, placed, k, width: w, height: h, renewed: renewed) {
                // A sliding map: the window, scrolled, shows most of this frame; the rest is drawn
                // on it. (Scrolling the frame instead and presenting it whole costs the server a
                // second copy of the window a frame.)
                self.shown = (list.commands, how, pictures)
                if slide.dx != 0 || slide.dy != 0 { mx_render_scroll(frame.raw, slide.dx, slide.dy); windowScrolled = true }
                scrolledFrames += 1
                let drawn = slide.boxes
                if !drawn.isEmpty {
                    drawn.map(\.mp).withUnsafeBufferPointer { mx_render_clip(frame.raw, $0.baseAddress, Int32($0.count)) }
                    draw(list, k, size: size, filter: filter, only: drawn)
                } else {
                    // Nothing drawn, all still shown: its pictures are kept.
                    list.commands.forEach(keep)
                }
                letGo()
                return drawn
            }
        }
        shown = (list.commands, how, pictures)
        guard !boxes.isEmpty else { return [] }
        let partial = boxes != [whole]
        if partial { partialFrames += 1 }
        let clip = partial ? boxes.map(\.mp) : []
        clip.withUnsafeBufferPointer { mx_render_clip(frame.raw, $0.baseAddress, Int32($0.count)) }
        draw(list, k, size: size, filter: filter, only: partial ? boxes : nil)
        // A partial frame touches only the pictures in its boxes: the others are still shown.
        if !partial { letGo() }
        return boxes
    }

    /// The boxes of `list`'s commands whose pictures are not the server's: a tile taken in
    /// anew, a tile or sprite the server has no picture of (left out of the frame it last
    /// drew, for want of one, or let go since).
    private func renewedBoxes(_ list: DrawList, _ k: Double, width w: Int, height h: Int) -> [PixelBox] {
        var boxes: [PixelBox] = []
        for command in list.commands {
            let renewed: Bool
            switch command {
            case let .tile(id, layer, _, _, _, _):
                let stamp = tiles[layer]?.stampedSize(for: id)?.stamp
                renewed = stamp != tilePictures[TileKey(layer: layer, tile: id)]?.stamp
            case let .sprite(key, _, _), let .rotatedSprite(key, _, _, _):
                renewed = spritePictures[key] == nil
            case .clear, .fillRect:
                renewed = false
            }
            if renewed, let b = command.pixelBox(k, inside: w, h) { boxes.append(b) }
        }
        return boxes
    }

    /// Whether a tile of `list` is drawn at another size than its picture's, or from part of
    /// a texel: only then does filtering draw other pixels than the nearest texel does.
    private func scalesTiles(_ list: DrawList, _ k: Double) -> Bool {
        for case let .tile(id, layer, src, dst, _, degrees) in list.commands {
            if degrees != 0 { return true }
            guard let store = tiles[layer], let (width, height, _) = store.stampedSize(for: id) else { continue }
            let d = DeviceRect(dst, k), bw = Double(width), bh = Double(height)
            if d.width != src.width * bw || d.height != src.height * bh { return true }
            if (src.x * bw).rounded() != src.x * bw || (src.y * bh).rounded() != src.y * bh { return true }
        }
        return false
    }

    /// `only`: the boxes being redrawn; commands outside them are not sent.
    private func draw(_ list: DrawList, _ k: Double, size: (width: Int, height: Int), filter: Bool, only: [PixelBox]?) {
        let r = frame.raw, (w, h) = size
        // Only the commands over the boxes are sent (a slide's strips at the window's edges,
        // a pulse); the others are still shown (scrolled, or kept), and so are their pictures.
        let sent = only.map { only in
            list.commands.map { c in c.pixelBox(k, inside: w, h).map { b in only.contains(where: b.intersects) } ?? false }
        }
        // What opaque tiles drawn later hide is not drawn (a fallback under the map's, parents
        // under their children, the clear): the server writes each pixel about once. A tile
        // not sent hides nothing that is.
        let covers = tiles.opaqueTiles(in: list.commands[...], k, width: w, height: h, among: sent)
        var coverIndex = 0
        for (index, command) in zip(list.commands.indices, list.commands) {
            if let sent, !sent[index] { keep(command); continue }
            while coverIndex < covers.count, covers[coverIndex].index <= index { coverIndex += 1 }
            let later = covers[coverIndex...]
            switch command {
            case let .clear(c):
                // (In a partial frame the server clips these fills to its boxes: cheaper than
                // working out the parts inside each box here.)
                let whole = PixelBox(x0: 0, y0: 0, x1: Int32(w), y1: Int32(h))
                for part in whole.visibleParts(under: later) { mx_render_fill(r, part.mp, PixelCompositor.premultiplied(c.withAlpha(1)), 1) }
            case let .fillRect(rect, c):
                guard let b = DeviceRect(rect, k).box(inside: w, h) else { continue }
                mx_render_fill(r, b.mp, PixelCompositor.premultiplied(c), 0)
            case let .tile(id, layer, src, dst, opacity, degrees) where degrees != 0:
                guard DeviceRect(dst.turnedBounds(degrees), k).box(inside: w, h) != nil,
                      let (picture, bw, bh, opaque) = tilePicture(layer, id) else { continue }
                let (cx, cy) = ((dst.x + dst.width / 2) * k, (dst.y + dst.height / 2) * k)
                if opacity >= 1 {
                    mx_render_draw_turned(r, picture, src.x * bw, src.y * bh, src.width * bw, src.height * bh, cx, cy,
                                          dst.width * k, dst.height * k, degrees, filter ? 1 : 0, opaque ? 0.5 : 0,
                                          src == .full ? 1 : 0)
                } else {
                    mx_render_draw_rotated(r, picture, src.x * bw, src.y * bh, src.width * bw, src.height * bh, cx, cy,
                                           dst.width * k, dst.height * k, degrees, UInt32(Color.byte(opacity)))
                }
            case let .tile(id, layer, src, dst, opacity, _):
                let d = DeviceRect(dst, k)
                guard let box = d.box(inside: w, h), Self.shows(box, in: only, under: later),
                      let (picture, bw, bh, opaque) = tilePicture(layer, id) else { continue }
                let flags = (opaque ? UInt32(MP_OPAQUE) : 0) | (filter ? UInt32(MP_FILTER) : 0)
                mx_render_draw(r, picture, src.x * bw, src.y * bh, src.width * bw, src.height * bh, d.x0, d.y0, d.width, d.height,
                               UInt32(Color.byte(opacity)), flags)
            case let .sprite(key, dst, opacity):
                guard let (picture, bw, bh) = spritePicture(key) else { continue }
                let d = DeviceRect(sprite: dst, k, width: bw, height: bh)
                mx_render_draw(r, picture, 0, 0, bw, bh, d.x0, d.y0, d.width, d.height, UInt32(Color.byte(opacity)), UInt32(MP_FILTER))
            case let .rotatedSprite(key, dst, opacity, degrees):
                guard dst.width * k < 4 * Double(w), dst.height * k < 4 * Double(h), let (picture, bw, bh) = spritePicture(key) else { continue }
                mx_render_draw_rotated(r, picture, 0, 0, bw, bh, (dst.x + dst.width / 2) * k, (dst.y + dst.height / 2) * k,
                                       dst.width * k, dst.height * k, degrees, UInt32(Color.byte(opacity)))
            }
        }
    }

    /// Whether part of `box` that no box of `later` hides lies in `only` (anywhere when nil):
    /// a tile hidden there is not drawn (nor uploaded) only to be drawn over.
    private static func shows(_ box: PixelBox, in only: [PixelBox]?, under later: ArraySlice<(index: Int, box: PixelBox)>) -> Bool {
        guard let only else { return box.isVisible(under: later) }
        return only.contains { box.intersection($0)?.isVisible(under: later) ?? false }
    }

    /// Marks the picture `command` draws as used this frame. Only on the frames that `letGo`
    /// trims (a slide keeps dozens of pictures a frame): those mark everything they show before
    /// they trim, whatever frames went by unmarked.
    private func keep(_ command: DrawCommand) {
        guard frameNumber % Self.letGoPeriod == 0 else { return }
        switch command {
        case let .tile(id, layer, _, _, _, _):
            let key = TileKey(layer: layer, tile: id)
            if var p = tilePictures[key] { p.used = frameNumber; tilePictures[key] = p }
        case let .sprite(key, _, _), let .rotatedSprite(key, _, _, _):
            if var p = spritePictures[key] { p.used = frameNumber; spritePictures[key] = p }
        case .clear, .fillRect: break
        }
    }

    /// The server's picture of a tile, uploaded if the store has a newer one; with its size.
    /// Once uploaded, the store lets its own copy go: the server keeps the picture while the
    /// store keeps the tile (`freeTilePicture`).
    private func tilePicture(_ layer: Int, _ id: TileID) -> (UInt, Double, Double, opaque: Bool)? {
        guard let store = tiles[layer], let (width, height, stamp) = store.stampedSize(for: id) else { return nil }
        let key = TileKey(layer: layer, tile: id)
        if var p = tilePictures[key], p.stamp == stamp {
            p.used = frameNumber
            tilePictures[key] = p
            return (p.picture, Double(width), Double(height), store.isOpaque)
        }
        guard let bitmap = store.bitmap(for: id) else {
            // Held only by the server, which let it go: loaded again.
            store.dropServed(id)
            return nil
        }
        if let old = tilePictures.removeValue(forKey: key) { mx_picture_free(frame.raw, old.picture) }
        guard let picture = upload(bitmap, opaque: store.isOpaque) else { return nil }
        tilePictures[key] = Uploaded(picture: picture, stamp: stamp, used: frameNumber)
        store.letServerKeep(id, stamp: stamp)
        return (picture, Double(width), Double(height), store.isOpaque)
    }

    /// Lets the server's picture of a tile go, and the tile with it if only the server held it.
    private func freeTilePicture(_ key: TileKey, _ p: Uploaded) {
        mx_picture_free(frame.raw, p.picture)
        tilePictures.removeValue(forKey: key)
        tiles[key.layer]?.dropServed(key.tile)
    }

    private func freeSpritePicture(_ key: SpriteKey, _ p: Uploaded) {
        mx_picture_free(frame.raw, p.picture)
        spritePictures.removeValue(forKey: key)
    }

    private func spritePicture(_ key: SpriteKey) -> (UInt, Double, Double)? {
        guard let bitmap = sprites.bitmap(for: key) else { return nil }
        if var p = spritePictures[key] {
            p.used = frameNumber
            spritePictures[key] = p
            return (p.picture, Double(bitmap.width), Double(bitmap.height))
        }
        guard let picture = upload(bitmap, opaque: false) else { return nil }
        spritePictures[key] = Uploaded(picture: picture, stamp: 0, used: frameNumber)
        return (picture, Double(bitmap.width), Double(bitmap.height))
    }

    private func upload(_ b: Bitmap, opaque: Bool) -> UInt? {
        let picture = b.pixels.withUnsafeBufferPointer {
            mx_picture_upload(frame.raw, $0.baseAddress, Int32(b.width), Int32(b.height), Int32(b.width), opaque ? 1 : 0)
        }
        guard picture != 0 else { return nil }
        uploads += 1
        return picture
    }

    /// Lets the server's pictures of all other tiles and sprites go (what the view no longer
    /// uses, as the stores do at upkeep).
    /// `tiles`: those to keep, per tile layer.
    func keepOnly(tiles: [Set<TileID>], sprites keep: Set<SpriteKey>) {
        for (key, p) in tilePictures where !(tiles.indices.contains(key.layer) && tiles[key.layer].contains(key.tile)) {
            freeTilePicture(key, p)
        }
        for (key, p) in spritePictures where !keep.contains(key) { freeSpritePicture(key, p) }
    }

    /// The server keeps what recent frames drew: pictures unused for `keepFrames` frames go,
    /// past a floor of a screenful (sprites are drawn again from the store's bitmaps; tiles
    /// held only by the server are loaded again when wanted).
    static let keepFrames = 120
    static let floor = 48
    /// Every how many frames `letGo` trims.
    static let letGoPeriod = 30

    private func letGo() {
        guard frameNumber % Self.letGoPeriod == 0 else { return }
        let cutoff = frameNumber - Self.keepFrames
        func trim<K: Hashable>(_ pictures: [K: Uploaded], _ free: (K, Uploaded) -> Void) {
            guard pictures.count > Self.floor else { return }
            for (key, p) in pictures where p.used < cutoff { free(key, p) }
        }
        trim(tilePictures, freeTilePicture)
        trim(spritePictures, freeSpritePicture)
    }
}
