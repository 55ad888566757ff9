import FoundationEssentials
import MapGeometry
import Platform

/// What a layer paints into the map's tile pictures, as of one state of the layer: tracks,
/// the trail, a measured line, shapes. Painted by the tile workers (MapGraphics'
/// `TileOverlayPainters` holds one painter per kind), so it is exactly attached to the map in
/// every frame and costs a frame nothing. Immutable, so the workers share it.
public protocol TileOverlay: Sendable {
    /// Whether anything reaches into `tile` (others keep the map's picture as it is).
    func touches(_ tile: TileID) -> Bool
}

/// A layer's tile content as the session sees it: which state of it is drawn, what changed
/// last, and how to make the overlay (only when the state is new: making it may cost).
public struct TileContent {
    /// Changes whenever what the tiles show changes.
    public var revision: Int
    /// When the last change touched only a region (the trail grew): what need not be drawn
    /// again outside it.
    public var change: TileChange?
    /// The overlay of this state; nil when the layer paints nothing now.
    public var make: () -> (any TileOverlay)?

    public init(revision: Int, change: TileChange? = nil, make: @escaping () -> (any TileOverlay)?) {
        self.revision = revision; self.change = change; self.make = make
    }
}

/// A change of a layer's tile content confined to a region: tiles away from it keep their
/// pictures.
public struct TileChange: Sendable, Equatable {
    /// The revision the change was made to (the next one is the result).
    public var from: Int
    /// World coordinates of what changed, and how far (points) its lines reach beyond it.
    public var region: MapRect
    public var reach: Double

    public init(from: Int, region: MapRect, reach: Double) { self.from = from; self.region = region; self.reach = reach }

    /// Whether `tile`'s picture shows any of the change.
    public func touches(_ tile: TileID) -> Bool { tile.isReached(from: region, reach: reach) }
}

extension TileID {
    /// Whether what lies in `region` and is drawn up to `reach` points beyond it (a line's
    /// half width and casing) shows in this tile's picture.
    func isReached(from region: MapRect, reach: Double) -> Bool {
        let box = mapRect
        return region.intersects(box.outset(by: reach * box.size.width / 256))
    }
}

/// Lines and shapes painted into tiles, coloured plain or by a ramp: what tracks, the trail
/// and the measured line all are on the map.
public struct LineOverlay: TileOverlay {
    public let lines: [TrackLine]
    public let areas: [AreaShape]
    /// Lines are coloured by their values on this ramp, when set.
    public let ramp: TrackColorRamp?
    /// What the painter draws of each line, with the values the ramp colours (worked out
    /// once here, not for every tile).
    public let painted: [(geometry: TrackGeometry, style: TrackStyle, values: [Float])]

    public init(lines: [TrackLine], areas: [AreaShape] = [], ramp: TrackColorRamp? = nil) {
        self.lines = lines
        self.areas = areas
        self.ramp = ramp
        painted = lines.map { line in (line.geometry, line.style, ramp.map { line.values(for: $0.mode) } ?? []) }
    }

    /// Whether anything reaches into `tile` (the widest line's reach allowed for).
    public func touches(_ tile: TileID) -> Bool {
        lines.contains { tile.isReached(from: $0.geometry.bounds, reach: $0.style.reach) }
            || areas.contains { tile.isReached(from: $0.geometry.bounds, reach: $0.stroke.reach) }
    }
}

/// Every layer's tile content in paint order, as one value the tile pipeline follows.
public struct TileOverlays {
    public var contents: [TileContent]
    public init(_ contents: [TileContent] = []) { self.contents = contents }

    /// Which state each layer is in: a new one means new pictures.
    public var revisions: [Int] { contents.map(\.revision) }

    /// The overlays to paint, bottom first.
    public func make() -> [any TileOverlay] { contents.compactMap { $0.make() } }

    /// The region that changed since `old`, when one layer alone changed, by one step, in a
    /// region (the trail grew); nil when every tile must be drawn again.
    public func change(since old: [Int]) -> TileChange? {
        guard old.count == contents.count else { return nil }
        let changed = contents.indices.filter { contents[$0].revision != old[$0] }
        guard changed.count == 1, let c = contents[changed[0]].change,
              c.from == old[changed[0]], contents[changed[0]].revision == c.from + 1 else { return nil }
        return c
    }
}
