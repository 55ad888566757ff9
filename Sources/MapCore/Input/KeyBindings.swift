import FoundationEssentials
import Platform

/// What a key does: one table that both binds the keys (MapController looks every key up
/// here) and explains them (the help overlay lists it), so the two cannot drift apart.
public struct KeyBinding: Sendable {
    public enum Command: Sendable, Hashable {
        case search, help, units, trackColors, profile, trackList
        case follow, measure, copyPosition, zoomIn, zoomOut, panLeft, panRight, panUp, panDown
        /// Turns the map by a step: Shift+← one way, Shift+→ the other (the key says which).
        case turn
        case focusNext, focusPrevious
        case cancel, deletePin, renamePin, undo, redo
        /// A command of an app's own (Meridian's open, export, print, quit, full screen) or of
        /// a layer's (the map switcher's L and digits, the area panels' A and Shift+A): bound by the app
        /// (`MapController.keys`, and listed by `HelpLayer.keys`) or by the layer that carries
        /// it out (`MapLayer.keyBindings`, `MapLayer.perform`); one no layer takes goes to the
        /// app (`SessionEffect.layer`).
        case custom(String)
    }

    public var keys: [Key]
    public var modifiers: KeyModifiers
    public var command: Command
    /// How the help shows the key ("Ctrl+O"), and what it does.
    public var label: String
    public var help: String

    public init(keys: [Key], modifiers: KeyModifiers, command: Command, label: String, help: String) {
        self.keys = keys
        self.modifiers = modifiers
        self.command = command
        self.label = label
        self.help = help
    }
}

public enum KeyBindings {
    /// Made at first use, in the language chosen by then (`Translation.use`).
    public static let all: [KeyBinding] = [
        // TRANSLATORS: what a key does, in the help (after the key's name, lower case). Key names in it (Backspace, Esc, Ctrl, Shift, Enter, Space) are as printed on keyboards.
        KeyBinding(keys: [.letter("/")], modifiers: .shift, command: .help, label: "F1, ?", help: tr("these keys and gestures")),
        KeyBinding(keys: [.f1], modifiers: [], command: .help, label: "", help: ""),
        KeyBinding(keys: [.letter("f")], modifiers: .control, command: .search, label: "Ctrl+F, /", help: tr("find a place or coordinates")),
        KeyBinding(keys: [.letter("/")], modifiers: [], command: .search, label: "", help: ""),
        KeyBinding(keys: [.plus], modifiers: [], command: .zoomIn, label: "+", help: tr("zoom in")),
        KeyBinding(keys: [.minus], modifiers: [], command: .zoomOut, label: "−", help: tr("zoom out")),
        // TRANSLATORS: "Arrow keys" names the four keys in the help's left column; "pan" is the verb: move the map.
        KeyBinding(keys: [.left], modifiers: [], command: .panLeft, label: tr("Arrow keys"), help: tr("pan")),
        KeyBinding(keys: [.right], modifiers: [], command: .panRight, label: "", help: ""),
        KeyBinding(keys: [.up], modifiers: [], command: .panUp, label: "", help: ""),
        KeyBinding(keys: [.down], modifiers: [], command: .panDown, label: "", help: ""),
        // TRANSLATORS: Shift+← and Shift+→ in the help; the compass button turns the map back to north.
        KeyBinding(keys: [.left, .right], modifiers: .shift, command: .turn, label: "Shift+← →", help: tr("turn the map (the compass turns it back north)")),
        // TRANSLATORS: F in the help, pressed again and again: the map follows the position, then also turns so that the direction of travel is up ("heading-up"), then stops following.
        KeyBinding(keys: [.letter("f")], modifiers: [], command: .follow, label: "F", help: tr("follow your position; again: your course up; again: stop")),
        // TRANSLATORS: Backspace takes the last point back, Esc ends measuring.
        KeyBinding(keys: [.letter("m")], modifiers: [], command: .measure, label: "M", help: tr("measure: click points; Backspace, Esc")),
        KeyBinding(keys: [.letter("c")], modifiers: .control, command: .copyPosition, label: "Ctrl+C", help: tr("copy the coordinates under the pointer")),
        KeyBinding(keys: [.letter("t")], modifiers: [], command: .trackList, label: "T", help: tr("list of open files")),
        KeyBinding(keys: [.letter("c")], modifiers: [], command: .trackColors, label: "C", help: tr("colour tracks by speed or elevation")),
        KeyBinding(keys: [.letter("e")], modifiers: [], command: .profile, label: "E", help: tr("elevation profile of a track")),
        KeyBinding(keys: [.letter("u")], modifiers: [], command: .units, label: "U", help: tr("miles or kilometres")),
        KeyBinding(keys: [.delete, .backspace], modifiers: [], command: .deletePin, label: "Delete", help: tr("delete the selected pin")),
        KeyBinding(keys: [.f2], modifiers: [], command: .renamePin, label: "F2", help: tr("rename the selected pin")),
        KeyBinding(keys: [.letter("z")], modifiers: .control, command: .undo, label: "Ctrl+Z", help: tr("undo (Ctrl+Shift+Z, Ctrl+Y: redo)")),
        KeyBinding(keys: [.letter("z")], modifiers: [.control, .shift], command: .redo, label: "", help: ""),
        KeyBinding(keys: [.letter("y")], modifiers: .control, command: .redo, label: "", help: ""),
        KeyBinding(keys: [.tab], modifiers: [], command: .focusNext, label: "Tab", help: tr("the buttons in turn; Enter or Space presses")),
        KeyBinding(keys: [.tab], modifiers: .shift, command: .focusPrevious, label: "", help: ""),
        KeyBinding(keys: [.escape], modifiers: [], command: .cancel, label: "Esc", help: tr("close, cancel, put down")),
    ]

