import Foundation

/// How a piece of text is drawn.
public enum TextStyle: Hashable, Sendable {
    case place
    case capital
    case majorPlace
    case chrome
}

/// Something drawn once and then placed by the compositor: text, dots, halos.
public enum SpriteKey: Hashable, Sendable {
    case text(String, TextStyle)
    /// The small dot marking a place.
    case placeDot(capital: Bool)
}

/// Which sprites are rasterized, and their size in points. The window answers from its
/// sprite atlas; the scene only places what is ready and asks for the rest.
public protocol SpriteAvailability {
    func size(of sprite: SpriteKey) -> ScreenSize?
}
