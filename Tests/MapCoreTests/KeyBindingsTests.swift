import MapCore
import MapGeometry
import Testing

/// The table the keys are bound by is the one the help lists: no key bound twice, every
/// command explained, and the controller does what the table says.
struct KeyBindingsTests {
    @Test func noKeyIsBoundTwice() {
        var seen: [String: KeyBinding.Command] = [:]
        for b in KeyBindings.all {
            for k in b.keys {
                let id = "\(k) \(b.modifiers.rawValue)"
                #expect(seen[id] == nil, "\(id) is bound to \(seen[id].map { "\($0)" } ?? "") and \(b.command)")
                seen[id] = b.command
            }
        }
    }

    @Test func everyCommandIsExplained() {
        let explained = Set(KeyBindings.all.filter { !$0.label.isEmpty }.map { "\($0.command)" })
        // These are explained by the row above theirs ("Arrow keys", "Ctrl+Z … redo").
        let continuations: [KeyBinding.Command] = [.panRight, .panUp, .panDown, .redo, .focusPrevious]
        for b in KeyBindings.all where !continuations.contains(b.command) {
            #expect(explained.contains("\(b.command)"), "\(b.command) has no help")
        }
        #expect(KeyBindings.helpRows().count == KeyBindings.all.filter { !$0.label.isEmpty }.count + KeyBindings.gestures.count)
    }

    /// Open, export, print, save the trail, what is here, full screen and quit are the app's
    /// (Meridian binds them as `.custom` commands), L, the digits, A and Shift+A its panels'
    /// (their layers bind them): the library's table leaves their keys free, and the help lists
    /// the table it is given.
    @Test func theAppsVerbsAreNotTheLibrarys() {
        for k in ["o", "e", "p", "s", "q"] { #expect(KeyBindings.command(for: .letter(Character(k)), .control) == nil, "Ctrl+\(k)") }
        for k in ["w", "l", "a", "1", "9"] { #expect(KeyBindings.command(for: .letter(Character(k)), []) == nil, "\(k)") }
        #expect(KeyBindings.command(for: .letter("a"), .shift) == nil)
        #expect(KeyBindings.command(for: .f11, []) == nil)
        let own = KeyBinding(keys: [.letter("e")], modifiers: .control, command: .custom("export"), label: "Ctrl+E", help: "export")
        #expect(KeyBindings.helpRows(KeyBindings.all + [own]).contains { $0.label == "Ctrl+E" && $0.help == "export" })
        #expect(!KeyBindings.helpRows().contains { $0.label == "Ctrl+E" })
    }

    static let table: [(Key, KeyModifiers, KeyBinding.Command?)] = [
        (.letter("/"), [], .search), (.letter("/"), .shift, .help), (.f1, [], .help), (.letter("f"), .control, .search),
        (.letter("f"), [], .follow), (.letter("m"), [], .measure), (.letter("c"), .control, .copyPosition),
        (.letter("z"), [.control, .shift], .redo), (.letter("z"), .control, .undo), (.plus, .shift, .zoomIn),
        (.letter("7"), [], nil), (.letter("0"), [], nil), (.letter("x"), [], nil), (.letter("q"), [], nil),
    ]

    @Test(arguments: table)
    func keysFindTheirCommand(_ key: Key, _ mods: KeyModifiers, _ command: KeyBinding.Command?) {
        #expect(KeyBindings.command(for: key, mods) == command)
    }

    @Test func theControllerDoesWhatTheTableSays() {
        var c = MapController(camera: Camera(center: Coordinate(latitude: 0, longitude: 0), zoom: 3, viewportSize: ScreenSize(width: 800, height: 600)))
        #expect(c.handle(.keyDown(.letter("/"), .shift), at: 0) == [.command(.help, .letter("/"))])
        #expect(c.handle(.keyDown(.f1, []), at: 0) == [.command(.help, .f1)])
        #expect(c.handle(.keyDown(.letter("/"), []), at: 0) == [.command(.search, .letter("/"))])
        #expect(c.handle(.keyDown(.letter("m"), []), at: 0) == [.command(.measure, .letter("m"))])
        #expect(c.handle(.keyDown(.letter("4"), []), at: 0) == [])
    }

    /// An embedder's table: the map's own keys answer, the app's are not bound (Ctrl+Q, F11,
    /// L), and a key of its own goes to its own command: to the layer that performs it, else
    /// to the app as a request.
    @Test func anEmbeddersTableBindsItsOwnKeysOnly() {
        var driver = SessionDriver(layers: [])
        let own = KeyBinding(keys: [.letter("h")], modifiers: [], command: .custom("home"), label: "H", help: "home")
        driver.session.controller.keys = KeyBindings.map + [own]
        #expect(driver.key(.letter("q"), .control).isEmpty)
        #expect(driver.key(.f11).isEmpty)
        #expect(driver.key(.letter("l")).isEmpty)
        let effects = driver.key(.letter("h"))
        #expect(effects.contains { if case let .layer(r) = $0 { return r.as(KeyBinding.Command.self) == .custom("home") }; return false }, "\(effects)")
        driver.key(.plus)
        driver.session.controller.advance(to: driver.t + 5)
        #expect(driver.session.camera.zoom == 6)
        // An app that binds Ctrl+Q hears it as its own command (the window's close button is
        // the map's `.quit`).
        var app = SessionDriver(layers: [])
        app.session.controller.keys = KeyBindings.all + [KeyBinding(keys: [.letter("q")], modifiers: .control, command: .custom("quit"), label: "Ctrl+Q", help: "quit")]
        #expect(app.key(.letter("q"), .control).contains { if case let .layer(r) = $0 { return r.as(KeyBinding.Command.self) == .custom("quit") }; return false })
    }

    /// A layer binds a key of its own: answered while the layer is in the scene, carried out by
    /// it; the app's table wins where both bind a key; taken out, the key is not bound.
    @Test func aLayerBindsItsOwnKeys() {
        struct Bookmarks: MapLayer {
            var jumps = 0
            var keyBindings: [KeyBinding] {
                [KeyBinding(keys: [.letter("b")], modifiers: [], command: .custom("bookmark"), label: "B", help: "Go to the bookmark"),
                 KeyBinding(keys: [.plus], modifiers: [], command: .custom("not mine"), label: "+", help: "taken by the app's table")]
            }
            func compose(at level: LayerLevel, into list: inout DrawList, context: LayerContext) {}
            mutating func perform(_ command: KeyBinding.Command, key: Key, context: InputContext) -> [LayerAction]? {
                guard command == .custom("bookmark") else { return nil }
                jumps += 1
                return [.goTo(Coordinate(latitude: 60.17, longitude: 24.94), zoom: 12)]
            }
        }
        var driver = SessionDriver(layers: [Bookmarks()])
        driver.session.controller.keys = KeyBindings.map
        _ = driver.key(.plus)                                          // the map's zoom, not the layer's
        driver.session.controller.advance(to: driver.t + 5)
        #expect(driver.session.camera.zoom == 6)
        _ = driver.key(.letter("b"))
        #expect(driver.session.scene.layer(Bookmarks.self)?.jumps == 1)
        driver.session.scene.layers.removeAll { $0 is Bookmarks }
        driver.t += 10                                                 // the flight is over
        #expect(driver.key(.letter("b")).isEmpty)
    }
}
