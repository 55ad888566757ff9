import FoundationEssentials
import Glibc
import Platform

/// Shapes drawn turned (`DrawCommand.rotatedSprite`), where a `fillRect`, which is always
/// square to the screen, cannot be: the compass needle, and a solid colour stretched into the
/// edges of an outline on a turned map.
public enum ShapeSprite: SpriteSpec {
    /// A compass needle pointing up: the north half red, the south half white, `side` points.
    case compassNeedle
    /// A square of one opaque colour, large enough that stretched over a window its edges stay
    /// crisp (a filtered edge spreads over half a texel of the stretched picture).
    case solid(Color)

    /// The needle's side in points.
    public static let needleSide = 30.0
    /// The solid square's side in pixels, at any density.
    public static let solidPixels = 256
}

extension SpriteKey {
    public static let compassNeedle = SpriteKey(ShapeSprite.compassNeedle)
    public static func solid(_ c: Color) -> SpriteKey { SpriteKey(ShapeSprite.solid(c.withAlpha(1))) }
}

extension DrawList {
    /// Fills the rectangle of `size` centred on `center`, turned clockwise by `degrees`, with
    /// `color` (its alpha as the opacity); asks for the solid sprite when it is not ready yet.
    public mutating func fillTurned(center: ScreenPoint, size: ScreenSize, degrees: Double, _ color: Color, sprites: SpriteAvailability) {
        let key = SpriteKey.solid(color)
        guard sprites.size(of: key) != nil else { want(key); return }
        guard size.width > 0, size.height > 0, color.a > 0 else { return }
        commands.append(.rotatedSprite(key, destination: ScreenRect(x: center.x - size.width / 2, y: center.y - size.height / 2,
                                                                    width: size.width, height: size.height),
                                       opacity: min(color.a, 1), degrees: degrees))
    }

    /// Outlines the quadrilateral `corners` (clockwise on screen) with a line `width` points
    /// wide just outside it, its corners closed.
    public mutating func outlineTurned(_ corners: [ScreenPoint], width: Double, _ color: Color, sprites: SpriteAvailability) {
        guard corners.count >= 3 else { return }
        for (i, a) in corners.enumerated() {
            let b = corners[(i + 1) % corners.count]
            let dx = b.x - a.x, dy = b.y - a.y, length = (dx * dx + dy * dy).squareRoot()
            guard length > 1e-9 else { continue }
            // Outward (clockwise corners, y down): the edge's direction turned a quarter back.
            let nx = dy / length, ny = -dx / length
            let mid = ScreenPoint(x: (a.x + b.x) / 2 + nx * width / 2, y: (a.y + b.y) / 2 + ny * width / 2)
            fillTurned(center: mid, size: ScreenSize(width: length + 2 * width, height: width),
                       degrees: atan2(dy, dx) * 180 / .pi, color, sprites: sprites)
        }
    }

    /// Dims everything of a `view` outside the turned rectangle `corners` (top left, top right,
    /// bottom right, bottom left as the rectangle's own axes go) grown by `inset` points (an
    /// outline drawn over its edge covers the rest). Rows a point high, each dimmed left and
    /// right of the rectangle: square fills abut exactly in every compositor, where turned
    /// bands would show their seams.
    public mutating func dimOutsideTurned(_ corners: [ScreenPoint], view: ScreenSize, inset: Double, _ color: Color) {
        guard corners.count == 4 else { return }
        let (p0, p1, p3) = (corners[0], corners[1], corners[3])
        let uw = (p1 - p0).length, vh = (p3 - p0).length
        guard uw > 1e-9, vh > 1e-9, view.width > 0, view.height > 0 else { return }
        let u = ScreenPoint(x: (p1.x - p0.x) / uw, y: (p1.y - p0.y) / uw), v = ScreenPoint(x: (p3.x - p0.x) / vh, y: (p3.y - p0.y) / vh)
        let c = ScreenPoint(x: (corners[0].x + corners[2].x) / 2, y: (corners[0].y + corners[2].y) / 2)
        let a = uw / 2 + inset, b = vh / 2 + inset
        let grown = [(-a, -b), (a, -b), (a, b), (-a, b)].map { ScreenPoint(x: c.x + u.x * $0.0 + v.x * $0.1, y: c.y + u.y * $0.0 + v.y * $0.1) }
        guard grown.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return }
        let top = max(0, grown.map(\.y).min()!.rounded(.down)), bottom = min(view.height, grown.map(\.y).max()!.rounded(.up))
        if top > 0 { commands.append(.fillRect(ScreenRect(x: 0, y: 0, width: view.width, height: min(top, view.height)), color)) }
        if bottom < view.height { commands.append(.fillRect(ScreenRect(x: 0, y: max(bottom, 0), width: view.width, height: view.height - max(bottom, 0)), color)) }
        var y = top
        while y < bottom {
            // Where the row's middle crosses the rectangle's edges.
            let m = y + 0.5
            var x0 = Double.infinity, x1 = -Double.infinity
            for (i, p) in grown.enumerated() {
                let q = grown[(i + 1) % 4]
                guard (p.y - m) * (q.y - m) <= 0, p.y != q.y else { continue }
                let x = p.x + (q.x - p.x) * (m - p.y) / (q.y - p.y)
                x0 = min(x0, x); x1 = max(x1, x)
            }
            if x0 > x1 {
                commands.append(.fillRect(ScreenRect(x: 0, y: y, width: view.width, height: 1), color))
            } else {
                if x0 > 0 { commands.append(.fillRect(ScreenRect(x: 0, y: y, width: min(x0, view.width), height: 1), color)) }
                if x1 < view.width { commands.append(.fillRect(ScreenRect(x: max(x1, 0), y: y, width: view.width - max(x1, 0), height: 1), color)) }
            }
            y += 1
        }
    }
}
