import Foundation
@testable import MapCore
import MapGeometry

/// A session driven as the window drives it, with no window: frames composed with every
/// sprite at hand, clicks at the centre of a button the last frame drew, keys.
struct SessionDriver {
    var session: MapSession
    var t = 0.0

    init(layers: [any MapLayer], zoom: Double = 5, center: Coordinate = Coordinate(latitude: 48, longitude: 2)) {
        session = MapSession(scene: Scene(layers: layers), camera: Camera(center: center, zoom: zoom, viewportSize: ScreenSize(width: 800, height: 600)))
    }

    @discardableResult
    mutating func frame() -> DrawList {
        t += 1
        return session.frame(at: t, tiles: NoTiles(), sprites: AllSprites())
    }

    /// The buttons of type `T` a fresh frame draws, in paint order.
    mutating func buttons<T>(of type: T.Type) -> [T] { frame().buttons.compactMap { $0.id.as(T.self) } }

    /// Clicks the button `id` of a fresh frame (none drawn: a click nowhere).
    mutating func click<T: Hashable & Sendable>(_ id: T) -> [SessionEffect] {
        let b = frame().buttons.last { $0.id == ButtonID(id) }?.frame ?? ScreenRect(x: -10, y: -10, width: 1, height: 1)
        return click(at: ScreenPoint(x: b.x + b.width / 2, y: b.y + b.height / 2))
    }

    mutating func click(at p: ScreenPoint) -> [SessionEffect] {
        t += 0.01
        let down = session.handle(.pointerDown(.left, p, clicks: 1, []), at: t)
        t += 0.01
        return down + session.handle(.pointerUp(.left, p), at: t)
    }

    mutating func key(_ key: Key, _ mods: KeyModifiers = []) -> [SessionEffect] {
        t += 0.01
        return session.handle(.keyDown(key, mods), at: t)
    }

    mutating func type(_ text: String) -> [SessionEffect] {
        t += 0.01
        return session.handle(.text(text), at: t)
    }
}
