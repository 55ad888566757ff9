import Platform

/// How a label's text and icon turn when the map turns (MapLibre's text-rotation-alignment and
/// icon-rotation-alignment, `auto` resolved by the placement): with the map, or upright on
/// the screen. On a north-up map the two look alike; on a turned one a name at a point stays
/// level while a map-aligned icon (an arrow painted on the ground) turns with the streets.
public struct LabelAlignment: Hashable, Sendable {
    public enum Turn: Hashable, Sendable {
        /// Turned with the map (along a line: with the line).
        case map
        /// Level on the screen (along a line: the whole text level at its spot on the line).
        case viewport
        /// Along a line, each letter level on the screen where it sits on the line.
        case viewportGlyph
    }

    public var text: Turn
    public var icon: Turn

    public init(text: Turn, icon: Turn) { self.text = text; self.icon = icon }

    /// MapLibre's defaults (`auto`): with the line along a line, level at a point.
    public static func standard(alongLine: Bool) -> LabelAlignment {
        alongLine ? LabelAlignment(text: .map, icon: .map) : LabelAlignment(text: .viewport, icon: .viewport)
    }

    /// A style's value ("map", "viewport", "viewport-glyph", "auto"; anything else is `auto`):
    /// `auto` is map along a line and viewport at a point. Icons have no per-glyph alignment:
    /// "viewport-glyph" for an icon is taken as "viewport".
    public static func turn(_ value: String?, alongLine: Bool, icon: Bool = false) -> Turn {
        switch value {
        case "map": .map
        case "viewport": .viewport
        case "viewport-glyph": icon ? .viewport : (alongLine ? .viewportGlyph : .viewport)
        default: alongLine ? .map : .viewport
        }
    }
}
