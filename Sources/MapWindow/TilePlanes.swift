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
