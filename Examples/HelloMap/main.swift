// Hello map: an app of its own with Meridian's map in its window and one button of its own,
// which flies to Helsinki (so does its own key, H); it says where the map comes to rest. Its
// name, signals and keys are its own. Run: swift run hello-map
import MeridianKit

/// The app's button, drawn over the map at the top left; pressing it (or H) flies to Helsinki.
struct HelsinkiButton: MapLayer {
    static let key = KeyBinding(keys: [.letter("h")], modifiers: [], command: .custom("helsinki"), label: "H", help: "fly to Helsinki")
    let helsinki: [LayerAction] = [.goTo(Coordinate(latitude: 60.17, longitude: 24.94), zoom: 11)]
    var levels: [LayerLevel] { [.chrome] }

    func compose(at level: LayerLevel, into list: inout DrawList, context: LayerContext) {
        list.textButton("helsinki", title: "Fly to Helsinki", frame: ScreenRect(x: 10, y: 10, width: 130, height: 36), sprites: context.sprites)
    }

    mutating func press(_ button: ButtonID, context: InputContext) -> [LayerAction]? { button.as(String.self) == "helsinki" ? helsinki : nil }

    mutating func perform(_ command: KeyBinding.Command, key: Key, context: InputContext) -> [LayerAction]? {
        command == Self.key.command ? helsinki : nil
    }
}

SDL.identity = SDL.Identity(appID: "org.example.HelloMap", name: "Hello map", quitsOnSignals: true)
do {
    let window = try SDLWindow(title: "Hello map", width: 800, height: 600)
    let view = try MapView(window: window, center: Coordinate(latitude: 48.85, longitude: 2.35), zoom: 4,
                           layers: [ZoomControlsLayer(), HelsinkiButton()], keys: KeyBindings.map + [HelsinkiButton.key])
    view.onIdle = { [unowned view] in print("Resting at \(view.camera.centerCoordinate), zoom \(view.camera.zoom)") }
    view.run()
    view.close()
    print("Hello map closed at \(view.camera.centerCoordinate), zoom \(view.camera.zoom)")
}
SDL.quit()
