import Platform

/// Which sprites are rasterized, and their size in points. The window answers from its
/// sprite atlas; the scene only places what is ready and asks for the rest.
public protocol SpriteAvailability {
    func size(of sprite: SpriteKey) -> ScreenSize?
}
