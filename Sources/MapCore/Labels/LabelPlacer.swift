import FoundationEssentials
import Glibc
import Platform
import MapGeometry

/// Greedy label placement: the most important places first, each trying its text right,
/// left, above and below its dot, taking the first spot that collides with nothing placed.
/// Positions are worked out in world pixels at the current zoom, so panning moves every
/// label together and never reshuffles them. With the placement at the camera before
/// (`LabelMemory`), the labels placed there are placed first, where they were, so a label
/// keeps its place while it fits: zooming in, where room only grows, drops none.
public struct LabelPlacer {
    /// Room kept free around each of the basemap's labels, in points (a style's labels claim
    /// their sprites' boxes, halo and all).
    public var padding = 3.0
    public var dotSize = 5.0
    /// At most this many of the basemap's places per million square points of screen:
    /// density follows zoom through the data (more places appear in deeper tiles) and
    /// through collisions. A style's labels are limited by collisions alone.
    public var maxPerMegapoint = 80.0

    public init() {}

    /// `reserved`: screen areas no label may cover (the scale bar, the attribution).
    public func place(_ candidates: [PlaceLabel], camera: Camera, sprites: SpriteAvailability,
                      reserved: [ScreenRect] = [], previous: LabelMemory = LabelMemory()) -> [PlacedLabel] {
        let view = ScreenRect(x: 0, y: 0, width: camera.viewportSize.width, height: camera.viewportSize.height)
        // Places just outside the view still claim their space, so a label near the edge
        // does not change when its neighbour scrolls into view.
        let m = Self.margin
        let area = ScreenRect(x: -m, y: -m, width: view.width + 2 * m, height: view.height + 2 * m)
        let limit = Int(saturating: maxPerMegapoint * area.width * area.height / 1e6) + 8
        var taken = RectGrid(cell: 64)
        for r in reserved { taken.insert(r) }
        // Only places inside the area compete; they are ordered by a precomputed key (rank,
        // tile, place in the tile, then position for a stable order) — this runs every frame
        // of a zoom.
        var order: [Candidate] = []
        order.reserveCapacity(candidates.count)
        // Within a rank MapLibre places tile by tile, down the screen and across, each tile's
        // labels in its features' order (`tileOrder`).
        let tiles = Self.tileOrder(camera)
        for (i, c) in candidates.enumerated() {
            let p = camera.screenPoint(for: c.point)
            if case let .line(path, _) = c.placement {
                // A line competes when any of it is near the view.
                guard Self.screenBounds(path, camera).intersects(area) else { continue }
            } else {
                guard p.x >= area.x, p.x <= area.maxX, p.y >= area.y, p.y <= area.maxY else { continue }
            }
            order.append((c.rank, tiles(c), c.sequence, c.point, p, i))
        }
        order.sort { a, b in
            if a.rank != b.rank { return a.rank > b.rank }
            if a.tile != b.tile { return a.tile < b.tile }
            if a.sequence != b.sequence { return a.sequence < b.sequence }
            return PlaceLabel.precedes(rank: a.rank, a.at, rank: b.rank, b.at)
        }
        // Those placed before go first, each where it was; then everyone, in rank order, as
        // if nothing had been placed before (a label held in the first round is not placed again),
        // in an order that turning and zooming leave alone (rank, then
        // where they are on the map), so that of two held labels brought together the same one
        // stays from frame to frame.
        let heldOrder = previous.isEmpty ? [] : order.sorted { PlaceLabel.precedes(rank: $0.rank, $0.at, rank: $1.rank, $1.at) }
        var room = Room(taken: taken)
        for held in previous.isEmpty ? [false] : [true, false] {
            placeRound(held: held, held ? heldOrder : order, candidates, camera: camera, sprites: sprites, previous: previous,
                       area: area, limit: limit, room: &room)
        }
        return room.out.filter { view.intersects($0.text) || (!$0.place.isStyled && view.intersects($0.dot)) }
    }

    /// What a placement holds from round to round: the room taken, the labels placed, and what
    /// keeps one place from being labelled twice.
    private struct Room {
        var taken: RectGrid
        var out: [PlacedLabel] = []
        /// The same place can arrive from two tiles (a parent standing in); one is kept.
        var seen = Set<Seen>()
        /// Where each name already runs along a line: a street mapped as several lines (both
        /// carriageways, its pavements) is named once there, not on each.
        var named: [String: [ScreenPoint]] = [:]
        /// Candidates a held round placed where they were (not placed again after).
        var held = Set<Int>()
        /// The basemap's labels placed (thinned to a density).
        var towns = 0
    }

    private struct Seen: Hashable { var name: String; var x: Int, y: Int }
    private struct Stretch: Hashable { var name: String; var x0, y0, x1, y1: Double; var count: Int }
    private typealias Candidate = (rank: Int, tile: Int, sequence: Int, at: MapPoint, point: ScreenPoint, index: Int)

