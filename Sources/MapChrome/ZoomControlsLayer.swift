import FoundationEssentials
import MapCore
import MapGeometry
import Platform

/// Zoom in and out buttons on the right, under the search button: one level about the
/// centre each, as + and − do.
public struct ZoomControlsLayer: MapLayer {
    /// The buttons' identities (`DrawList.buttons`): the levels each zooms by.
    enum Button: Hashable, Sendable { case zoomIn, zoomOut }

    public init() {}

    public var levels: [LayerLevel] { [.chrome] }

    static let size = 36.0
    static let ink = Color(hex: 0x3A3A3C)

    func frames(_ context: LayerContext) -> (zoomIn: ScreenRect, zoomOut: ScreenRect) {
        let x = context.camera.viewportSize.width - 10 - Self.size
        return (ScreenRect(x: x, y: 50, width: Self.size, height: Self.size),
                ScreenRect(x: x, y: 50 + Self.size + 1, width: Self.size, height: Self.size))
    }

    public func labelExclusions(_ context: LayerContext) -> [ScreenRect] {
        let f = frames(context)
        return [f.zoomIn, f.zoomOut]
    }

    public func compose(at level: LayerLevel, into list: inout DrawList, context: LayerContext) {
        let f = frames(context)
        let both = ScreenRect(x: f.zoomIn.x, y: f.zoomIn.y, width: Self.size, height: f.zoomOut.maxY - f.zoomIn.y)
        list.commands.append(.fillRect(both.outset(1), Color(hex: 0x000000, alpha: 0.15)))
        // + and − drawn as bars: crisp at any pixel ratio, in no font's hands.
        for (r, name, vertical, enabled) in [(f.zoomIn, Button.zoomIn, true, context.camera.zoom < Camera.maxZoom),
                                             (f.zoomOut, Button.zoomOut, false, context.camera.zoom > Camera.minZoom)] {
            list.commands.append(.fillRect(r, Color(hex: 0xFFFFFF, alpha: 0.96)))
            let ink = Self.ink.withAlpha(enabled ? 1 : 0.3), c = ScreenPoint(x: r.x + r.width / 2, y: r.y + r.height / 2)
            list.commands.append(.fillRect(ScreenRect(x: c.x - 7, y: c.y - 1, width: 14, height: 2), ink))
            if vertical { list.commands.append(.fillRect(ScreenRect(x: c.x - 1, y: c.y - 7, width: 2, height: 14), ink)) }
            list.button(name, frame: r, focusStop: true)
        }
        list.commands.append(.fillRect(ScreenRect(x: f.zoomIn.x + 6, y: f.zoomIn.maxY, width: Self.size - 12, height: 1), Color(hex: 0xD8D8D8)))
    }

    public mutating func press(_ button: ButtonID, context: InputContext) -> [LayerAction]? {
        button.as(Button.self).map { [.zoomBy($0 == .zoomIn ? 1 : -1)] }
    }
}
