import FoundationEssentials
import Glibc
import MapCore
import MapGraphics
import MapTiles
import Platform

/// Sprites (text, dots) rasterized once with Cairo/Pango and packed into one atlas texture
/// in shelves (rows of similar height). The window has them drawn by a `SpriteRasterizer`
/// and uploads what it finished after each present; `render` draws them here, at once.
/// What is not ready yet is simply not drawn until a later frame. For the software compositor
/// (no renderer) sprites stay premultiplied bitmaps, least recently drawn dropped first.
public final class SpriteStore: SpriteAvailability {
    private struct Entry {
        let rect: TextureRect
        let size: ScreenSize
    }
    private struct Shelf {
        let y: Int32
        let height: Int32
        var x: Int32
    }

    private let device: (any TextureDevice)?
    private let pixelRatio: Double
    /// The software compositor's sprites; they are drawn again when needed after eviction.
    /// A full window of labels is about a MiB; this keeps several views' worth.
    private var bitmaps = LRUCache<SpriteKey, Bitmap>(capacity: 8 << 20)
    /// Counts sprites taken in.
    private(set) var generation = 0
    private let side: Int32
    private var page: DeviceTexture?
    private var entries: [SpriteKey: Entry] = [:]
    private var shelves: [Shelf] = []
    private var failed = Set<SpriteKey>()

    /// `device`: where the atlas is made on the GPU (SDL's renderer); nil keeps bitmaps for the
    /// software compositors.
    package init(device: (any TextureDevice)?, pixelRatio: Double) {
        self.device = device
        self.pixelRatio = pixelRatio
        side = Int32(min(4096, 1024 * max(1, Int(saturating: pixelRatio.rounded(.up)))))
    }

    /// Software sprites held, and the bytes they take (what the memory account reads).
    public var held: (count: Int, bytes: Int) { (bitmaps.count, bitmaps.totalCost) }
    public func size(of sprite: SpriteKey) -> ScreenSize? {
        if device == nil {
            return bitmaps.peek(sprite).map { ScreenSize(width: Double($0.width) / pixelRatio, height: Double($0.height) / pixelRatio) }
        }
        return entries[sprite]?.size ?? largeSizes[sprite]
    }

    /// Lets go of the software sprites but those of `keep` (drawn lately); the bytes freed.
    /// A label that comes back is drawn again off the frame thread.
    func keepOnly(_ keep: Set<SpriteKey>) -> Int {
        guard device == nil else { return 0 }
        let before = bitmaps.totalCost
        for key in bitmaps.keysByRecency where !keep.contains(key) { bitmaps.removeValue(for: key) }
        return before - bitmaps.totalCost
    }

    /// The sprite's premultiplied pixels (software compositor), marking it recently used.
    func bitmap(for sprite: SpriteKey) -> Bitmap? { bitmaps.value(for: sprite) }

    package func texture(for sprite: SpriteKey) -> (DeviceTexture, TextureRect)? {
        if let big = large[sprite] { return (big, TextureRect(x: 0, y: 0, w: Int32(big.width), h: Int32(big.height))) }
        guard let e = entries[sprite], let page else { return nil }
        return (page, e.rect)
    }

    /// Sprites taller than this (circles, halos) have textures of their own; text stays shelved.
    private var large: [SpriteKey: DeviceTexture] = [:]
    private var largeSizes: [SpriteKey: ScreenSize] = [:]
    static let largeHeight = 96

    /// Rasterizes the wanted sprites not drawn yet, here and now (`render`, and the window's
    /// first few overlay sprites). Returns how many it made; sprites that fail are not tried again.
    @discardableResult
    public func prepare(_ wanted: [SpriteKey]) -> Int {
        var made = 0
        for key in missing(wanted) {
            do { try add(key, bitmap: rasterize(key)); made += 1 } catch { failed.insert(key) }
        }
        return made
    }

    /// Of `wanted`, the sprites not drawn yet (and not known to fail), in the same order.
    package func missing(_ wanted: [SpriteKey]) -> [SpriteKey] {
        wanted.filter { size(of: $0) == nil && !failed.contains($0) }
    }

    /// Uploads a sprite the rasterizer finished; one it could not draw is not asked for again.
    package func accept(_ result: SpriteRasterizer.Result) {
        guard size(of: result.key) == nil else { return }
        guard let bitmap = result.bitmap else { failed.insert(result.key); return }
        do { try add(result.key, bitmap: bitmap) } catch { failed.insert(result.key) }
    }

    private func rasterize(_ key: SpriteKey) throws -> Bitmap {
        try SpritePainters.paint(key, pixelRatio: pixelRatio)
    }

    private func add(_ key: SpriteKey, bitmap source: Bitmap) throws {
        generation &+= 1
        var bitmap = source
        guard let device else {
            bitmap.convert(to: .argb)
            bitmaps.insert(bitmap, for: key, cost: bitmap.byteCount + 64)
            return
        }
        bitmap.unpremultiply()
        bitmap.convert(to: device.textureOrder)
        let w = Int32(bitmap.width), h = Int32(bitmap.height)
        if h > Self.largeHeight || w >= side {
            let tex = try device.makeTexture(bitmap)
            large[key] = tex
            largeSizes[key] = ScreenSize(width: Double(w) / pixelRatio, height: Double(h) / pixelRatio)
            return
        }
        guard w + 1 <= side, h + 1 <= side else { throw RenderError("sprite too large") }
        if page == nil { page = try device.makePage(width: Int(side), height: Int(side), blended: true) }
        guard let origin = allocate(w + 1, h + 1) else {
            // Full: start over; what is on screen is rasterized again in the next frames.
            entries.removeAll()
            shelves.removeAll()
            return try add(key, bitmap: source)
        }
        let rect = TextureRect(x: origin.x, y: origin.y, w: w, h: h)
        // (A failed upload leaves the sprite blank, as it always has: it is not tried again.)
        try? bitmap.pixels.withUnsafeBytes { try device.upload($0, rowBytes: Int(w) * 4, into: page!, at: rect) }
        entries[key] = Entry(rect: rect, size: ScreenSize(width: Double(w) / pixelRatio, height: Double(h) / pixelRatio))
    }

    /// A spot for a w×h box: on a shelf of about that height with room, or on a new shelf.
    private func allocate(_ w: Int32, _ h: Int32) -> (x: Int32, y: Int32)? {
        let height = (h + 3) / 4 * 4
        if let i = shelves.firstIndex(where: { $0.height == height && $0.x + w <= side }) {
            let x = shelves[i].x
            shelves[i].x += w
            return (x, shelves[i].y)
        }
        let y = shelves.last.map { $0.y + $0.height } ?? 0
        guard y + height <= side else { return nil }
        shelves.append(Shelf(y: y, height: height, x: w))
        return (0, y)
    }
}
