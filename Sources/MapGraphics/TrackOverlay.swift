import CCairo
import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapTiles

/// The tracks layer's lines and shapes as of one state of it, painted onto tile pictures by
/// the tile workers: a line on the map costs the frame nothing, and stays exactly on the map
/// in every frame. Immutable (a new state of the layer is a new overlay), so workers share it.
public struct TrackOverlay: Sendable {
    public let lines: [TrackLine]
    public let areas: [AreaShape]
    /// Lines are coloured by their values on this ramp, when set.
    public let ramp: TrackColorRamp?
    /// What the painter draws of each line, with the values the ramp colours (worked out once
    /// here, not for every tile).
    private let painted: [(geometry: TrackGeometry, style: TrackStyle, values: [Float])]

    /// Nil when the layer draws nothing into tiles.
    public init?(layer: TracksLayer) {
        guard layer.hasTiledContent else { return nil }
        lines = layer.shownLines
        areas = layer.shownAreas
        let ramp = layer.ramp
        self.ramp = ramp
        painted = lines.map { line in (line.geometry, line.style, ramp.map { line.values(for: $0.mode) } ?? []) }
    }

    /// Whether anything reaches into `tile` (the widest line's reach allowed for).
    public func touches(_ tile: TileID) -> Bool {
        let box = tile.mapRect
        let unitsPerPoint = box.size.width / 256
        func near(_ bounds: MapRect, _ reach: Double) -> Bool { bounds.intersects(box.outset(by: reach * unitsPerPoint)) }
        return lines.contains { near($0.geometry.bounds, $0.style.reach) } || areas.contains { near($0.geometry.bounds, $0.stroke.reach) }
    }

    /// Paints the lines and shapes over `bitmap`, an opaque picture of `tile` in ARGB order
    /// (for tiles it `touches`; others would be left as they are at a cost).
    public func paint(onto bitmap: inout Bitmap, tile: TileID) {
        guard bitmap.width > 0, bitmap.height > 0 else { return }
        let (w, h) = (bitmap.width, bitmap.height)
        bitmap.pixels.withUnsafeMutableBytes { raw in
            guard let canvas = CairoCanvas(wrapping: raw.baseAddress!, width: w, height: h) else { return }
            TrackPainter.paint(painted, areas: areas, ramp: ramp, tile: tile, pointScale: Double(w) / 256, into: canvas)
            cairo_surface_flush(canvas.surface)
        }
    }
}
