import Glibc
import MapCore
import Platform

extension DrawCommand {
    /// The pixels of a `width`×`height` frame at `k` pixels per point the command may touch
    /// (a pixel more on each side: rounding, filtering); nil when none.
    func pixelBox(_ k: Double, inside width: Int, _ height: Int) -> PixelBox? {
        switch self {
        case .clear: return PixelBox(x0: 0, y0: 0, x1: Int32(clamping: width), y1: Int32(clamping: height))
        case let .fillRect(r, _), let .sprite(_, r, _):
            return DeviceRect(r, k).box(inside: width, height, margin: 1)
        case let .tile(_, _, _, r, _, degrees):
            return DeviceRect(r.turnedBounds(degrees), k).box(inside: width, height, margin: 1)
        case let .rotatedSprite(_, r, _, _):
            // Any turn stays inside the circle through the corners.
            let radius = (r.width * r.width + r.height * r.height).squareRoot() / 2
            let c = ScreenRect(x: r.x + r.width / 2 - radius, y: r.y + r.height / 2 - radius, width: 2 * radius, height: 2 * radius)
            return DeviceRect(c, k).box(inside: width, height, margin: 1)
        }
    }
}

extension DamageRegion {
    /// Where two frames' commands differ: both places of each command that changed (all of
    /// both lists when their lengths differ).
    static func changes(from old: ArraySlice<DrawCommand>, to new: ArraySlice<DrawCommand>, _ k: Double,
                        width: Int, height: Int) -> DamageRegion {
        var damage = DamageRegion(width: width, height: height)
        if old.count == new.count {
            for (a, b) in zip(old, new) where a != b {
                damage.add(a.pixelBox(k, inside: width, height))
                damage.add(b.pixelBox(k, inside: width, height))
            }
        } else {
            for c in old { damage.add(c.pixelBox(k, inside: width, height)) }
            for c in new { damage.add(c.pixelBox(k, inside: width, height)) }
        }
        return damage
    }
}
