import Foundation

/// How a piece of text is drawn.
public enum TextStyle: Hashable, Sendable {
    case place
    case capital
    case majorPlace
    case chrome
    /// A message for the user at the top of the window.
    case notice
}

/// Something drawn once and then placed by the compositor: text, dots, halos.
public enum SpriteKey: Hashable, Sendable {
    case text(String, TextStyle)
    /// The small dot marking a place.
    case placeDot(capital: Bool)
    /// A filled, stroked circle rasterized at `radius` points, scaled and faded when placed.
    case pulseCircle(CircleStyle, radius: Int)
    /// The translucent accuracy disc under the location dot.
    case accuracyDisc(Color, radius: Int)
    /// The location halo rasterized at `HaloPulse.rasterFractions[raster]` of its full size.
    case halo(Color, raster: Int)
    /// The 23-point "you are here" dot with its white ring and soft shadow.
    case locationDot(Color)
    /// A cone of light pointing north, rotated to the heading when placed.
    case headingCone(Color)
    /// A pin's image, head and needle, its tip at the bottom centre (`Pin.imageSize`).
    case pin(Color)
    /// The soft shadow a pin casts on the ground (`Pin.shadowSize`, tip at `Pin.shadowTip`).
    case pinShadow
    /// A bubble standing for many crowded pins, with their count.
    case pinCluster(String)
    /// The mark on the ground where a carried pin will land.
    case pinGroundMark
    /// A selected pin's bubble: title (with a caret while `editing`) over its coordinates.
    case callout(title: String, detail: String, editing: CalloutEditing)

    /// Raster radius (points) for a circle drawn up to `radius` points: the next power of two,
    /// so that a circle is scaled down at most 2× and a few rasters serve every zoom.
    public static func circleBucket(forRadius radius: Double) -> Int {
        // Clamped first: a circle at the pole is infinitely many points wide.
        let r = radius.isNaN ? 4 : min(max(radius, 4), 256)
        return 1 << Int(log2(r).rounded(.up))
    }
}

/// Which sprites are rasterized, and their size in points. The window answers from its
/// sprite atlas; the scene only places what is ready and asks for the rest.
public protocol SpriteAvailability {
    func size(of sprite: SpriteKey) -> ScreenSize?
}
