import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// A named place, or a feature a map style labels, that may get a label.
public struct PlaceLabel: Hashable, Sendable {
    /// Where the text goes relative to its feature.
    public enum Placement: Hashable, Sendable {
        /// The basemap's towns: a dot, the text on the first free side of it.
        case place
        /// Text whose `anchor` sits at the point, moved by `offset` points (a style's
        /// text-anchor and text-offset); no dot.
        case point(anchor: LabelAnchor, offset: ScreenPoint)
        /// Text along a line (street names): curved with it, upright, repeated every
        /// `spacing` points where there is room.
        case line([MapPoint], spacing: Double)
    }

    public let name: String
    /// The point labelled (for a line, its first point).
    public let point: MapPoint
    public let population: Int
    public let capital: Bool
    public let placement: Placement
    /// Higher ranks are placed first.
    public let rank: Int
    public let style: TextStyle
    /// An icon drawn at the point (labels at points only).
    public let icon: LabelIcon?
    /// The sprite of its name and the box its label claims (`LabelPlacer.estimatedSize`),
    /// worked out once: placement needs both for every place, every frame.
    public let textKey: SpriteKey
    public let estimatedTextSize: ScreenSize
    /// Its text is set as one shaped run, not letter by letter (`needsShaping`).
    public let isShapedWhole: Bool
    /// What tells it from its neighbours from frame to frame: its name, or for an icon
    /// without text, which icon it is.
    public let identity: String
    /// The style's text-size over the zoom, when it changes with the zoom: the label is drawn
    /// at the camera's zoom's size (`scale(at:)`), not its tile's. Nil: its look's size.
    public let sizes: TextSizeCurve?
    /// Whether its text and icon turn with the map or stay level on the screen.
    public let alignment: LabelAlignment
    /// Its text's own box at its look's size, measured where it was made (the longest line's
    /// advance by 1.2 ems a line, no halo): a label at a point with one claims this box grown
    /// by `padding` on every side (MapLibre's collision box and text-padding: halos may touch,
    /// letters not), and its sprite is centred on it. Without one it claims its estimated
    /// sprite's box (`estimatedTextSize`).
    public let textBox: ScreenSize?
    /// Points kept free around `textBox` (a style's text-padding).
    public let padding: Double
    /// Its feature's place in its tile's layer: among labels of one rank, MapLibre places a
    /// tile's in the order of its features (`LabelPlacer`).
    public let sequence: Int
    /// A line that comes in across its tile's edge (it was cut there): its names are spaced
    /// from half a spacing after the edge, not from its start (MapLibre's continued lines).
    public let continued: Bool
    /// The data tile it was read from: MapLibre lays out and places labels tile by tile, and a
    /// tile magnified past its data's zoom keeps its data tile's layout (`LabelPlacer`).
    public let tile: TileID?

    /// A town of the basemap: ranked and styled by its population.
    public init(name: String, point: MapPoint, population: Int, capital: Bool) {
        let style = Self.style(population: population, capital: capital)
        self.init(name: name, point: point, rank: Self.rank(population: population, capital: capital), style: style,
                  placement: .place, population: population, capital: capital)
    }

    /// A label a map style asks for.
    public init(name: String, point: MapPoint, rank: Int, style: TextStyle, placement: Placement,
                population: Int = 0, capital: Bool = false, icon: LabelIcon? = nil, sizes: TextSizeCurve? = nil,
                alignment: LabelAlignment? = nil, textBox: ScreenSize? = nil, padding: Double = 2, sequence: Int = 0,
                continued: Bool = false, tile: TileID? = nil) {
        self.name = name; self.point = point; self.population = population; self.capital = capital
        self.rank = rank; self.style = style; self.placement = placement; self.icon = icon
        self.sizes = sizes; self.sequence = sequence; self.continued = continued; self.tile = tile
        // Bounded here, where a measurement or a style's number becomes room on the screen.
        self.textBox = textBox.flatMap { b in
            b.width.isFinite && b.height.isFinite && b.width >= 0 && b.height >= 0
                ? ScreenSize(width: min(b.width, 4096), height: min(b.height, 4096)) : nil
        }
        self.padding = padding.isFinite ? min(max(padding, 0), 64) : 2
        if case .line = placement { self.alignment = alignment ?? .standard(alongLine: true) } else {
            self.alignment = alignment ?? .standard(alongLine: false)
        }
        textKey = .text(name, style)
        estimatedTextSize = LabelPlacer.estimatedSize(name, style)
        isShapedWhole = Self.needsShaping(name)
        identity = name.isEmpty ? icon.map { "icon \($0.key)" } ?? "" : name
    }

    /// Whether `text` has letters that change with their neighbours or read right to left —
    /// Arabic and Syriac join, Hebrew and Thaana run leftwards, the Indic scripts, Thai, Lao,
    /// Tibetan, Myanmar and Khmer stack and reorder — so that set one by one they would read
    /// wrong: such text is shaped as a whole (Pango, HarfBuzz) and placed as one run.
    public static func needsShaping(_ text: String) -> Bool {
        text.unicodeScalars.contains { u in
            let v = u.value
            return (0x0590...0x08FF).contains(v)     // Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan…
                || (0x0900...0x0DFF).contains(v)     // Devanagari … Sinhala
                || (0x0E00...0x109F).contains(v)     // Thai, Lao, Tibetan, Myanmar
                || (0x1780...0x18AF).contains(v)     // Khmer, Mongolian
                || (0x1A20...0x1AAF).contains(v)     // Tai Tham
                || (0x1B00...0x1B7F).contains(v)     // Balinese
                || (0xA980...0xA9FF).contains(v)     // Javanese, Myanmar Extended-B
                || (0xAA60...0xAA7F).contains(v)     // Myanmar Extended-A
                || (0xFB1D...0xFDFF).contains(v)     // Hebrew and Arabic presentation forms
                || (0xFE70...0xFEFF).contains(v)
                || (0x10D00...0x10D3F).contains(v)   // Hanifi Rohingya
                || (0x1E900...0x1E95F).contains(v)   // Adlam
                || v == 0x200F || v == 0x202B || v == 0x202E || v == 0x2067  // right-to-left marks and isolates
        }
    }

