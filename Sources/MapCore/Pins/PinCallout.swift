import FoundationEssentials
import Glibc
import Platform
import MapGeometry

/// How a callout's title shows: plain, being typed (with a caret), or just opened for
/// renaming, with the whole title selected (typing replaces it).
public enum CalloutEditing: Hashable, Sendable {
    case none, caret, selectedAll
}

/// The bubble above a selected pin: its layout in points (shared by the scene, which places
/// it and hit-tests its title, and the painter, which draws it) and what it says.
public enum PinCallout {
    public static let padding = 10.0
    public static let titleHeight = 20.0
    public static let detailHeight = 16.0
    /// The little triangle pointing down at the pin.
    public static let arrowHeight = 8.0
    public static let minWidth = 120.0
    public static let maxWidth = 360.0
    /// Between the callout's arrow and the pin's head.
    public static let gap = 2.0
    // TRANSLATORS: a pin's callout title when the pin has no title.
    public static let untitled: String = tr("Untitled pin")

    public static var height: Double { 2 * padding + titleHeight + detailHeight + arrowHeight }

    /// "48.85660° N, 2.35220° E": five decimals are about a metre.
    public static func detail(for c: Coordinate) -> String {
        String(cFormat: "%.5f° ", abs(c.latitude)) + (c.latitude < 0 ? "S" : "N") + ", "
            + String(cFormat: "%.5f° ", abs(c.longitude)) + (c.longitude < 0 ? "W" : "E")
    }

    /// What is there and where: "Aleksanterinkatu 52, Kluuvi · 60.16867° N, 24.94193° E".
    public static func detail(for c: Coordinate, whereabouts: String?) -> String {
        guard let w = whereabouts, !w.isEmpty else { return detail(for: c) }
        let place = w.count > 40 ? String(w.prefix(39)) + "…" : w
        return place + " · " + detail(for: c)
    }

    /// The sprite for `pin`'s callout, showing `editing` text with a caret while renaming.
    public static func sprite(for pin: Pin, editing: String?, selectedAll: Bool = false, whereabouts: String? = nil) -> SpriteKey {
        let detail = detail(for: pin.coordinate, whereabouts: whereabouts)
        if let text = editing {
            return .callout(title: text, detail: detail, editing: selectedAll ? .selectedAll : .caret)
        }
        return .callout(title: pin.title.isEmpty ? untitled : pin.title, detail: detail, editing: .none)
    }
}
