import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// A pin on the map: where, what it is called, what colour its head is. `id` is stable
/// across saves, so edits, undo and other programs can refer to the same pin.
public struct Pin: Hashable, Sendable, Identifiable {
    public var id: String
    public var coordinate: Coordinate
    public var title: String
    public var color: Color

    public init(id: String = UUID().uuidString.lowercased(), coordinate: Coordinate, title: String,
                color: Color = Color(hex: 0xFF3B30)) {
        self.id = id
        self.coordinate = coordinate
        self.title = title
        self.color = color
    }

    /// The pin's image, in points: the head sits on a needle whose tip is the coordinate.
    public static let imageSize = ScreenSize(width: 22, height: 36)
    /// The shadow's image, and where in it the needle's tip stands: the shadow falls to the
    /// right, as from a light high up on the left.
    public static let shadowSize = ScreenSize(width: 30, height: 12)
    public static let shadowTip = ScreenPoint(x: 9, y: 6)
    public static let groundMarkSize = 12.0
    /// Presses this close count as pressing the pin — wider than the image, as a finger or
    /// an imprecise hand needs (at least 44 × 44 points).
    public static let hitSize = ScreenSize(width: 44, height: 52)

    /// The hit area of a pin whose tip is at `tip`: the image, widened, biased upwards.
    public static func hitRect(tip: ScreenPoint) -> ScreenRect {
        ScreenRect(x: tip.x - hitSize.width / 2, y: tip.y - hitSize.height + 8, width: hitSize.width, height: hitSize.height)
    }
}
