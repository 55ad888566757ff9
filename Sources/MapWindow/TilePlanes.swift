import MapCore

/// The tile pictures a compositor draws from: the map's own, and the plane under them (the
/// embedded basemap under online tiles), when there is one.
struct TilePlanes {
    let main: TextureStore
    let under: TextureStore?

    subscript(plane: TilePlane) -> TextureStore? {
        switch plane {
        case .main: return main
        case .under: return under
        }
    }

    /// Counts pictures taken in by either plane (see `TextureStore.generation`).
    var generation: Int { main.generation &+ (under?.generation ?? 0) }
}

extension TilePlanes {
    /// The tiles of `commands` drawn at full opacity with a picture, in order, with the pixels
    /// of a `width`×`height` frame each covers (its edges are whole pixels, so its box is
    /// exactly the pixels it draws): what hides everything drawn before it there.
    func opaqueTiles(in commands: ArraySlice<DrawCommand>, _ k: Double, width: Int, height: Int) -> [(index: Int, box: PixelBox)] {
        zip(commands.indices, commands).compactMap { index, command in
            guard case let .tile(id, plane, _, dst, opacity) = command, opacity >= 1, self[plane]?.hasPixels(id) == true,
                  let box = DeviceRect(dst, k).box(inside: width, height) else { return nil }
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
}
