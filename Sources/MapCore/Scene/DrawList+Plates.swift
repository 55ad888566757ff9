import FoundationEssentials
import MapGeometry
import Platform

/// The plates chrome stands on, drawn the same way by every layer that has one.
extension DrawList {
    /// A light plate with a faint edge, for buttons, lists and boxes.
    public mutating func plate(_ r: ScreenRect, fill: Color = Color(hex: 0xFFFFFF, alpha: 0.96)) {
        commands.append(.fillRect(r.outset(1), Color(hex: 0x000000, alpha: 0.15)))
        commands.append(.fillRect(r, fill))
    }

    /// A pressable plate with `title` centred on it, as the app's own buttons look: what an
    /// embedding app's layer draws for a button of its own (`MapLayer.press` hears it).
    public mutating func textButton<ID: Hashable & Sendable>(_ id: ID, title: String, frame r: ScreenRect, sprites: SpriteAvailability) {
        plate(r)
        let key = SpriteKey.text(title, .chrome)
        if let s = sprites.size(of: key) {
            commands.append(.sprite(key, destination: ScreenRect(x: r.x + (r.width - s.width) / 2, y: r.y + (r.height - s.height) / 2,
                                                                 width: s.width, height: s.height), opacity: 1))
        } else {
            want(key)
        }
        button(id, frame: r, focusStop: true)
    }

    /// A dark plate with a line of text (a hint), the text 10 points in and centred in height.
    public mutating func darkPlate(_ r: ScreenRect, text key: SpriteKey, size s: ScreenSize) {
        commands.append(.fillRect(r, Color(hex: 0x2C2C2E, alpha: 0.88)))
        commands.append(.sprite(key, destination: ScreenRect(x: r.x + 10, y: r.y + (r.height - s.height) / 2, width: s.width, height: s.height),
                                opacity: 1))
    }
}
