import FoundationEssentials
import Platform

/// Why an online search found nothing to show, in words the search box can say as they are.
public enum GeocoderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The answer could not be read as JSON at all (an HTML error page, a captive portal).
    case notJSON
    /// JSON, but not the list of places the configured kind of geocoder sends.
    case notPlaces
    /// The service answered with an error message of its own (`{"error": …}`).
    case said(String)
    /// The answer was larger than `GeocoderAnswer.maxBytes`.
    case tooLarge
    /// The service asked to wait (429, or 503 with Retry-After): no request before then.
    case busy(seconds: Int)
    /// The service failed (5xx).
    case serverError(status: Int)
    /// The service refused the request (4xx other than 429, or an unexpected status).
    case refused(status: Int)
    /// No answer within the time allowed.
    case timedOut(seconds: Int)
    /// No connection could be made: no network, the host unknown, the connection refused.
    /// The app says this once, not at every search.
    case offline(String)
    /// The connection broke while the answer came (reset, cut short).
    case network(String)
    /// A newer search replaced this one while it waited for its turn.
    case superseded
    /// Online search is turned off in the configuration.
    case disabled
    /// The geocoder was stopped before the search could be made.
    case stopped

    public var description: String {
        switch self {
        case .notJSON: return "the geocoder's answer is not JSON"
        case .notPlaces: return "the geocoder's answer is not a list of places"
        case let .said(message): return "the geocoder said: \(message)"
        case .tooLarge: return "the geocoder's answer is larger than \(GeocoderAnswer.maxBytes >> 20) MiB"
        case let .busy(seconds): return "the geocoder is busy; try again in \(seconds) s"
        case let .serverError(status): return "the geocoder failed (HTTP \(status)); try again later"
        case let .refused(status): return "the geocoder refused the search (HTTP \(status))"
        case let .timedOut(seconds): return "the geocoder did not answer within \(seconds) s"
        case let .offline(reason): return "no connection to the geocoder (\(reason))"
        case let .network(reason): return "the connection to the geocoder failed (\(reason))"
        case .superseded: return "replaced by a newer search"
        case .disabled: return "online search is turned off (geocoder.json)"
        case .stopped: return "the geocoder was stopped"
        }
    }

    /// No network or no server: what the app says once rather than at every search.
    public var isOffline: Bool { if case .offline = self { return true } else { return false } }
}
