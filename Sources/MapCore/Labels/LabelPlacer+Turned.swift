import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// Boxes of labels on a turned map: what is laid out level about its point and then turned
/// with the map claims the box around it as the screen shows it.
extension LabelPlacer {
    /// `r` turned clockwise by `degrees` about `p`: the rectangle of its size centred where its
    /// centre goes (what is drawn, turned about its centre), and the box around the turned one.
    static func turned(_ r: ScreenRect, by degrees: Double, about p: ScreenPoint) -> (rect: ScreenRect, bounds: ScreenRect) {
        guard degrees != 0 else { return (r, r) }
        let a = degrees * .pi / 180, c = cos(a), s = sin(a)
        let dx = r.x + r.width / 2 - p.x, dy = r.y + r.height / 2 - p.y
        let cx = p.x + dx * c - dy * s, cy = p.y + dx * s + dy * c
        let rect = ScreenRect(x: cx - r.width / 2, y: cy - r.height / 2, width: r.width, height: r.height)
        return (rect, rect.turnedBounds(degrees))
    }

    /// The rank of a label's tile in MapLibre's order of placing them: its tiles from the top
    /// down, then from the left, as the north-up view shows their centres. Its
    /// tile is its data tile, or else the one of MapLibre's zoom (512-point tiles: a zoom
    /// coarser than the camera's) holding its point. The order is the north-up view's, so
    /// that turning the map does not reorder labels (MapLibre's turns with the view).
    static func tileOrder(_ turned: Camera) -> (PlaceLabel) -> Int {
        let camera = turned.northUp
        let z = min(max(Int(saturating: (camera.zoom - 1).rounded(.down)), 0), 24)
        return { label in
            let tile = label.tile.flatMap { $0.z <= z ? $0 : nil }
            let unit = WebMercator.worldSize / Double(1 << (tile?.z ?? z))
            let tx = tile.map { Double($0.x) } ?? (label.point.x / unit).rounded(.down)
            let ty = tile.map { Double($0.y) } ?? (label.point.y / unit).rounded(.down)
            let c = camera.screenPoint(for: MapPoint(x: (tx + 0.5) * unit, y: (ty + 0.5) * unit))
            // Down, then across (a north-up row of tiles shares its centres' height).
            let down = min(max(Int(saturating: c.y.rounded()), -400_000), 400_000)
            let across = min(max(Int(saturating: c.x.rounded()), -400_000), 400_000)
            return down &* 1_000_000 &+ across
        }
    }

    static func scaled(_ s: ScreenSize, _ k: Double) -> ScreenSize {
        k == 1 ? s : ScreenSize(width: s.width * k, height: s.height * k)
    }
}
