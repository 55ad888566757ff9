import FoundationEssentials
import MapCore
import MapGeometry
import Platform

/// The locate button, bottom right above the credit: shows whether the map follows the
/// location (a blue dot), turned with its course too (the dot with a cone ahead), or not
/// (grey); a click goes on to the next of these (as key F does).
public struct LocateLayer: MapLayer {
    /// The button's identity (`DrawList.buttons`).
    struct Button: Hashable, Sendable {}

    public init() {}

    public var levels: [LayerLevel] { [.chrome] }

    static let size = 36.0
    static let off = Color(hex: 0x8E8E93)

    private func frame(_ context: LayerContext) -> ScreenRect {
        let w = context.camera.viewportSize.width, h = context.camera.viewportSize.height - context.bottomInset
        return ScreenRect(x: w - 10 - Self.size, y: h - 30 - Self.size, width: Self.size, height: Self.size)
    }

    public func labelExclusions(_ context: LayerContext) -> [ScreenRect] { [frame(context)] }

    public func compose(at level: LayerLevel, into list: inout DrawList, context: LayerContext) {
        let r = frame(context), following = context.facts.following
        if following { list.plate(r, fill: Color(hex: 0xE5F0FF, alpha: 0.97)) } else { list.plate(r) }
        let c = ScreenPoint(x: r.x + r.width / 2, y: r.y + r.height / 2)
        // Heading-up: the course is up, so the cone points straight up.
        if context.facts.headingUp { context.placeRound(.headingCone(.systemBlue), center: c, radius: 17, opacity: 1, degrees: 0, into: &list) }
        context.placeRound(.locationDot(following ? .systemBlue : Self.off), center: c, radius: context.facts.headingUp ? 8 : 10, opacity: 1, into: &list)
        list.button(Button(), frame: r, focusStop: true)
    }

    public mutating func press(_ button: ButtonID, context: InputContext) -> [LayerAction]? {
        button.as(Button.self) != nil ? [.toggleFollow] : nil
    }
}
