import FoundationEssentials
import MapCore
import MapGeometry
import Platform

/// Zoom in and out buttons on the right, under the search button: one level about the
/// centre each, as + and − do. Under them, while the map is turned, the compass: its needle
/// points north, and a click turns the map back north-up.
public struct ZoomControlsLayer: MapLayer {
    /// The buttons' identities (`DrawList.buttons`): the levels each zooms by, and the compass.
    enum Button: Hashable, Sendable { case zoomIn, zoomOut, north }

    /// The pointer is over the compass (its name shows beside it).
    var pointerOnCompass = false

    public init() {}

    public var levels: [LayerLevel] { [.chrome] }

    static let size = 36.0
    static let ink = Color(hex: 0x3A3A3C)
    // TRANSLATORS: the compass button's name, shown beside it when the pointer rests on it (the map is turned; a click turns it north-up).
    static var compassName: String { tr("North up") }

    func frames(_ context: LayerContext) -> (zoomIn: ScreenRect, zoomOut: ScreenRect) { frames(context.camera) }

    func frames(_ camera: Camera) -> (zoomIn: ScreenRect, zoomOut: ScreenRect) {
        let x = camera.viewportSize.width - 10 - Self.size
        return (ScreenRect(x: x, y: 50, width: Self.size, height: Self.size),
                ScreenRect(x: x, y: 50 + Self.size + 1, width: Self.size, height: Self.size))
    }

    /// The compass, under the zoom buttons and the help's ? button (which has the slot under
    /// them, 28 points high, where the app has one); nil while the map is north-up.
    func compassFrame(_ camera: Camera) -> ScreenRect? {
        guard camera.isTurned else { return nil }
        let below = frames(camera).zoomOut
        return ScreenRect(x: below.x, y: below.maxY + 8 + 28 + 9, width: Self.size, height: Self.size)
    }

    public func labelExclusions(_ context: LayerContext) -> [ScreenRect] {
        let f = frames(context)
        return [f.zoomIn, f.zoomOut] + (compassFrame(context.camera).map { [$0] } ?? [])
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
        composeCompass(into: &list, context: context)
    }

    private func composeCompass(into list: inout DrawList, context: LayerContext) {
        guard let r = compassFrame(context.camera) else { return }
        list.plate(r)
        let c = ScreenPoint(x: r.x + r.width / 2, y: r.y + r.height / 2)
        context.placeRound(.compassNeedle, center: c, radius: ShapeSprite.needleSide / 2, opacity: 1,
                           degrees: context.camera.northOnScreen, into: &list)
        list.button(Button.north, frame: r, focusStop: true)
        guard pointerOnCompass else { return }
        let key = SpriteKey.text(Self.compassName, .notice)
        guard let s = context.sprites.size(of: key) else { list.want(key); return }
        let tip = ScreenRect(x: r.x - 8 - s.width - 20, y: c.y - (s.height + 12) / 2, width: s.width + 20, height: s.height + 12)
        list.darkPlate(tip, text: key, size: s)
    }

    public mutating func press(_ button: ButtonID, context: InputContext) -> [LayerAction]? {
        switch button.as(Button.self) {
        case .zoomIn?: return [.zoomBy(1)]
        case .zoomOut?: return [.zoomBy(-1)]
        case .north?: return [.turnNorth]
        case nil: return nil
        }
    }

    public mutating func hover(at p: ScreenPoint?, context: InputContext) -> Bool {
        let on = p.map { compassFrame(context.camera)?.contains($0) == true } ?? false
        defer { pointerOnCompass = on }
        return on != pointerOnCompass
    }
}