    /// Bigger places first, a capital counting as four times its population (so Paris
    /// beats any French town, but Barcelona beats Andorra la Vella); among a style's labels of
    /// one rank, their features' order in the tile (`sequence`), as MapLibre's; position breaks
    /// ties so the order is stable. The order of the per-tile cut (the placer orders by tile too).
    public static func morePrioritary(_ a: PlaceLabel, _ b: PlaceLabel) -> Bool {
        if a.rank == b.rank, a.sequence != b.sequence { return a.sequence < b.sequence }
        return precedes(rank: a.rank, a.point, rank: b.rank, b.point)
    }

    /// `morePrioritary` on precomputed ranks, for sorting many places a frame.
    public static func precedes(rank ra: Int, _ pa: MapPoint, rank rb: Int, _ pb: MapPoint) -> Bool {
        if ra != rb { return ra > rb }
        return pa.x != pb.x ? pa.x < pb.x : pa.y < pb.y
    }

    /// A style's label (no dot beside it).
    public var isStyled: Bool { if case .place = placement { return false } else { return true } }

    public static func rank(population: Int, capital: Bool) -> Int { capital ? population * 4 : population }

    static func style(population: Int, capital: Bool) -> TextStyle {
        capital ? .capital : population >= 1_000_000 ? .majorPlace : .place
    }
}

/// Which point of a label's box sits on its anchor (MapLibre's text-anchor).
public enum LabelAnchor: String, Hashable, Sendable, CaseIterable {
    case center, left, right, top, bottom
    case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"

    /// The box of `size` whose anchor point is `p`.
    public func box(at p: ScreenPoint, size: ScreenSize) -> ScreenRect {
        let fx: Double, fy: Double
        switch self {
        case .center: (fx, fy) = (0.5, 0.5)
        case .left: (fx, fy) = (0, 0.5)
        case .right: (fx, fy) = (1, 0.5)
        case .top: (fx, fy) = (0.5, 0)
        case .bottom: (fx, fy) = (0.5, 1)
        case .topLeft: (fx, fy) = (0, 0)
        case .topRight: (fx, fy) = (1, 0)
        case .bottomLeft: (fx, fy) = (0, 1)
        case .bottomRight: (fx, fy) = (1, 1)
        }
        return ScreenRect(x: p.x - fx * size.width, y: p.y - fy * size.height, width: size.width, height: size.height)
    }
}

/// A label that won its place: where the dot and the text go, in screen points.
public struct PlacedLabel: Hashable, Sendable {
    /// Where the text sits beside its dot, in the order they are tried.
    public enum Side: CaseIterable, Hashable, Sendable { case right, left, above, below }

    /// One letter of a label along a line: its sprite, centred at `center`, turned by `degrees`.
    public struct Glyph: Hashable, Sendable {
        public var key: SpriteKey
        public var center: ScreenPoint
        public var degrees: Double
    }

    public var place: PlaceLabel
    /// The dot's box (empty for styled labels, which have none); the icon's box for a label
    /// with an icon.
    public var dot: ScreenRect
    /// The text's rectangle: its sprite's true size once rasterized, else the estimate. For a
    /// label along a line, the box around its letters.
    public var text: ScreenRect
    public var side: Side
    /// False while its text is still to be rasterized (the spot is held, nothing drawn).
    public var ready: Bool = true
    /// The letters of a label along a line; empty otherwise.
    public var glyphs: [Glyph] = []
    /// How much larger than their sprites its text and letters are drawn (the style's
    /// text-size at the camera's zoom over its tile's, `TextSizeCurve`).
    public var scale: Double = 1
    /// A map-aligned label at a point turns with the map: its text and its icon are drawn
    /// turned clockwise by these about their centres (0 for level ones).
    public var degrees: Double = 0
    public var iconDegrees: Double = 0
    /// The point it labels on screen: the dot's or the point's centre, or for a label along a
    /// line the point on the line under its middle (what the next placement holds it to).
    public var anchor: ScreenPoint

    /// The rectangle of text of `size` on `side` of `dot`, vertically or horizontally centred on it.
    public static func textRect(side: Side, size: ScreenSize, dot: ScreenRect) -> ScreenRect {
        let cx = dot.x + dot.width / 2, cy = dot.y + dot.height / 2
        let gap = dot.width / 2 + 2
        switch side {
        case .right: return ScreenRect(x: cx + gap, y: cy - size.height / 2, width: size.width, height: size.height)
        case .left: return ScreenRect(x: cx - gap - size.width, y: cy - size.height / 2, width: size.width, height: size.height)
        case .above: return ScreenRect(x: cx - size.width / 2, y: cy - gap - size.height, width: size.width, height: size.height)
        case .below: return ScreenRect(x: cx - size.width / 2, y: cy + gap, width: size.width, height: size.height)
        }
    }
}
