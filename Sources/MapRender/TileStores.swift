import MapCore
import Platform

/// The tile pictures a compositor draws from, one store per tile layer (by its index in the
/// scene's stack); a layer's store comes when its tiles are first wanted.
package final class TileStores {
    private(set) var stores: [TextureStore?]

    init(count: Int) { stores = Array(repeating: nil, count: count) }

    func set(_ store: TextureStore?, at layer: Int) { stores[layer] = store }

    package subscript(layer: Int) -> TextureStore? { stores.indices.contains(layer) ? stores[layer] : nil }

    /// Counts pictures taken in by any layer (see `TextureStore.generation`).
    var generation: Int { stores.reduce(0) { $0 &+ ($1?.generation ?? 0) } }
}

extension TileStores {
    /// The tiles of `commands` drawn at full opacity with an opaque picture, in order, with
    /// the pixels of a `width`×`height` frame each covers (its edges are whole pixels, so its
    /// box is exactly the pixels it draws): what hides everything drawn before it there.
    /// `among`: only the commands marked true (indexed as `commands` are).
    func opaqueTiles(in commands: ArraySlice<DrawCommand>, _ k: Double, width: Int, height: Int,
                     among chosen: [Bool]? = nil) -> [(index: Int, box: PixelBox)] {
        zip(commands.indices, commands).compactMap { index, command in
            if let chosen, !chosen[index] { return nil }
            // A turned tile covers no whole box of pixels: it hides nothing here.
            guard case let .tile(id, layer, _, dst, opacity, 0) = command, opacity >= 1, let store = self[layer], store.isOpaque,
                  store.hasPixels(id), let box = DeviceRect(dst, k).box(inside: width, height) else { return nil }
            return (index, box)
        }
    }
}

extension PixelBox {
    /// The parts of the box that no box of `later` covers.
    func visibleParts(under later: ArraySlice<(index: Int, box: PixelBox)>) -> [PixelBox] {
        let over = later.lazy.map(\.box).filter { $0.intersects(self) }
        return over.isEmpty ? [self] : uncovered(by: Array(over))
    }

    /// Whether some of the box is outside every box of `later`; known without making the parts
    /// when none lies over it, as mostly none does.
    func isVisible(under later: ArraySlice<(index: Int, box: PixelBox)>) -> Bool {
        !later.contains { $0.box.intersects(self) } || !visibleParts(under: later).isEmpty
    }
}
