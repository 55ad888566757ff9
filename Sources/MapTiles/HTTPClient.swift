import CCurl
import FoundationEssentials
import Glibc
import Platform

/// What a fetch ended with: the server's answer (any status), or why there is none.
public enum HTTPOutcome: Sendable {
    case response(HTTPResponse)
    /// No usable answer: no connection, a timeout, a stall, a reset, a body too large, or
    /// cancelled. `retryable`: worth asking again later (the network, not the request).
    case failed(String, retryable: Bool)
}

public struct HTTPResponse: Sendable {
    public let status: Int
    /// Name and value pairs as received, of the final answer (after redirects).
    public let headers: [(String, String)]
    public let body: Data

    public func header(_ name: String) -> String? {
        let n = name.lowercased()
        return headers.last { $0.0.lowercased() == n }?.1
    }
}

/// HTTP for tiles, with libcurl: one multi handle on one thread, so connections are reused
/// and HTTP/2 multiplexes where a server offers it. Every request says who is asking (a
/// real User-Agent, never a library's), gives up on a server that stalls, and refuses a body
/// larger than a tile can be before it is all downloaded. Completions run on the network
/// thread: keep them short (hand the bytes to a worker).
public final class HTTPClient: @unchecked Sendable {
    public struct Options: Sendable {
        public var userAgent: String
        public var connectTimeout = 10.0
        /// A transfer that moves no byte for this long is given up.
        public var stallTimeout = 10.0
        public var totalTimeout = 30.0
        public var maxBodyBytes = HTTPClient.maxTileBytes
        /// Connections per host (OpenStreetMap asks for few; HTTP/2 needs one).
        public var connectionsPerHost = 2

        public init(userAgent: String) { self.userAgent = userAgent }
    }

    public typealias ID = Int
    /// No tile is larger: a bigger body is not a tile (nor is it kept on disk).
    public static let maxTileBytes = 2 << 20
    public let options: Options
    private let lock = Lock()
    private var pending: [Transfer] = []
    private var cancelled: Set<ID> = []
    private var nextID = 1
    private var stopping = false
    private var multi: UnsafeMutableRawPointer?
    private var thread: Joinable<Void>?

    public init(options: Options) {
        self.options = options
        Self.globalInit
        multi = curl_multi_init()
        if let multi {
            _ = mc_multi_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
            _ = mc_multi_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, options.connectionsPerHost)
        }
        thread = Joinable(name: "http") { [weak self] in self?.run() }
    }

    deinit { stop() }

    /// curl_global_init once per process, before any handle.
    private static let globalInit: Void = { _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// Asks for `url` with extra header lines ("Name: value"); `done` is called once, on the
    /// network thread. `limit`: the largest body accepted (the options' `maxBodyBytes` if nil).
    @discardableResult
    public func fetch(_ url: String, headers: [String] = [], limit: Int? = nil, done: @escaping @Sendable (HTTPOutcome) -> Void) -> ID {
        lock.lock()
        let id = nextID
        nextID += 1
        let refused = stopping || multi == nil
        if !refused { pending.append(Transfer(id: id, url: url, headers: headers, limit: limit ?? options.maxBodyBytes, done: done)) }
        lock.unlock()
        if refused { done(.failed("the network client is stopped", retryable: false)); return id }
        if let multi { curl_multi_wakeup(multi) }
        return id
    }

    /// Fetches `url` and waits for the answer here (a worker thread, never the network one).
    public func get(_ url: String, headers: [String] = [], limit: Int? = nil) -> HTTPOutcome {
        final class Answer: @unchecked Sendable {
            let condition = Condition()
            var outcome: HTTPOutcome?
        }
        let answer = Answer()
        fetch(url, headers: headers, limit: limit) { o in
            answer.condition.lock(); answer.outcome = o; answer.condition.broadcast(); answer.condition.unlock()
        }
        answer.condition.lock(); defer { answer.condition.unlock() }
        while answer.outcome == nil { answer.condition.wait() }
        return answer.outcome!
    }

    /// Gives up a fetch: its `done` is called with a failure (unless it has finished already).
    public func cancel(_ id: ID) {
        lock.lock()
        cancelled.insert(id)
        lock.unlock()
        if let multi { curl_multi_wakeup(multi) }
    }

    var multiHandle: UnsafeMutableRawPointer? { multi }

    /// The queues, under the lock.
    func lockedState<R>(_ body: (inout [Transfer], inout Set<ID>, Bool) -> R) -> R {
        lock.lock(); defer { lock.unlock() }
        return body(&pending, &cancelled, stopping)
    }

    /// Ends every transfer (each told it was cancelled) and the thread.
    public func stop() {
        lock.lock()
        let already = stopping
        stopping = true
        lock.unlock()
        guard !already else { return }
        if let multi { curl_multi_wakeup(multi) }
        thread?.join()
        thread = nil
        if let multi { curl_multi_cleanup(multi) }
        multi = nil
    }
}
