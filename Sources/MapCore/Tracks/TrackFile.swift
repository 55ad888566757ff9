import FoundationEssentials
import MapGeometry
import Platform

/// How a track's line looks: its colour and width in points, over a lighter casing that
/// makes it read on any background (dark forest, blue sea, grey city).
public struct TrackStyle: Sendable, Hashable {
    public var color: Color
    public var width: Double
    public var casing: Color
    /// Points of casing on each side of the line.
    public var casingWidth: Double

    public init(color: Color, width: Double = 4, casing: Color = Color(hex: 0xFFFFFF, alpha: 0.85), casingWidth: Double = 1.5) {
        self.color = color
        self.width = width
        self.casing = casing
        self.casingWidth = casingWidth
    }

    /// How far the drawn line reaches beyond its points, in points.
    public var reach: Double { width / 2 + casingWidth }

    /// Colours for files that name none, one per file in turn: saturated, apart from each
    /// other and from the basemap's greens, blues and greys.
    public static let palette: [Color] = [
        Color(hex: 0xD6246E), Color(hex: 0x1F5FD6), Color(hex: 0xE86A10), Color(hex: 0x7B2FBE),
        Color(hex: 0x0E8A7E), Color(hex: 0xC0392B), Color(hex: 0x2E4A9E), Color(hex: 0xB8860B),
    ]
}

/// A track or route ready to draw: what was read, its projected geometry and its style.
public struct TrackLine: Sendable {
    public let track: Track
    public let geometry: TrackGeometry
    public var style: TrackStyle
    /// Each point's speed in m/s (`TrackSpeeds`), its distance, times, climbing and speeds,
    /// and its elevation profile: worked out after the line is shown (`TrackDetails`), so
    /// that a large track is on the map sooner. Until then, and without times or elevations,
    /// empty or nil.
    public var speed: [Float] = []
    public var statistics: TrackStatistics?
    public var profile: TrackProfile?

    public init(track: Track, geometry: TrackGeometry, style: TrackStyle) {
        self.track = track
        self.geometry = geometry
        self.style = style
    }

    /// The line with its details worked out (on the caller's thread).
    public func withDetails() -> TrackLine {
        var line = self
        line.apply(TrackDetails(self))
        return line
    }

    public mutating func apply(_ details: TrackDetails) {
        speed = details.speed
        statistics = details.statistics
        profile = details.profile
    }

    /// The values a colour mode shows, one per point (NaN where unknown); empty for none.
    public func values(for mode: TrackColorMode) -> [Float] {
        switch mode {
        case .plain: return []
        case .speed: return speed
        case .elevation: return track.points.elevation.contains(where: \.isFinite) ? track.points.elevation : []
        case .heartRate: return Self.sensor(track.points.heartRate)
        case .cadence: return Self.sensor(track.points.cadence)
        case .power: return Self.sensor(track.points.power)
        }
    }

    /// A sensor's column as values (0, "none", as NaN); empty when no point has one.
    static func sensor(_ column: [UInt16]) -> [Float] {
        guard column.contains(where: { $0 > 0 }) else { return [] }
        return column.map { $0 > 0 ? Float($0) : .nan }
    }
}

/// A filled shape ready to draw: its rings projected once, with their bounds.
public final class AreaGeometry: Sendable {
    /// World coordinates; the first ring is the outline, the others holes.
    public let rings: [[MapPoint]]
    public let bounds: MapRect

    public init(_ area: Area) {
        rings = area.rings.map { $0.map { WebMercator.project($0) } }
        bounds = MapRect.bounding(rings.joined()) ?? MapRect(x: 0, y: 0, width: 0, height: 0)
    }
}

/// An area and how it is painted: filled, then outlined.
public struct AreaShape: Sendable {
    public let area: Area
    public let geometry: AreaGeometry
    public var fill: Color
    public var stroke: TrackStyle

    public init(area: Area, geometry: AreaGeometry, fill: Color, stroke: TrackStyle) {
        self.area = area
        self.geometry = geometry
        self.fill = fill
        self.stroke = stroke
    }
}

/// What one opened file shows on the map: its lines, shapes and named points.
public struct TrackFile: Sendable {
    public var path: String
    public var lines: [TrackLine]
    public var areas: [AreaShape]
    public var waypoints: [Waypoint]
    /// The file's colour: its waypoints', and its lines' and shapes' unless they name one.
    public var color: Color
    /// Hidden files stay open (and listed) but are not drawn.
    public var hidden = false
    /// Made in the window (the trail, a measured line), not read from a file: not reopened
    /// at the next start.
    public var isLive = false
    /// Tells this opening of the file from any other (the same file may be open twice).
    public let id: Int

    public init(path: String, lines: [TrackLine] = [], areas: [AreaShape] = [], waypoints: [Waypoint] = [],
                color: Color = TrackStyle.palette[0]) {
        id = Self.ids.next()
        self.path = path
        self.lines = lines
        self.areas = areas
        self.waypoints = waypoints
        self.color = color
    }

    /// The file's name without its folder.
    public var name: String { path.split(separator: "/").last.map(String.init) ?? path }

    /// The colour the file stands for on the map (its waypoints, its row in the list): its
    /// first line's, else its own.
    public var shownColor: Color { lines.first?.style.color ?? color }

    /// What a line of this file is called: its own name, else the file's.
    public func title(of line: TrackLine) -> String {
        line.track.name.flatMap { $0.isEmpty ? nil : $0 } ?? name
    }

    /// Where everything in the file lies (world coordinates); nil for a file with nothing.
    public var bounds: MapRect? {
        let points = MapRect.bounding(waypoints.map { WebMercator.project(Coordinate(latitude: $0.latitude, longitude: $0.longitude)) })
        return MapRect.union(lines.map(\.geometry.bounds) + areas.map(\.geometry.bounds) + (points.map { [$0] } ?? []))
    }
}

/// Numbers handed out once each, from any thread.
final class Counter: @unchecked Sendable {
    private let lock = Lock()
    private var value = 0
    func next() -> Int {
        lock.lock(); defer { lock.unlock() }
        value += 1
        return value
    }
}

extension TrackFile {
    static let ids = Counter()
}