    /// One round of placing, in `order`: with `held`, only the labels remembered from the
    /// placement before, each where it was; without, every candidate not already held.
    private func placeRound(held round: Bool, _ order: [Candidate], _ candidates: [PlaceLabel], camera: Camera,
                            sprites: SpriteAvailability, previous: LabelMemory, area: ScreenRect, limit: Int, room: inout Room) {
        // (Lines are kept apart by name along them; the same stretch from several tiles is
        // taken once a round.)
        var stretches = Set<Stretch>()
        for o in order {
            let c = candidates[o.index]
            // The basemap's towns are thinned to a density; a style's labels only by their
            // room, as MapLibre places them. (Counted over the margin too.)
            if !c.isStyled { guard room.towns < limit else { continue } }
            let before = room.out.count
            defer { if !c.isStyled { room.towns += room.out.count - before } }
            var side: PlacedLabel.Side?
            var anchors: [ScreenPoint]?
            if round {
                if case .line = c.placement {
                    let remembered = previous.entries(SameLabel(c), camera: camera).map(\.point)
                    guard !remembered.isEmpty else { continue }
                    anchors = remembered
                } else {
                    guard let s = previous.entry(SameLabel(c), near: o.point, camera: camera) else { continue }
                    side = s
                    room.held.insert(o.index)
                }
            } else if room.held.contains(o.index) {
                continue
            }
            // (Lines are kept apart by name along them instead: two streets, or a street's name
            // and its number, may start at one node. The same stretch from several tiles is
            // taken once.)
            if case let .line(path, _) = c.placement {
                guard let last = path.last,
                      stretches.insert(Stretch(name: c.identity, x0: c.point.x, y0: c.point.y, x1: last.x, y1: last.y, count: path.count)).inserted
                else { continue }
            } else {
                guard room.seen.insert(Seen(name: c.name, x: Int(saturating: c.point.x * 1e7), y: Int(saturating: c.point.y * 1e7))).inserted else { continue }
            }
            // Every label competes with its estimated box (a generous one), rasterized or not:
            // placement is then a pure function of the places and the camera, so nothing
            // shuffles when a sprite arrives, and the window and `render` agree. The text is
            // drawn at its true size on the side that won (`PlacedLabel.textRect`); the rare
            // text larger than its estimate claims its true size, so labels never overlap.
            // An icon without text (a style's icon-only symbol) has no text to wait for.
            // Text whose size follows the zoom is drawn `k` times its sprite's size, and claims as much.
            let k = c.scale(at: camera)
            let ready = c.name.isEmpty ? ScreenSize(width: 0, height: 0) : sprites.size(of: c.textKey).map { Self.scaled($0, k) }
            let estimate = Self.scaled(c.estimatedTextSize, k)
            let size = ScreenSize(width: max(estimate.width, ready?.width ?? 0), height: max(estimate.height, ready?.height ?? 0))
            let p = o.point
            switch c.placement {
            case .place:
                if let placed = placeBesideDot(c, at: p, size: size, ready: ready, area: area, taken: &room.taken, first: side) { room.out.append(placed) }
            case let .point(anchor, offset):
                // Map-aligned text and icons turn with the map about the point; level ones
                // keep their anchor and offset on the screen. Each claims the box around it
                // as the screen shows it.
                let at = ScreenPoint(x: p.x + offset.x * k, y: p.y + offset.y * k)
                let turn = c.alignment.text == .map ? camera.northOnScreen : 0
                let iconTurn = c.alignment.icon == .map ? camera.northOnScreen : 0
                // The icon, centred on the point, claims its room too; an icon alone, only its own.
                let icon = c.icon.map { Self.turned(LabelAnchor.center.box(at: p + $0.offset, size: $0.size), by: iconTurn, about: p) }
                // Measured text claims MapLibre's box: its own, grown by its padding; its sprite
                // (halo and all) is drawn centred on it. Else its estimated sprite's box.
                let own = c.textBox.map { anchor.box(at: at, size: Self.scaled($0, k)) }
                let claimed = own.map { $0.outset(c.padding) } ?? anchor.box(at: at, size: size)
                let textBox = Self.turned(claimed, by: turn, about: p)
                guard let box = c.name.isEmpty ? icon?.bounds : textBox.bounds else { continue }
                // (An estimated sprite's box holds its halo and a point more: the letters of
                // two labels stay four or five points apart, as text-padding keeps them.)
                guard area.intersects(box), !room.taken.intersects(box), !(icon.map { room.taken.intersects($0.bounds) } ?? false) else { continue }
                room.taken.insert(box)
                if let icon { room.taken.insert(icon.bounds) }
                let drawn = { (s: ScreenSize) -> ScreenRect in
                    guard let own else { return anchor.box(at: at, size: s) }
                    return LabelAnchor.center.box(at: ScreenPoint(x: own.x + own.width / 2, y: own.y + own.height / 2), size: s)
                }
                // Away from the zoom its sprite was made for, a text whose size follows the zoom
                // is drawn as long as measured (its sprite is whole pixels, at its tile's size):
                // it grows without steps. At that zoom (a map at rest) it is drawn pixel for pixel.
                var shown = ready ?? size
                if let curve = c.sizes, curve.zoom != camera.zoom, let own, let raw = sprites.size(of: c.textKey),
                   case let .styled(look) = c.style {
                    let pr = max(camera.pixelRatio, 0.5), pad = ((look.haloWidth * pr).rounded(.up) + 1) / pr
                    if raw.width - 2 * pad > 0 {
                        // (Its height magnified as the style's size: a sprite's width and height are
                        // rounded apart, and one factor for both carried the rounding of one into
                        // the other.)
                        let f = own.width / (raw.width - 2 * pad)
                        shown = ScreenSize(width: raw.width * f, height: max(raw.height - 2 * pad, 0) * k + 2 * pad * f)
                    }
                }
                let text = c.name.isEmpty ? box : Self.turned(drawn(shown), by: turn, about: p).rect
                let iconReady = c.icon.map { sprites.size(of: $0.key) != nil } ?? true
                room.out.append(PlacedLabel(place: c, dot: icon?.rect ?? ScreenRect(x: p.x, y: p.y, width: 0, height: 0), text: text, side: .right,
                                       ready: ready != nil && iconReady, scale: k, degrees: turn, iconDegrees: iconTurn, anchor: p))
            case let .line(path, spacing):
                room.out += placeAlong(c, path: path, spacing: spacing, camera: camera, sprites: sprites, area: area, taken: &room.taken,
                                       named: &room.named, at: anchors)
            }
        }
    }

