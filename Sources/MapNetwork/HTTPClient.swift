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

    public init(status: Int, headers: [(String, String)], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? {
        let n = name.lowercased()
        return headers.last { $0.0.lowercased() == n }?.1
    }
}

/// HTTP for tiles. Every request says who is asking (a real User-Agent, never a library's),
/// gives up on a server that stalls, and refuses a body larger than a tile can be before it
/// is all downloaded. Completions run on a network thread: keep them short.
///
/// Two engines: plain `http://` goes over Meridian's own HTTP/1.1 connections (kept alive, a
/// few per host); `https://`, and everything when a proxy is configured, goes to libcurl, which
/// is loaded only then (with its TLS stack it is 8 MiB of memory a plain-http or offline map
/// never needs).
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
        /// Plain http:// over Meridian's own connections; false sends everything to libcurl.
        public var ownPlainHTTP = true
        /// Ask nothing of the network (the app's offline setting): every request fails at
        /// once, and sources fall back on what they kept. `HTTPClient.isOffline` changes it later.
        public var offline = false

        public init(userAgent: String) { self.userAgent = userAgent }
    }

    public typealias ID = Int
    /// No tile is larger: a bigger body is not a tile (nor is it kept on disk).
    public static let maxTileBytes = 2 << 20
    public let options: Options
    private let lock = Lock()
    private var nextID = 1
    private var stopping = false
    private var plain: PlainHTTPEngine?
    private var curl: CurlEngine?
    /// A proxy in the environment: only libcurl knows every form of its settings.
    private let proxied: Bool

    public init(options: Options) {
        self.options = options
        offlineFlag.set(options.offline)
        let names: [String] = ["http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"]
        proxied = names.contains { name in getenv(name).map { $0.pointee != 0 } ?? false }
    }

    deinit { stop() }

    /// Asks for `url` with extra header lines ("Name: value"); `done` is called once, on a
    /// network thread. `limit`: the largest body accepted (the options' `maxBodyBytes` if nil).
    @discardableResult
    public func fetch(_ url: String, headers: [String] = [], limit: Int? = nil, done: @escaping @Sendable (HTTPOutcome) -> Void) -> ID {
        lock.lock()
        let id = nextID
        nextID += 1
        lock.unlock()
        let lines = headers.filter { !$0.contains("\r") && !$0.contains("\n") }
        send(HTTPRequest(id: id, url: url, headers: lines, limit: limit ?? options.maxBodyBytes, done: done))
        return id
    }

    /// Nothing is asked of the network while set (`Options.offline` at first): every
    /// request fails at once, and sources fall back on what they kept. From any thread.
    public var isOffline: Bool {
        get { offlineFlag.get() ?? false }
        set { offlineFlag.set(newValue) }
    }
    private let offlineFlag = LockedValue<Bool>()

    /// Hands a request to the engine for its address (also a redirect from the other engine).
    private func send(_ request: HTTPRequest) {
        if isOffline {
            // TRANSLATORS: why a map, search or route asked nothing of the network.
            return request.done(.failed(tr("offline: nothing is asked of the network"), retryable: false))
        }
        let address = options.ownPlainHTTP && !proxied ? HTTPAddress(request.url) : nil
        lock.lock()
        if stopping {
            lock.unlock()
            request.done(.failed(tr("the network client is stopped"), retryable: false))
            return
        }
        let engine: HTTPEngine
        if address != nil {
            if plain == nil {
                plain = PlainHTTPEngine(options: options) { [weak self] request in
                    guard let self else { return request.done(.failed(tr("the network client is stopped"), retryable: false)) }
                    self.send(request)
                }
            }
            engine = plain!
        } else {
            if curl == nil { curl = CurlEngine(options: options) }
            engine = curl!
        }
        lock.unlock()
        engine.start(request)
    }

    /// Fetches `url` and waits for the answer here (a worker thread, never the network one).
    public func get(_ url: String, headers: [String] = [], limit: Int? = nil) -> HTTPOutcome {
        let answer = Awaited<HTTPOutcome>()
        fetch(url, headers: headers, limit: limit) { answer.put($0) }
        return answer.take()!
    }

    /// Gives up a fetch: its `done` is called with a failure (unless it has finished already).
    public func cancel(_ id: ID) {
        lock.lock()
        let engines = [plain as HTTPEngine?, curl as HTTPEngine?].compactMap { $0 }
        lock.unlock()
        for e in engines { e.cancel(id) }
    }

    /// Whether libcurl has been needed (an https or proxied fetch) by this client.
    public var usesLibcurl: Bool { lock.lock(); defer { lock.unlock() }; return curl != nil }

    /// Ends every transfer (each told it was cancelled) and the network threads.
    public func stop() {
        lock.lock()
        stopping = true
        let engines = [plain as HTTPEngine?, curl as HTTPEngine?].compactMap { $0 }
        lock.unlock()
        for e in engines { e.stop() }
    }
}

/// One fetch as an engine carries it out.
struct HTTPRequest: @unchecked Sendable { // its closures are Sendable; `url` and `redirects` change on the engine's thread only
    let id: HTTPClient.ID
    var url: String
    let headers: [String]
    let limit: Int
    let done: @Sendable (HTTPOutcome) -> Void
    /// Redirects followed so far.
    var redirects = 0
}

/// A way of moving requests: libcurl's, or Meridian's own for plain http.
protocol HTTPEngine: AnyObject, Sendable {
    func start(_ request: HTTPRequest)
    func cancel(_ id: HTTPClient.ID)
    /// Every transfer told it was cancelled; returns when the engine's threads have ended.
    func stop()
}
