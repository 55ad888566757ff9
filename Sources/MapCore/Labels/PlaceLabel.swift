import FoundationEssentials
import Glibc
import MapGeometry

/// A named place that may get a label.
public struct PlaceLabel: Hashable, Sendable {
    public let name: String
    public let point: MapPoint
    public let population: Int
    public let capital: Bool
    /// The sprite of its name and the box its label claims (`LabelPlacer.estimatedSize`),
    /// worked out once: placement needs both for every place, every frame.
    public let textKey: SpriteKey
    public let estimatedTextSize: ScreenSize

    public init(name: String, point: MapPoint, population: Int, capital: Bool) {
        self.name = name; self.point = point; self.population = population; self.capital = capital
        let style = Self.style(population: population, capital: capital)
        textKey = .text(name, style)
        estimatedTextSize = LabelPlacer.estimatedSize(name, style)
    }

    /// Bigger places first, a capital counting as four times its population (so Paris
    /// beats any French town, but Barcelona beats Andorra la Vella); position breaks ties so
    /// the order is stable. The one order for both the per-tile cut and the placer.
    public static func morePrioritary(_ a: PlaceLabel, _ b: PlaceLabel) -> Bool {
        precedes(rank: a.rank, a.point, rank: b.rank, b.point)
    }

    /// `morePrioritary` on precomputed ranks, for sorting many places a frame.
    public static func precedes(rank ra: Int, _ pa: MapPoint, rank rb: Int, _ pb: MapPoint) -> Bool {
        if ra != rb { return ra > rb }
        return pa.x != pb.x ? pa.x < pb.x : pa.y < pb.y
    }

    public var rank: Int { Self.rank(population: population, capital: capital) }

    public static func rank(population: Int, capital: Bool) -> Int { capital ? population * 4 : population }

    public var style: TextStyle { Self.style(population: population, capital: capital) }

    static func style(population: Int, capital: Bool) -> TextStyle {
        capital ? .capital : population >= 1_000_000 ? .majorPlace : .place
    }
}

/// A label that won its place: where the dot and the text go, in screen points.
public struct PlacedLabel: Hashable, Sendable {
    /// Where the text sits beside its dot, in the order they are tried.
    public enum Side: CaseIterable, Hashable, Sendable { case right, left, above, below }

    public var place: PlaceLabel
    public var dot: ScreenRect
    /// The text's rectangle: its sprite's true size once rasterized, else the estimate.
    public var text: ScreenRect
    public var side: Side
    /// False while its text is still to be rasterized (the spot is held, nothing drawn).
    public var ready: Bool = true

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
