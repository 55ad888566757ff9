import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapTiles
import Platform

/// Tile pictures, bounded in bytes, least recently drawn evicted first: on the GPU, tiles of
/// the usual size live in atlas slots and odd sizes get their own texture; for the software
/// compositor (no renderer) they are the workers' bitmaps as they are. Answers the scene's
/// "is this tile ready?".
public final class TextureStore: TileAvailability {
    enum Entry {
        case slot(TextureAtlas.Slot, [PlaceLabel])
        case texture(DeviceTexture, [PlaceLabel])
        /// `stamp`: the `generation` it came in at, which tells pictures of a tile apart.
        case pixels(Bitmap, [PlaceLabel], stamp: Int)
        /// Its picture (`width`×`height`) lives in the X server only (`letServerKeep`).
        case served(width: Int, height: Int, [PlaceLabel], stamp: Int)
        /// The source has no tile here: settled, nothing to draw.
        case empty
        /// The source has no tile here: drawn as the part of this ancestor's picture over it.
        case ancestor(TileID)
    }

    private var cache: LRUCache<TileID, Entry>
    private let device: (any TextureDevice)?
    private let atlas: TextureAtlas?
    /// Counts pictures taken in: the same tiles drawn with another count may look different.
    private(set) var generation = 0
    /// Changes with tiles coming and going (see `TileAvailability.placesRevision`). Drawn from
    /// one count for every store, so that a new store (another map) never repeats an old
    /// one's revision to a memo that outlived it.
    public private(set) var placesRevision: Int? = TextureStore.nextRevision()
    /// Changes with tiles coming, going and turning older (`TileAvailability.layoutRevision`).
    public private(set) var layoutRevision: Int? = TextureStore.nextRevision()
    private func revise() {
        placesRevision = Self.nextRevision()
        layoutRevision = placesRevision
    }
    private static let revisions = Lock()
    nonisolated(unsafe) private static var lastRevision = 0 // under `revisions`
    private static func nextRevision() -> Int {
        revisions.lock(); defer { revisions.unlock() }
        lastRevision &+= 1
        return lastRevision
    }

    /// `viewport` (in device pixels) sizes the atlas: room for every tile a view of that size
    /// can show at any fractional zoom, with its ring of prefetched tiles, one and a half times
    /// (a wheel zoom goes through several levels and back). At rest the host keeps only the
    /// tiles in use (`keepOnly`): the room is for motion.
    /// Enough candidates per tile that small capitals, which mostly collide away, cannot
    /// crowd out big cities; few enough that a frame never sorts thousands.
    static let placesPerTile = 40
    /// A street map's tile names its streets, squares and shops as well as its places.
    static let styledLabelsPerTile = 120

    /// Whether its pictures hide what is drawn under them.
    public let isOpaque: Bool

    /// Tiles kept from before `invalidate`: shown until their new pictures arrive.
    private var stale = Set<TileID>()

    /// `device`: where the GPU's textures are made (SDL's renderer); nil keeps bitmaps for the
    /// software compositors.
    /// `ring`: room for the ring of prefetched tiles too (a fallback layer has none).
    /// `opaque`: the pictures cover what is below them (laid over a colour on the worker), so
    /// they are copied; else blended (an overlay's).
    package init(device: (any TextureDevice)?, tilePixels: Int, viewport: (width: Int, height: Int),
                capacityBytes: Int = 192 << 20, ring: Bool = true, opaque: Bool = true) {
        self.device = device
        isOpaque = opaque
        // At zoom n.49 tiles are shown at 1/√2 of their size.
        let shown = Double(tilePixels) / 2.0.squareRoot()
        let margin = ring ? 3 : 1
        let cols = Int(saturating: (Double(viewport.width) / shown).rounded(.up)) + margin
        let rows = Int(saturating: (Double(viewport.height) / shown).rounded(.up)) + margin
        let slots = cols * rows * (ring ? 3 : 2) / 2
        if let device {
            let pages = TextureAtlas.pages(forSlots: slots, tileSize: tilePixels)
            atlas = TextureAtlas(device: device, tileSize: tilePixels, maxPages: pages, opaque: opaque)
            cache = LRUCache(capacity: capacityBytes)
        } else {
            // Bitmaps for that many tiles.
            atlas = nil
            cache = LRUCache(capacity: min(capacityBytes, slots * tilePixels * tilePixels * 4))
        }
    }

