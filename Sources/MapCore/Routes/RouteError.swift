import MapGeometry
import Platform

/// Why there is no route, in words a person can act on.
public enum RouteError: Error, Equatable, Sendable, CustomStringConvertible {
    case tooFewPoints
    /// A waypoint farther than `meters` from any road the mode may use.
    case noRoadNear(Coordinate, meters: Int)
    /// The points are on roads, but no road joins them.
    case noRoute
    /// No offline data holds the points (and online routing is off or not asked). How to get
    /// some is the app's to say (`DirectionsLayer.notCovered`).
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
    /// Online routing is switched off (by the app's settings, or offline).
    case disabled
    case cancelled
    /// A download (the extract of `region`, `bytes` large) was not wanted.
    case declined(region: String, bytes: Int64)
    /// A newer request took this one's place before it was sent.
    case superseded

    public var description: String {
        switch self {
        case .tooFewPoints: return tr("a route needs a start and an end")
        case let .noRoadNear(c, meters):
            // TRANSLATORS: %1$@ is a distance in whole kilometres or metres, %2$@ a waypoint's coordinates ("60.1699, 24.9384").
            return meters >= 1000 ? tr("no road within %1$@ km of %2$@", String(cFormat: "%.0f", Double(meters) / 1000), Self.short(c))
                : tr("no road within %1$@ m of %2$@", meters, Self.short(c))
        case .noRoute: return tr("no route joins these points")
        case .notCovered: return tr("no offline routing data holds these points")
        // TRANSLATORS: %@ is the name of a program; "apt install routino" is a command to type.
        case let .engineMissing(program): return tr("%@ is not installed (Debian: apt install routino)", program)
        // TRANSLATORS: %@ is a folder's path.
        case let .databaseMissing(path): return tr("no routing database at %@", path)
        // TRANSLATORS: %1$@ is a folder's path, %2$@ what is wrong with it (from the system or the engine).
        case let .databaseDamaged(path, reason): return tr("the routing database %1$@ is damaged (%2$@); build it again", path, reason)
        case let .failed(said): return said
        // TRANSLATORS: %@ is the system's reason ("Network is unreachable").
        case let .offline(reason): return tr("no network (%@)", reason)
        case let .network(reason): return tr("the routing service could not be reached (%@)", reason)
        // TRANSLATORS: %@ is a whole number of seconds.
        case let .busy(seconds): return tr("the routing service is busy: try again in %@ s", seconds)
        // TRANSLATORS: %@ is a whole number of seconds.
        case let .timedOut(seconds): return tr("the routing service did not answer in %@ s", seconds)
        // TRANSLATORS: %@ is an HTTP status code (500).
        case let .serverError(status): return tr("the routing service failed (HTTP %@)", status)
        // TRANSLATORS: %@ is an HTTP status code (403).
        case let .refused(status): return tr("the routing service refused the request (HTTP %@)", status)
        case let .unreadable(reason): return tr("the routing service's answer is not a route (%@)", reason)
        case .disabled: return tr("online routing is off")
        // TRANSLATORS: a route request was cancelled.
        case .cancelled: return tr("cancelled")
        // TRANSLATORS: %1$@ is a region's name ("Finland"), %2$@ a whole number of megabytes.
        case let .declined(region, bytes): return tr("the extract that holds it, %1$@, is %2$@ MB and was not downloaded", region, bytes / 1_000_000)
        case .superseded: return tr("replaced by a newer request")
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
