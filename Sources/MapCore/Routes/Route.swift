import MapGeometry
import Platform

/// How the route is travelled: what roads it may use and how fast it goes on them.
public enum TravelMode: String, CaseIterable, Sendable {
    case car, bike, foot

    /// The mode named on a command line or in a file ("car", "bike"/"bicycle", "foot"/"walk").
    public init?(name: String) {
        switch name.lowercased() {
        case "car", "motorcar", "drive", "driving": self = .car
        case "bike", "bicycle", "cycle", "cycling": self = .bike
        case "foot", "walk", "walking", "pedestrian": self = .foot
        default: return nil
        }
    }
}

/// A question for a route engine: through these points, in order, by this mode.
public struct RouteRequest: Hashable, Sendable {
    /// From, the vias, to: at least two.
    public var waypoints: [Coordinate]
    public var mode: TravelMode
    /// The language steps are asked in ("de"), where the engine has it; nil for English.
    public var language: String?

    public init(waypoints: [Coordinate], mode: TravelMode, language: String? = nil) {
        self.waypoints = waypoints
        self.mode = mode
        self.language = language
    }

    public var from: Coordinate? { waypoints.first }
    public var to: Coordinate? { waypoints.count > 1 ? waypoints.last : nil }
}

/// What a driver, rider or walker does at a step.
public enum Maneuver: Hashable, Sendable {
    case depart
    case straight
    case slightLeft, left, sharpLeft
    case slightRight, right, sharpRight
    case uTurn
    /// Take the roundabout's `exit`th exit (0 when the engine does not say which).
    case roundabout(exit: Int)
    /// A via point reached (the route goes on).
    case via
    case arrive

    /// The turn for a change of heading of `degrees` (positive: to the right; -180…180),
    /// with the bands people and engines use: under 20° straight on, 20–60° slight, 60–130°
    /// a turn, 130–170° sharp, beyond that a U-turn.
    public static func turn(degrees: Double) -> Maneuver {
        guard degrees.isFinite else { return .straight }
        var d = degrees.truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 } else if d < -180 { d += 360 }
        let a = abs(d)
        if a < 20 { return .straight }
        if a > 170 { return .uTurn }
        if a < 60 { return d > 0 ? .slightRight : .slightLeft }
        if a < 130 { return d > 0 ? .right : .left }
        return d > 0 ? .sharpRight : .sharpLeft
    }

    /// The name `--json` prints and icons are chosen by ("left", "roundabout", …).
    public var name: String {
        switch self {
        case .depart: "depart"
        case .straight: "straight"
        case .slightLeft: "slight-left"
        case .left: "left"
        case .sharpLeft: "sharp-left"
        case .slightRight: "slight-right"
        case .right: "right"
        case .sharpRight: "sharp-right"
        case .uTurn: "u-turn"
        case .roundabout: "roundabout"
        case .via: "via"
        case .arrive: "arrive"
        }
    }
}

/// One instruction of a route: what to do where, and how far it goes from there.
public struct RouteStep: Hashable, Sendable {
    public var maneuver: Maneuver
    /// The road taken at this step (nil when the map names none).
    public var road: String?
    /// Metres and seconds from this step to the next.
    public var distance: Double
    public var duration: Double
    /// Where the step is done.
    public var at: Coordinate
    /// The index in the route's geometry of `at`.
    public var index: Int

    public init(maneuver: Maneuver, road: String?, distance: Double, duration: Double, at: Coordinate, index: Int) {
        self.maneuver = maneuver
        self.road = road
        self.distance = distance
        self.duration = duration
        self.at = at
        self.index = index
    }
}

/// A route an engine found: its line, its steps and what it costs.
public struct Route: Hashable, Sendable {
    public var request: RouteRequest
    /// The line, from the first waypoint to the last.
    public var geometry: [Coordinate]
    public var steps: [RouteStep]
    /// Metres and seconds in all.
    public var distance: Double
    public var duration: Double
    /// Which engine found it ("Routino", "OSRM (FOSSGIS)") and the credit its data asks for.
    public var engine: String
    public var credit: String
    /// Whether a service found it (its terms then ask for a way to report map errors).
    public var online: Bool
    /// Metres climbed and fallen along it, where heights were at hand (`RouteHeights`).
    public var ascent: Double?
    public var descent: Double?
    /// The height at each point of `geometry` where heights were at hand (else empty).
    public var heights: [Float] = []

    public init(request: RouteRequest, geometry: [Coordinate], steps: [RouteStep], distance: Double, duration: Double,
                engine: String, credit: String, online: Bool = false) {
        self.request = request
        self.geometry = geometry
        self.steps = steps
        self.distance = distance
        self.duration = duration
        self.engine = engine
        self.credit = credit
        self.online = online
    }

    /// The smallest box holding the whole line (nil for no line).
    public var bounds: (south: Double, west: Double, north: Double, east: Double)? { Self.bounds(of: geometry) }

    /// The smallest box holding `points` (nil for none): a line's, or the places a route is
    /// asked through.
    public static func bounds(of points: [Coordinate]) -> (south: Double, west: Double, north: Double, east: Double)? {
        guard let first = points.first else { return nil }
        var b = (south: first.latitude, west: first.longitude, north: first.latitude, east: first.longitude)
        for c in points.dropFirst() {
            b.south = min(b.south, c.latitude); b.north = max(b.north, c.latitude)
            b.west = min(b.west, c.longitude); b.east = max(b.east, c.longitude)
        }
        return b
    }
}

/// Addresses shown with routes.
public enum RouteLinks {
    /// Where a person reports a mistake in the map a route went wrong on (FOSSGIS's terms ask
    /// for it beside every online route).
    public static let fixTheMap = "https://www.openstreetmap.org/fixthemap"
}
