import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// A value that glides from its old to its new setting instead of jumping.
public struct Glide<Value: Hashable & Sendable>: Hashable, Sendable {
    public private(set) var from: Value
    public private(set) var to: Value
    public private(set) var start: Double
    public var duration: Double

    public init(_ value: Value, duration: Double = 0.3) {
        from = value; to = value; start = -.infinity; self.duration = duration
    }

    /// Starts gliding from wherever it is at `t` to `value`.
    public mutating func set(_ value: Value, at t: Double, interpolate: (Value, Value, Double) -> Value) {
        from = self.value(at: t, interpolate: interpolate)
        to = value
        start = t
    }

    public func progress(at t: Double) -> Double {
        duration > 0 ? TimingCurve.easeInEaseOut.value(at: (t - start) / duration) : 1
    }

    public func value(at t: Double, interpolate: (Value, Value, Double) -> Value) -> Value {
        let p = progress(at: t)
        return p >= 1 ? to : interpolate(from, to, p)
    }

    public func isMoving(at t: Double) -> Bool { t < start + duration }
}

/// "You are here": a dot with a pulsing halo, an accuracy circle in meters and, when the
/// heading is known, a cone pointing that way. New fixes glide into place over 0.3 s.
public struct LocationAnnotation: Hashable, Sendable {
    public var color: Color
    public var halo: HaloPulse
    private var position: Glide<MapPoint>
    private var accuracyMeters: Glide<Double>
    public private(set) var heading: Double?
    /// No fix came for a while, or the receiver lost it: the dot turns grey, without pulse
    /// or heading, until the next fix.
    public var isStale = false
    public static let staleColor = Color(hex: 0x8E8E93)

    /// The colour the annotation shows in now.
    public var shownColor: Color { isStale ? Self.staleColor : color }

    public init(coordinate: Coordinate, accuracy: Double = 0, heading: Double? = nil,
                color: Color = .systemBlue, halo: HaloPulse = HaloPulse()) {
        self.color = color
        self.halo = halo
        position = Glide(WebMercator.project(coordinate.normalized))
        accuracyMeters = Glide(max(accuracy, 0))
        self.heading = heading
    }

    /// A new fix at time t: position and accuracy animate there; heading turns at once.
    public mutating func update(coordinate: Coordinate, accuracy: Double, heading: Double?, at t: Double) {
        position.set(WebMercator.project(coordinate.normalized), at: t) { a, b, p in
            MapPoint(x: a.x + (b.x - a.x) * p, y: a.y + (b.y - a.y) * p)
        }
        accuracyMeters.set(max(accuracy, 0), at: t) { a, b, p in a + (b - a) * p }
        self.heading = heading
        isStale = false
    }

    public func point(at t: Double) -> MapPoint {
        position.value(at: t) { a, b, p in MapPoint(x: a.x + (b.x - a.x) * p, y: a.y + (b.y - a.y) * p) }
    }

    public func coordinate(at t: Double) -> Coordinate { WebMercator.unproject(point(at: t)) }
    /// Where the latest fix put it (where a glide ends).
    public var latest: Coordinate { WebMercator.unproject(position.to) }

    public func accuracy(at t: Double) -> Double { accuracyMeters.value(at: t) { a, b, p in a + (b - a) * p } }

    public func isGliding(at t: Double) -> Bool { position.isMoving(at: t) || accuracyMeters.isMoving(at: t) }

    /// The dot's diameter in points.
    public static let dotDiameter = 23.0
}
