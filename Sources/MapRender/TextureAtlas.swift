import FoundationEssentials
import Glibc
import MapTiles
import Platform

/// Large textures cut into equal slots, one tile each. Creating a texture costs ~0.85 ms on
/// Mesa's llvmpipe while updating part of one costs a fraction of that, so tiles are
/// uploaded into slots of pages made once. Each slot has a 1-pixel border copied from the
/// tile's edge, so linear filtering never samples a neighbouring tile.
final class TextureAtlas {
    struct Slot: Hashable {
        let page: Int
        let x: Int32
        let y: Int32
    }

    let tileSize: Int
    private let slotSize: Int
    private let slotsPerSide: Int
    private let device: any TextureDevice
    private(set) var pages: [DeviceTexture] = []
    private var free: [Slot] = []
    private var padded: [UInt32]

    /// At most this many pages: the atlas has a fixed budget, and when it is spent full
    /// pages recycle slots instead of growing.
    let maxPages: Int

    /// Pages are made as tiles need them, so a small window or a still map holds one or two.
    /// About 2064 pixels wide (8×8 slots for 256-pixel tiles, 17 MiB): on llvmpipe one takes
    /// 6.5–14 ms to create and a quarter-size one ~3 ms, so fewer, larger pages cost fewer
    /// slow frames; one twice as wide takes twenty times longer.
    static let pageSide = 2064

    /// Whether its pictures are copied (opaque tiles) or blended (an overlay's, straight alpha).
    private let opaque: Bool

    init(device: any TextureDevice, tileSize: Int, maxPages: Int, opaque: Bool = true) {
        self.opaque = opaque
        self.device = device
        self.tileSize = tileSize
        slotSize = tileSize + 2
        slotsPerSide = max(1, Self.pageSide / slotSize)
        self.maxPages = max(1, maxPages)
        padded = [UInt32](repeating: 0, count: slotSize * slotSize)
    }

    var bytesPerSlot: Int { slotSize * slotSize * 4 }

    /// The region of the page that holds the tile itself (inside the border).
    func sourceRect(_ slot: Slot) -> TextureRect {
        TextureRect(x: slot.x + 1, y: slot.y + 1, w: Int32(tileSize), h: Int32(tileSize))
    }

    func texture(_ slot: Slot) -> DeviceTexture { pages[slot.page] }

    /// Pages needed for `slots` tiles.
    static func pages(forSlots slots: Int, tileSize: Int) -> Int {
        let side = max(1, pageSide / (tileSize + 2))
        return (slots + side * side - 1) / (side * side)
    }

    /// Copies a tile-sized, straight-alpha bitmap into a free slot; nil when the atlas is full
    /// (the caller evicts something and tries again).
    func upload(_ source: Bitmap) throws -> Slot? {
        precondition(source.width == tileSize && source.height == tileSize)
        var bitmap = source
        bitmap.convert(to: device.textureOrder) // done by the worker already; a no-op then
        if free.isEmpty {
            guard pages.count < maxPages else { return nil }
            try addPage()
        }
        let slot = free.removeLast()
        let n = tileSize, s = slotSize
        bitmap.pixels.withUnsafeBufferPointer { src in
            padded.withUnsafeMutableBufferPointer { dst in
                for row in 0..<s {
                    let sy = min(max(row - 1, 0), n - 1)
                    let d = row * s
                    dst[d] = src[sy * n]
                    UnsafeMutableRawPointer(dst.baseAddress! + d + 1)
                        .copyMemory(from: src.baseAddress! + sy * n, byteCount: n * 4)
                    dst[d + s - 1] = src[sy * n + n - 1]
                }
            }
        }
        let rect = TextureRect(x: slot.x, y: slot.y, w: Int32(s), h: Int32(s))
        do {
            try padded.withUnsafeBytes { try device.upload($0, rowBytes: s * 4, into: pages[slot.page], at: rect) }
        } catch {
            free.append(slot)
            throw error
        }
        return slot
    }

    func release(_ slot: Slot) { free.append(slot) }

    /// Adds a page (within the budget) when fewer than `reserve` slots are free, so pages are
    /// made a little ahead of need, in the slack after a present rather than inside a frame.
    /// True if it added one.
    @discardableResult
    func grow(reserve: Int) -> Bool {
        guard free.count < reserve, pages.count < maxPages else { return false }
        return (try? addPage()) != nil
    }

    private func addPage() throws {
        let side = slotsPerSide * slotSize
        // Opaque tiles (laid over the map's colour on the worker) are copied, not blended.
        let texture = try device.makePage(width: side, height: side, blended: !opaque)
        let page = pages.count
        pages.append(texture)
        for j in (0..<slotsPerSide).reversed() {
            for i in (0..<slotsPerSide).reversed() {
                free.append(Slot(page: page, x: Int32(i * slotSize), y: Int32(j * slotSize)))
            }
        }
    }
}
