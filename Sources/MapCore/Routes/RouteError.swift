import MapGeometry
import Platform

/// Why there is no route, in words a person can act on.
public enum RouteError: Error, Equatable, Sendable, CustomStringConvertible {
    case tooFewPoints
    /// A waypoint farther than `meters` from any road the mode may use.
    case noRoadNear(Coordinate, meters: Int)
    /// The points are on roads, but no road joins them.
    case noRoute
    /// No offline data holds the points (and online routing is off or not asked).
    case notCovered
    /// A program the engine runs is not installed.
    case engineMissing(program: String)
    case databaseMissing(String)
    case databaseDamaged(String, reason: String)
    /// The engine failed and said this.
    case failed(String)
    /// No connection could be made at all.
    case offline(String)
    case network(String)
    /// The service asked for a pause (429) of this many seconds.
    case busy(seconds: Int)
    case timedOut(seconds: Int)
    case serverError(status: Int)
    case refused(status: Int)
    /// The answer was not a route (garbage, another format, too large).
    case unreadable(String)
    /// Online routing is switched off (routing.json) or `--offline` was given.
    case disabled
    case cancelled
    /// A download (the extract of `region`, `bytes` large) was not wanted.
    case declined(region: String, bytes: Int64)
    /// A newer request took this one's place before it was sent.
    case superseded

    public var description: String {
        switch self {
        case .tooFewPoints: return "a route needs a start and an end"
        case let .noRoadNear(c, meters):
            return "no road within " + (meters >= 1000 ? String(cFormat: "%.0f km", Double(meters) / 1000) : "\(meters) m")
                + " of " + Self.short(c)
        case .noRoute: return "no route joins these points"
        case .notCovered: return "no offline routing data holds these points (open an .osm.pbf with --osm, or save the area with directions)"
        case let .engineMissing(program): return "\(program) is not installed (Debian: apt install routino)"
        case let .databaseMissing(path): return "no routing database at \(path)"
        case let .databaseDamaged(path, reason): return "the routing database \(path) is damaged (\(reason)); build it again"
        case let .failed(said): return said
        case let .offline(reason): return "no network (\(reason))"
        case let .network(reason): return "the routing service could not be reached (\(reason))"
        case let .busy(seconds): return "the routing service is busy: try again in \(seconds) s"
        case let .timedOut(seconds): return "the routing service did not answer in \(seconds) s"
        case let .serverError(status): return "the routing service failed (HTTP \(status))"
        case let .refused(status): return "the routing service refused the request (HTTP \(status))"
        case let .unreadable(reason): return "the routing service's answer is not a route (\(reason))"
        case .disabled: return "online routing is off"
        case .cancelled: return "cancelled"
        case let .declined(region, bytes): return "the extract that holds it, \(region), is \(bytes / 1_000_000) MB and was not downloaded"
        case .superseded: return "replaced by a newer request"
        }
    }

    /// "60.1699, 24.9384": four decimals (about 10 m), as people read coordinates.
    static func short(_ c: Coordinate) -> String {
        func f(_ v: Double) -> String {
            let s = String(cFormat: "%.4f", v)
            // "0.0000" reads as "0"; trailing zeros say nothing.
            var t = s
            while t.contains("."), t.hasSuffix("0") { t.removeLast() }
            if t.hasSuffix(".") { t.removeLast() }
            return t == "-0" ? "0" : t
        }
        return f(c.latitude) + ", " + f(c.longitude)
    }
}
