import Foundation

/// A message the user must see (a pins file that could not be read, a save that failed),
/// on a dark plate at the top centre, above everything, until clicked away.
extension Scene {
    static let noticeSuffix = "   ✕"

    func composeNotice(into list: inout DrawList, sprites: SpriteAvailability) {
        guard let notice, !notice.isEmpty else { return }
        let key = SpriteKey.text(notice + Self.noticeSuffix, .notice)
        guard let s = sprites.size(of: key) else {
            list.wantedSprites.insert(key, at: 0)
            return
        }
        let w = camera.viewportSize.width
        let text = ScreenRect(x: ((w - s.width) / 2).rounded(), y: 14, width: s.width, height: s.height)
        let plate = ScreenRect(x: text.x - 10, y: text.y - 6, width: text.width + 20, height: text.height + 12)
        list.commands.append(.fillRect(plate, Color(hex: 0x2C2C2E, alpha: 0.92)))
        list.commands.append(.sprite(key, destination: text, opacity: 1))
        list.noticeFrame = plate
    }
}