    /// Makes an atlas page, in the slack after a present, before the free slots run out
    /// (a frame uploads a few tiles, so a dozen free slots are enough warning).
    public func prepareSlots() { atlas?.grow(reserve: 12) }

    /// Pictures held, and the bytes they take (what the memory account reads).
    public var held: (count: Int, bytes: Int) { (cache.count, cache.totalCost) }
    public var isEmpty: Bool { cache.count == 0 }
    public func isReady(_ tile: TileID) -> Bool { cache.contains(tile) }

    public func isCurrent(_ tile: TileID) -> Bool { cache.contains(tile) && !stale.contains(tile) }

    /// Every tile held becomes an older picture: still drawn, but asked for again.
    public func invalidate() {
        stale = Set(cache.keysByRecency)
        layoutRevision = Self.nextRevision()
    }

    /// Marks the tiles held for which `touched` is true to be drawn anew (still shown until then).
    public func invalidate(where touched: (TileID) -> Bool) {
        stale.formUnion(cache.keysByRecency.filter(touched))
        layoutRevision = Self.nextRevision()
    }

    public func hasPixels(_ tile: TileID) -> Bool {
        switch cache.peek(tile) {
        case .slot?, .texture?, .pixels?, .served?: return true
        default: return false
        }
    }

    public func drawnFrom(_ tile: TileID) -> TileID? {
        if case let .ancestor(a)? = cache.peek(tile) { return a }
        return nil
    }

    public func places(in tile: TileID) -> [PlaceLabel] {
        switch cache.peek(tile) {
        case let .slot(_, p)?, let .texture(_, p)?, let .pixels(_, p, _)?, let .served(_, _, p, _)?: return p
        default: return []
        }
    }


    /// The texture and the part of it holding the tile, marking it recently used; nil when empty.
    package func texture(for tile: TileID) -> (DeviceTexture, TextureRect)? {
        switch cache.value(for: tile) {
        case let .slot(s, _)?: return atlas.map { ($0.texture(s), $0.sourceRect(s)) }
        case let .texture(t, _)?: return (t, TextureRect(x: 0, y: 0, w: Int32(t.width), h: Int32(t.height)))
        default: return nil
        }
    }

    /// The tile's opaque pixels (software compositor), marking it recently used; nil when empty
    /// or held only by the X server.
    func bitmap(for tile: TileID) -> Bitmap? {
        if case let .pixels(b, _, _)? = cache.value(for: tile) { return b }
        return nil
    }

    /// The size and stamp of the tile's picture, in the app or only in the X server; marks
    /// it recently used. Another stamp, another picture of the tile.
    func stampedSize(for tile: TileID) -> (width: Int, height: Int, stamp: Int)? {
        switch cache.value(for: tile) {
        case let .pixels(b, _, stamp)?: return (b.width, b.height, stamp)
        case let .served(w, h, _, stamp)?: return (w, h, stamp)
        default: return nil
        }
    }

    /// The X server holds the tile's picture (stamp `stamp`): the app lets its own copy go, a
    /// quarter MiB a tile that was kept twice. The server's frames draw it from then on; the
    /// app's own compositor cannot (`dropServed`, and the tile is loaded again).
    func letServerKeep(_ tile: TileID, stamp: Int) {
        guard case let .pixels(b, places, s)? = cache.peek(tile), s == stamp else { return }
        // The same places: no new revision for the labels.
        put(.served(width: b.width, height: b.height, places, stamp: s), for: tile, cost: 64)
    }

