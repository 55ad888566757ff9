import FoundationEssentials
import MapCore
import Platform

/// Where fixes come from. A source does its I/O on a thread of its own and hands every event
/// to `deliver` (on that thread); the window passes them to the frame through its inbox.
public protocol PositionSource: AnyObject, Sendable {
    /// What the user is told the position comes from ("gpsd at 127.0.0.1:2947").
    var name: String { get }
    func start(_ deliver: @escaping @Sendable (PositionEvent) -> Void)
    /// Ends the thread (returns once it is gone).
    func stop()
    /// Seconds without a fix after which the position is stale: sources that report every
    /// second (gpsd, NMEA) say 10; nil for one that reports only on movement (GeoClue).
    var staleAfter: Double? { get }
}

extension PositionSource {
    public var staleAfter: Double? { 10 }
}
