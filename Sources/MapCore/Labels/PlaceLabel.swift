import FoundationEssentials
import Glibc
import MapGeometry

/// A named place that may get a label.
public struct PlaceLabel: Hashable, Sendable {
    public var name: String
    public var point: MapPoint
    public var population: Int
    public var capital: Bool

    public init(name: String, point: MapPoint, population: Int, capital: Bool) {
        self.name = name; self.point = point; self.population = population; self.capital = capital
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

    public var rank: Int { capital ? population * 4 : population }

    public var style: TextStyle {
        capital ? .capital : population >= 1_000_000 ? .majorPlace : .place
    }
}

/// A label that won its place: where the dot and the text go, in screen points.
public struct PlacedLabel: Hashable, Sendable {
    public var place: PlaceLabel
    public var dot: ScreenRect
    public var text: ScreenRect
    /// False while its text is still to be rasterized (the spot is held, nothing drawn).
    public var ready: Bool = true
}
