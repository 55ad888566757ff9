import MapCore
import MapNetwork
import MapTiles
import Platform

/// What the engines' causes of failure mean as a `RouteError`, said one way everywhere.
extension RouteError {
    /// A program that could not be started: not installed, or the system out of something.
    init(spawning error: SubprocessError) {
        self = error.isMissing ? .engineMissing(program: error.program) : .failed(error.description)
    }

    /// An HTTP request that brought no answer (`limit`: the body limit it was made with).
    init(failure reason: String, limit: Int) {
        if reason == HTTPFailure.tooLarge(limit).reason { self = .unreadable(tr("larger than %@ MiB", limit >> 20)); return }
        if reason == "cancelled" { self = .cancelled; return }
        self = HTTPFailure.isNoConnection(reason) ? .offline(reason) : .network(reason)
    }

    /// An answer whose status is not the one hoped for.
    init(status: Int) {
        self = status >= 500 ? .serverError(status: status) : .refused(status: status)
    }
}
