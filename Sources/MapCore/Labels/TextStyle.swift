import Platform

/// How a piece of text is drawn.
public enum TextStyle: Hashable, Sendable {
    case place
    case capital
    case majorPlace
    case chrome
    /// A message for the user at the top of the window.
    case notice
    /// Lines of text in a callout (a track's statistics).
    case callout
    /// A label as a map style draws it.
    case styled(LabelLook)
}
