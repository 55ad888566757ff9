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
        // TRANSLATORS: the geocoder is the online service that finds places by name.
        case .notJSON: return tr("the geocoder's answer is not JSON")
        case .notPlaces: return tr("the geocoder's answer is not a list of places")
        // TRANSLATORS: %@ is the geocoder's own message (often in English).
        case let .said(message): return tr("the geocoder said: %@", message)
        case .tooLarge: return tr("the geocoder's answer is larger than %@ MiB", GeocoderAnswer.maxBytes >> 20)
        // TRANSLATORS: %@ is a number of seconds.
        case let .busy(seconds): return tr("the geocoder is busy; try again in %@ s", seconds)
        // TRANSLATORS: %@ is an HTTP status code (500).
        case let .serverError(status): return tr("the geocoder failed (HTTP %@); try again later", status)
        // TRANSLATORS: %@ is an HTTP status code (400).
        case let .refused(status): return tr("the geocoder refused the search (HTTP %@)", status)
        // TRANSLATORS: %@ is a number of seconds.
        case let .timedOut(seconds): return tr("the geocoder did not answer within %@ s", seconds)
        // TRANSLATORS: %@ is why no connection could be made.
        case let .offline(reason): return tr("no connection to the geocoder (%@)", reason)
        // TRANSLATORS: %@ is why the connection failed.
        case let .network(reason): return tr("the connection to the geocoder failed (%@)", reason)
        case .superseded: return tr("replaced by a newer search")
        // TRANSLATORS: geocoder.json is a file's name.
        case .disabled: return tr("online search is turned off (geocoder.json)")
        case .stopped: return tr("the geocoder was stopped")
        }
    }

    /// No network or no server: what the app says once rather than at every search.
    public var isOffline: Bool { if case .offline = self { return true } else { return false } }
}