    /// The map's own keys, for an app that embeds the map (`MapView`): zoom, pan, the focus,
    /// Esc and the pins' keys; not the library's panels' (search, help, tracks, measuring).
    public static let map: [KeyBinding] = all.filter {
        [.zoomIn, .zoomOut, .panLeft, .panRight, .panUp, .panDown, .turn, .focusNext, .focusPrevious, .cancel,
         .deletePin, .renamePin, .undo, .redo].contains($0.command)
    }

    /// What the mouse does (handled by the controller's gestures; listed here for the help).
    public static let gestures: [(label: String, help: String)] = [
        // TRANSLATORS: mouse gestures in the help (left column) and what they do (right).
        (tr("Drag"), tr("pan (flick to glide)")),
        // TRANSLATORS: a drag with the right mouse button, or with Ctrl held and the left one.
        (tr("Right-drag, Ctrl+drag"),
         // TRANSLATORS: what that drag does: the map turns; released within a few degrees of north, it snaps back north-up.
         tr("turn the map; let go near north for north-up")),
        (tr("Wheel"), tr("zoom about the pointer")),
        (tr("Double-click"), tr("zoom in (with Shift: out)")),
        (tr("Right-click"), tr("drop a pin, directions from or to here")),
        (tr("Shift+right-click"), tr("drop a pin at once")),
        (tr("Drag a route"), tr("move its ends and vias; press its line to add one")),
        (tr("Hold a pin"), tr("lift it, drag, drop")),
        (tr("Drop files"), tr("open tracks and shapes")),
    ]

    /// The command `key` with `modifiers` is bound to in `table`: the binding with exactly
    /// these modifiers, else one that ignores a Shift the layout needed ("+" is Shift+= on many).
    public static func command(for key: Key, _ modifiers: KeyModifiers, in table: [KeyBinding] = all) -> KeyBinding.Command? {
        if let b = table.first(where: { $0.keys.contains(key) && $0.modifiers == modifiers }) { return b.command }
        let unshifted = modifiers.subtracting(.shift)
        return table.first { $0.keys.contains(key) && $0.modifiers == unshifted && !$0.modifiers.contains(.shift) }?.command
    }

    /// The rows of the help: every binding of `table` that explains itself, then the gestures.
    public static func helpRows(_ table: [KeyBinding] = all) -> [(label: String, help: String)] {
        table.filter { !$0.label.isEmpty }.map { ($0.label, $0.help) } + gestures
    }
}
