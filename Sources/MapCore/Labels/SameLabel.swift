import MapGeometry
import Platform

/// When a label in one frame is the same label in another: the same name (or icon) placed the
/// same way (a place, at a point, along a line), and within `tolerance` points of where the map
/// took it. One rule for the memory that holds labels in place, the fades, and the bench's
/// count of labels that moved — were they to differ, a label could be held but faded in again,
/// or counted as moved though it was held.
public struct SameLabel: Hashable, Sendable {
    /// How a label is placed, in the rule's terms: a street's name is never its stop's.
    public enum Kind: Hashable, Sendable { case place, point, line }

    public let identity: String
    public let kind: Kind

    /// Points apart on screen (after the map's move) within which two of one key are one label:
    /// text snapped to whole points, a zoom's rounding and a line label's slide along its street
    /// stay within it; two towns of one name do not.
    public static let tolerance = 6.0

    public init(_ place: PlaceLabel) {
        identity = place.identity
        switch place.placement {
        case .place: kind = .place
        case .point: kind = .point
        case .line: kind = .line
        }
    }

    public init(_ label: PlacedLabel) { self.init(label.place) }

    /// Whether `a` and `b` (screen points at one camera) are near enough to be one label.
    public static func near(_ a: ScreenPoint, _ b: ScreenPoint) -> Bool {
        abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
    }
}