    public static let margin = 192.0

    func padded(_ r: ScreenRect) -> ScreenRect {
        ScreenRect(x: r.x - padding, y: r.y - padding, width: r.width + 2 * padding, height: r.height + 2 * padding)
    }

    /// The basemap's way: a dot, the text on the first of its sides that is free.
    /// `first`: the side it had before, tried first.
    private func placeBesideDot(_ c: PlaceLabel, at p: ScreenPoint, size: ScreenSize, ready: ScreenSize?, area: ScreenRect,
                                taken: inout RectGrid, first: PlacedLabel.Side? = nil) -> PlacedLabel? {
        let d = dotSize
        let dot = ScreenRect(x: p.x - d / 2, y: p.y - d / 2, width: d, height: d)
        guard area.intersects(dot), !taken.intersects(dot) else { return nil }
        let sides = first.map { f in [f] + PlacedLabel.Side.allCases.filter { $0 != f } } ?? PlacedLabel.Side.allCases
        for side in sides {
            let box = PlacedLabel.textRect(side: side, size: size, dot: dot)
            guard !taken.intersects(padded(box)), !box.intersects(dot) else { continue }
            taken.insert(padded(box))
            taken.insert(dot)
            return PlacedLabel(place: c, dot: dot, text: ready.map { PlacedLabel.textRect(side: side, size: $0, dot: dot) } ?? box,
                               side: side, ready: ready != nil, anchor: p)
        }
        return nil
    }

    /// About how big a label's sprite will be, erring large: DejaVu Sans's letters are
    /// ~0.6–0.75 em wide and m, w, M, W about 1 em ("Hamm" measures 0.85 em a letter, bold
    /// "Amman" 0.88); bold is ~10% wider.
    public static func estimatedSize(_ text: String, _ style: TextStyle) -> ScreenSize {
        let (size, halo, bold): (Double, Double, Bool)
        switch style {
        case .place: (size, halo, bold) = (10.5, 2.2, false)
        case .majorPlace: (size, halo, bold) = (11.5, 2.4, false)
        case .capital: (size, halo, bold) = (12, 2.5, true)
        case .chrome: (size, halo, bold) = (9.5, 0, false)
        case .notice: (size, halo, bold) = (12, 0, false)
        case .callout: (size, halo, bold) = (10.5, 0, false)
        case let .styled(look): return look.estimatedSize(text)
        }
        var ems = 0.0
        for c in text.unicodeScalars { ems += "mwMW@".unicodeScalars.contains(c) ? 1.0 : 0.72 }
        if bold { ems *= 1.1 }
        return ScreenSize(width: (ems * size).rounded(.up) + 2 * halo + 3, height: (size * 1.35).rounded(.up) + 2 * halo + 3)
    }
}

/// Rectangles bucketed by a square grid, so "does this box hit anything placed?" looks at a
/// few neighbours instead of every label.
struct RectGrid: Sendable {
    let cell: Double
    private var buckets: [Int: [ScreenRect]] = [:]

    init(cell: Double) { self.cell = cell }

    private func keys(_ r: ScreenRect) -> [Int] {
        let x0 = Int(saturating: (r.x / cell).rounded(.down)), x1 = Int(saturating: (r.maxX / cell).rounded(.down))
        let y0 = Int(saturating: (r.y / cell).rounded(.down)), y1 = Int(saturating: (r.maxY / cell).rounded(.down))
        var out: [Int] = []
        for y in y0...max(y0, y1) { for x in x0...max(x0, x1) { out.append(y &* 1_000_003 &+ x) } }
        return out
    }

    mutating func insert(_ r: ScreenRect) { for k in keys(r) { buckets[k, default: []].append(r) } }

    func intersects(_ r: ScreenRect) -> Bool {
        keys(r).contains { k in buckets[k]?.contains { $0.intersects(r) } ?? false }
    }
}
