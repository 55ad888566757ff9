import FoundationEssentials
import Glibc
import Platform

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
    /// Fingers on a touchpad or screen turned by this many degrees, clockwise on the screen
    /// (since the last such event).
    case rotate(degrees: Double)
    /// A finger of such a gesture was lifted: the turn is let go.
    case rotateEnded
}

/// What the controller leaves to the session: a click it did not drag, the pointer hovering,
/// a command of the key table that is not the camera's.
public enum ControllerAction: Hashable, Sendable {
    case quit
    /// Something drawn changed without the camera moving.
    case redraw
    /// A file dropped on the window.
    case open(String)
    /// A click on the map that no pin took.
    case clicked(ScreenPoint)
    /// The pointer moved over the map without dragging (nil: it left the window).
    case hovered(ScreenPoint?)
    /// A command of the key table (`KeyBindings`), with the key that gave it (which digit).
    case command(KeyBinding.Command, Key)
}
