import FoundationEssentials
import MapGeometry
import Platform

/// Points of tracks, stored column by column: a million points take 28 MB (latitude and
/// longitude as doubles, elevation as a float, time as a double), not the 40 of an array of
/// structs with optionals. A missing elevation or time is NaN.
public struct TrackPoints: Sendable {
    public var latitude: [Double] = []
    public var longitude: [Double] = []
    /// Metres; NaN where the file gives none.
    public var elevation: [Float] = []
    /// Seconds since 1970; NaN where the file gives none.
    public var time: [Double] = []
    /// Heart rate (beats per minute) and cadence, from Garmin's TrackPointExtension; empty
    /// unless the file has them, 0 where a point lacks them.
    public var heartRate: [UInt16] = []
    public var cadence: [UInt16] = []
    /// Power (watts), from a FIT or TCX file or a GPX power extension; empty unless the file
    /// has it, 0 where a point lacks it.
    public var power: [UInt16] = []
    /// Temperature (°C); empty unless the file has it, NaN where a point lacks it.
    public var temperature: [Float] = []

    public init() {}

    public var count: Int { latitude.count }

    public mutating func append(latitude lat: Double, longitude lon: Double, elevation: Float, time: Double,
                                heartRate: UInt16 = 0, cadence: UInt16 = 0, power: UInt16 = 0, temperature: Float = .nan) {
        latitude.append(lat)
        longitude.append(lon)
        self.elevation.append(elevation)
        self.time.append(time)
        // Extension columns exist only once a point has a value; earlier points get zeros.
        if heartRate != 0 || !self.heartRate.isEmpty {
            if self.heartRate.count < count - 1 { self.heartRate += [UInt16](repeating: 0, count: count - 1 - self.heartRate.count) }
            self.heartRate.append(heartRate)
        }
        if cadence != 0 || !self.cadence.isEmpty {
            if self.cadence.count < count - 1 { self.cadence += [UInt16](repeating: 0, count: count - 1 - self.cadence.count) }
            self.cadence.append(cadence)
        }
        if power != 0 || !self.power.isEmpty {
            if self.power.count < count - 1 { self.power += [UInt16](repeating: 0, count: count - 1 - self.power.count) }
            self.power.append(power)
        }
        if !temperature.isNaN || !self.temperature.isEmpty {
            if self.temperature.count < count - 1 { self.temperature += [Float](repeating: .nan, count: count - 1 - self.temperature.count) }
            self.temperature.append(temperature)
        }
    }

    /// Appends `other`'s points after these (the extension columns padded with zeros where
    /// only one side has them).
    public mutating func append(contentsOf other: TrackPoints) {
        let before = count
        latitude += other.latitude
        longitude += other.longitude
        elevation += other.elevation
        time += other.time
        let total = count
        func join<T>(_ mine: inout [T], _ theirs: [T], empty: T) {
            guard !mine.isEmpty || !theirs.isEmpty else { return }
            if mine.count < before { mine += [T](repeating: empty, count: before - mine.count) }
            mine += theirs
            if mine.count < total { mine += [T](repeating: empty, count: total - mine.count) }
        }
        join(&heartRate, other.heartRate, empty: 0)
        join(&cadence, other.cadence, empty: 0)
        join(&power, other.power, empty: 0)
        join(&temperature, other.temperature, empty: .nan)
    }

    /// Pads the extension columns to the points' count.
    public mutating func finish() {
        if !heartRate.isEmpty, heartRate.count < count { heartRate += [UInt16](repeating: 0, count: count - heartRate.count) }
        if !cadence.isEmpty, cadence.count < count { cadence += [UInt16](repeating: 0, count: count - cadence.count) }
        if !power.isEmpty, power.count < count { power += [UInt16](repeating: 0, count: count - power.count) }
        if !temperature.isEmpty, temperature.count < count { temperature += [Float](repeating: .nan, count: count - temperature.count) }
    }
}

/// A line read from a file: a GPX track (its segments) or route, with its name and colour.
public struct Track: Sendable {
    public enum Kind: Sendable, Equatable { case track, route }
    public var kind: Kind
    public var name: String?
    /// The colour and line width (points) the file names for it, if any.
    public var color: Color?
    public var width: Double?
    /// Ranges of `points` that are drawn as connected lines (GPX segments).
    public var segments: [Range<Int>]
    public var points: TrackPoints

    public init(kind: Kind, name: String? = nil, color: Color? = nil, segments: [Range<Int>] = [], points: TrackPoints = TrackPoints()) {
        self.kind = kind
        self.name = name
        self.color = color
        self.segments = segments
        self.points = points
    }
}

/// A named point from a file (GPX `wpt`), shown as a read-only pin.
public struct Waypoint: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    public var name: String?
    public var elevation: Float

    public init(latitude: Double, longitude: Double, name: String? = nil, elevation: Float = .nan) {
        self.latitude = latitude
        self.longitude = longitude
        self.name = name
        self.elevation = elevation
    }

    public static func == (a: Waypoint, b: Waypoint) -> Bool {
        a.latitude == b.latitude && a.longitude == b.longitude && a.name == b.name
            && (a.elevation == b.elevation || (a.elevation.isNaN && b.elevation.isNaN))
    }
}

/// A filled shape from a file (GeoJSON Polygon, KML Polygon): an outer ring and its holes.
public struct Area: Sendable, Equatable {
    /// Rings of (latitude, longitude); the first is the outline, the others holes.
    public var rings: [[Coordinate]]
    public var name: String?
    public var fill: Color?
    public var stroke: Color?
    public var strokeWidth: Double?

    public init(rings: [[Coordinate]], name: String? = nil, fill: Color? = nil, stroke: Color? = nil, strokeWidth: Double? = nil) {
        self.rings = rings
        self.name = name
        self.fill = fill
        self.stroke = stroke
        self.strokeWidth = strokeWidth
    }
}