    /// The X server let go of the tile's picture (or the app draws from now on): a tile held
    /// only there goes, and is loaded again when wanted. True if it went.
    @discardableResult
    func dropServed(_ tile: TileID) -> Bool {
        guard case .served? = cache.peek(tile) else { return false }
        revise()
        cache.removeValue(for: tile)
        stale.remove(tile)
        return true
    }

    /// Takes one loader result. Failed tiles stay un-ready so parents keep covering them;
    /// the failure message is returned for the user.
    public func accept(_ result: TileResult) -> String? {
        switch result.outcome {
        case .bitmap(var bitmap, let tilePlaces):
            // Sorted and cut by the worker (TileRasterizer); no more than fit in a tile are
            // kept, so a frame never sorts thousands.
            let places = tilePlaces
            generation &+= 1
            guard let atlas, let device else {
                // The software compositor blends premultiplied pixels, as Cairo draws them.
                insert(.pixels(bitmap, places, stamp: generation), for: result.tile, cost: bitmap.byteCount)
                return nil
            }
            // SDL blends straight alpha (an overlay's pictures; opaque ones are the same either way).
            bitmap.unpremultiply()
            do {
                if bitmap.width == atlas.tileSize && bitmap.height == atlas.tileSize {
                    var slot = try atlas.upload(bitmap)
                    // Full: recycle the slot of the tile drawn least recently.
                    while slot == nil, evictLeastRecentSlot() { slot = try atlas.upload(bitmap) }
                    // TRANSLATORS: %@ is the tile (zoom/x/y).
                    guard let slot else { return tr("tile %@: no texture space", result.tile) }
                    insert(.slot(slot, places), for: result.tile, cost: atlas.bytesPerSlot)
                } else {
                    let tex = try device.makeTexture(bitmap)
                    insert(.texture(tex, places), for: result.tile, cost: tex.byteCount)
                }
                return nil
            } catch {
                // TRANSLATORS: the tile (zoom/x/y), then what went wrong.
                return tr("tile %@: %@", result.tile, error)
            }
        case .empty:
            insert(.empty, for: result.tile, cost: 64)
            return nil
        case let .fromAncestor(a):
            insert(.ancestor(a), for: result.tile, cost: 64)
            return nil
        case let .failed(message):
            return message
        }
    }

    private func evictLeastRecentSlot() -> Bool {
        revise()
        while let (_, e) = cache.removeLeastRecent() {
            if case let .slot(s, _) = e { atlas?.release(s); return true }
        }
        return false
    }

    private func insert(_ e: Entry, for tile: TileID, cost: Int) {
        revise()
        // A tile that turns empty (or its ancestor's part) under the same id changes the picture too.
        switch e { case .empty, .ancestor: generation &+= 1; default: break }
        stale.remove(tile)
        if case let .slot(old, _)? = cache.peek(tile) { atlas?.release(old) }
        put(e, for: tile, cost: cost)
    }

    /// Holds `e` for the tile; the atlas slots of tiles it evicts go back.
    private func put(_ e: Entry, for tile: TileID, cost: Int) {
        let evicted = cache.insert(e, for: tile, cost: cost)
        if !evicted.isEmpty { revise() }
        for (_, e) in evicted { if case let .slot(s, _) = e { atlas?.release(s) } }
    }

    /// Lets go of every picture but those of `keep` (the tiles in use lately); the bytes freed.
    /// The software compositor's only.
    @discardableResult
    public func keepOnly(_ keep: Set<TileID>) -> Int {
        // Atlas pages stay allocated whatever they hold: on the GPU, letting a tile go only
        // means uploading it again.
        guard atlas == nil else { return 0 }
        let before = cache.totalCost
        revise()
        for key in cache.keysByRecency where !keep.contains(key) {
            cache.removeValue(for: key)
            stale.remove(key)
        }
        return before - cache.totalCost
    }

    public func removeAll() {
        for key in cache.keysByRecency { if case let .slot(s, _)? = cache.peek(key) { atlas?.release(s) } }
        cache.removeAll()
        stale.removeAll()
        revise()
    }
}
