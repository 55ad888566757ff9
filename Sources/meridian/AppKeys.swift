import MapCore
import Platform

/// The app's own verbs, bound by the app: the library's table (`KeyBindings.all`) leaves them
/// out, so an embedder's map has no Ctrl+E that does nothing. Each is a `.custom` command no
/// layer takes: it comes back to the app as `SessionEffect.layer` (`request.as(KeyBinding.Command.self)`).
enum AppKeys {
    static let openFiles = KeyBinding.Command.custom("openFiles")
    static let exportMap = KeyBinding.Command.custom("exportMap")
    static let printMap = KeyBinding.Command.custom("printMap")
    static let saveTrail = KeyBinding.Command.custom("saveTrail")
    static let whatIsHere = KeyBinding.Command.custom("whatIsHere")
    static let fullscreen = KeyBinding.Command.custom("fullscreen")
    static let quit = KeyBinding.Command.custom("quit")

    /// Made at first use, in the language chosen by then.
    static let bindings: [KeyBinding] = [
        // TRANSLATORS: what a key does, in the help (after the key's name, lower case).
        KeyBinding(keys: [.letter("w")], modifiers: [], command: whatIsHere, label: "W", help: tr("what is here, asked online (the selected pin, or under the pointer)")),
        KeyBinding(keys: [.letter("o")], modifiers: .control, command: openFiles, label: "Ctrl+O", help: tr("open GPX, KML, GeoJSON, CSV, FIT or TCX files")),
        KeyBinding(keys: [.letter("e")], modifiers: .control, command: exportMap, label: "Ctrl+E", help: tr("export the view as PDF, SVG or PNG")),
        KeyBinding(keys: [.letter("p")], modifiers: .control, command: printMap, label: "Ctrl+P", help: tr("print the view on A4 (or save it as PDF)")),
    ]
    /// Ctrl+S, listed after E (the elevation profile) as it always was.
    static let trailBinding = KeyBinding(keys: [.letter("s")], modifiers: .control, command: saveTrail, label: "Ctrl+S", help: tr("save your trail as GPX"))

    /// The window's own, after the app's verbs (the panels' keys follow in the help: they are
    /// their layers').
    static let windowBindings: [KeyBinding] = [
        // TRANSLATORS: what a key does, in the help (after the key's name, lower case).
        KeyBinding(keys: [.f11], modifiers: [], command: fullscreen, label: "F11", help: tr("full screen")),
        // TRANSLATORS: what a key does, in the help (after the key's name, lower case).
        KeyBinding(keys: [.letter("q")], modifiers: .control, command: quit, label: "Ctrl+Q", help: tr("quit")),
    ]

    /// The window's table: the library's, with the app's verbs where the help has always
    /// listed them (W and the files' keys after Ctrl+C, Ctrl+S after E, the window's last).
    /// The panels' keys (L, A, Shift+A, Ctrl+D) are their layers' (`MapLayer.keyBindings`).
    static let table: [KeyBinding] = {
        var t = KeyBindings.all
        t.insert(contentsOf: bindings, at: t.firstIndex { $0.command == .copyPosition }.map { $0 + 1 } ?? t.count)
        t.insert(trailBinding, at: t.firstIndex { $0.command == .profile }.map { $0 + 1 } ?? t.count)
        return t + windowBindings
    }()
}
