import FoundationEssentials
import MapGeometry
import Platform

/// One report of where the device is, from any position source (gpsd, GeoClue, an NMEA log):
/// what the location annotation, follow mode and the trail are made from.
public struct PositionFix: Hashable, Sendable {
    public var coordinate: Coordinate
    /// Horizontal accuracy in meters (radius), 0 when unknown.
    public var accuracy: Double
    /// Course over ground in degrees clockwise from north, when known.
    public var course: Double?
    /// Ground speed in m/s, when known.
    public var speed: Double?
    /// Seconds since 1970 of the fix itself (the receiver's clock), when known.
    public var time: Double?
    /// Elevation in meters, when known.
    public var altitude: Double?

    public init(coordinate: Coordinate, accuracy: Double = 0, course: Double? = nil, speed: Double? = nil,
                time: Double? = nil, altitude: Double? = nil) {
        self.coordinate = coordinate
        self.accuracy = accuracy
        self.course = course
        self.speed = speed
        self.time = time
        self.altitude = altitude
    }

    /// Moving fast enough for its course to mean anything (a standing receiver's course wanders).
    public static let movingSpeed = 0.5

    /// The heading to show: the course, while moving.
    public var heading: Double? {
        guard let course, let speed, speed > Self.movingSpeed, course.isFinite else { return nil }
        return course
    }
}

/// What a position source says: a fix, that it has none now (the receiver lost the sky), or
/// that it cannot be reached (and why, for a notice).
public enum PositionEvent: Hashable, Sendable {
    case fix(PositionFix)
    case noFix
    case unavailable(String)
}
