import FoundationEssentials
import MapGeometry
import Platform

/// A message the user must see (a pins file that could not be read, a save that failed),
/// on a dark plate at the top centre, above everything, until clicked away. The notices are
/// the session's (`MapSession.post(notice:)`); this draws the first, and takes the click on
/// it and Esc (when the pins want none) to put it away.
public struct NoticeLayer: MapLayer {
    static let suffix = "   ✕"

    public init() {}

    public var levels: [LayerLevel] { [.notice] }

    public func compose(at level: LayerLevel, into list: inout DrawList, context: LayerContext) {
        guard let text = context.facts.notice, !text.isEmpty else { return }
        let key = SpriteKey.text(text + Self.suffix, .notice)
        guard let s = context.sprites.size(of: key) else {
            list.wantedSprites.insert(key, at: 0)
            return
        }
        let w = context.camera.viewportSize.width
        let rect = ScreenRect(x: ((w - s.width) / 2).rounded(), y: 14, width: s.width, height: s.height)
        let plate = ScreenRect(x: rect.x - 10, y: rect.y - 6, width: rect.width + 20, height: rect.height + 12)
        list.commands.append(.fillRect(plate, Color(hex: 0x2C2C2E, alpha: 0.92)))
        list.commands.append(.sprite(key, destination: rect, opacity: 1))
        list.noticeFrame = plate
    }

    public mutating func take(_ event: InputEvent, context: InputContext) -> [LayerAction]? {
        guard let frame = context.lastFrame.noticeFrame else { return nil }
        switch event {
        case let .pointerDown(_, p, _, _) where frame.contains(p): return [.dismissNotice]
        case .keyDown(.escape, _) where !context.pinsBusy: return [.dismissNotice]
        default: return nil
        }
    }
}
