// Own loop: an app that runs its own SDL event loop, keeps the keys that are its own (Q
// quits) and hands the rest to the map, then gives the map its turn to draw, frame by frame.
// It says where the map comes to rest. Run: swift run own-loop
import CSDL2
import MeridianKit

SDL.identity = SDL.Identity(appID: "org.example.OwnLoop", name: "Own loop")
do {
    let window = try SDLWindow(title: "Own loop", width: 640, height: 480)
    let view = try MapView(window: window, center: Coordinate(latitude: 51.5, longitude: -0.12), zoom: 6)
    view.onIdle = { [unowned view] in print("Resting at \(view.camera.centerCoordinate), zoom \(view.camera.zoom)") }
    var running = true, event = SDL_Event()
    while running {
        let wait = view.update()
        guard SDL_WaitEventTimeout(&event, wait.map { Int32(saturating: $0 * 1000) } ?? -1) != 0 else { continue }
        if event.type == SDL_QUIT.rawValue || (event.type == SDL_KEYDOWN.rawValue && event.key.keysym.sym == SDLK_q.rawValue) {
            running = false
        } else {
            view.handle(&event)
        }
    }
    view.close()
    print("Own loop closed at \(view.camera.centerCoordinate), zoom \(view.camera.zoom)")
}
SDL.quit()
