import FoundationEssentials
import Glibc

public enum MouseButton: Hashable, Sendable { case left, middle, right, other }

public struct KeyModifiers: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let shift = KeyModifiers(rawValue: 1)
    public static let control = KeyModifiers(rawValue: 2)
    public static let alt = KeyModifiers(rawValue: 4)
    public static let gui = KeyModifiers(rawValue: 8)
}

public enum Key: Hashable, Sendable {
    case left, right, up, down, plus, minus, escape, delete, f1, f2, f11, enter, backspace, tab, space
    case letter(Character)
}

/// What the window tells the map, in logical points, free of SDL.
public enum InputEvent: Hashable, Sendable {
    case pointerDown(MouseButton, ScreenPoint, clicks: Int, KeyModifiers)
    case pointerMoved(ScreenPoint)
    case pointerUp(MouseButton, ScreenPoint)
    /// Positive dy zooms in. `precise` is a touchpad's continuous scroll rather than wheel notches.
    case wheel(dy: Double, precise: Bool, at: ScreenPoint)
    case keyDown(Key, KeyModifiers)
    /// Text typed (after the keyboard layout and input method), for renaming.
    case text(String)
    case pointerLeft
    case focusLost
    case quitRequested
    /// A file dropped on the window (its path).
    case fileDropped(String)
}

/// What the map asks of its host.
public enum HostAction: Hashable, Sendable {
    case quit
    case toggleFullscreen
    /// Something drawn changed without the camera moving.
    case redraw
    /// Open files (Ctrl+O), or the file dropped on the window.
    case openFiles
    case open(String)
    /// Colour tracks by the next mode: plain, speed, elevation (key C).
    case cycleTrackColors
    /// A click on the map that no pin took (tracks may select), and Esc that nothing took.
    case clicked(ScreenPoint)
    case cancel
    /// The pointer moved over the map without dragging (nil: it left the window).
    case hovered(ScreenPoint?)
    /// Show or hide the elevation profile (key E), the list of open files (key T).
    case toggleProfile
    case toggleTrackList
    /// Open or close the list of maps (key L); a digit key (1–9) while it is open.
    case toggleSourceList
    case digit(Int)
    /// Follow the location, or stop (key F).
    case toggleFollow
    /// Save the live position's trail as GPX (Ctrl+S).
    case saveTrail
    /// Open the search box (Ctrl+F, /).
    case openSearch
    /// Show or hide the keys and gestures (F1, ?).
    case toggleHelp
    /// Start or end measuring (M).
    case toggleMeasure
    /// Copy the coordinates under the pointer, or of the selected pin (Ctrl+C).
    case copyPosition
    /// Move the keyboard's focus to the next (or, with Shift, previous) on-screen button (Tab).
    case focusButton(forward: Bool)
}
