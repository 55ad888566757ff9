import FoundationEssentials
import Glibc
import Platform

/// Plain http:// over Meridian's own HTTP/1.1: per host, up to `connectionsPerHost` workers,
/// each with one kept-alive connection, taking the host's requests in order. A worker idle for
/// a few seconds closes its connection and ends, so an idle map holds no thread for it.
final class PlainHTTPEngine: HTTPEngine, @unchecked Sendable {
    private let options: HTTPClient.Options
    /// Where a request goes that leaves plain http (a redirect to https): the client's router.
    private let elsewhere: @Sendable (HTTPRequest) -> Void
    private let condition = Condition()
    private var queues: [String: [HTTPRequest]] = [:]
    private var workers: [String: Int] = [:]
    private var idle: [String: Int] = [:]
    private var running = 0
    /// What each request in flight is using, so that a cancel can wake it.
    private var inFlight: [HTTPClient.ID: PlainHTTPConnection?] = [:]
    private var cancelled: Set<HTTPClient.ID> = []
    private var stopping = false
    /// Seconds a worker waits for another request before it closes its connection and ends.
    static let idleSeconds = 5.0

    init(options: HTTPClient.Options, elsewhere: @escaping @Sendable (HTTPRequest) -> Void) {
        self.options = options
        self.elsewhere = elsewhere
    }

    func start(_ request: HTTPRequest) {
        guard let address = HTTPAddress(request.url) else { elsewhere(request); return }
        condition.lock()
        guard !stopping else {
            condition.unlock()
            request.done(.failed("cancelled", retryable: false))
            return
        }
        let origin = address.origin
        queues[origin, default: []].append(request)
        let spawn = queues[origin]!.count > idle[origin, default: 0] && workers[origin, default: 0] < max(1, options.connectionsPerHost)
        if spawn {
            workers[origin, default: 0] += 1
            running += 1
        }
        condition.broadcast()
        condition.unlock()
        if spawn { startThread(name: "http") { [self] in work(origin) } }
    }

    func cancel(_ id: HTTPClient.ID) {
        condition.lock()
        var queued: HTTPRequest?
        for (origin, queue) in queues {
            if let i = queue.firstIndex(where: { $0.id == id }) {
                queued = queues[origin]!.remove(at: i)
                break
            }
        }
        if queued == nil, let connection = inFlight[id] {
            cancelled.insert(id)
            connection?.abort()
        }
        condition.unlock()
        // Told outside the lock: what it does may fetch again.
        queued?.done(.failed("cancelled", retryable: false))
    }

    func stop() {
        condition.lock()
        stopping = true
        let queued = queues.values.flatMap { $0 }
        queues.removeAll()
        for (id, connection) in inFlight {
            cancelled.insert(id)
            connection?.abort()
        }
        condition.broadcast()
        condition.unlock()
        for r in queued { r.done(.failed("cancelled", retryable: false)) }
        condition.lock()
        while running > 0 { condition.wait() }
        condition.unlock()
    }

    /// A worker: the origin's requests, one at a time, over one connection kept between them.
    private func work(_ origin: String) {
        var connection: PlainHTTPConnection?
        while let request = next(origin) {
            let outcome = perform(request, &connection)
            condition.lock()
            inFlight[request.id] = nil
            let wasCancelled = cancelled.remove(request.id) != nil
            condition.unlock()
            if wasCancelled { connection = nil }
            switch outcome {
            case .done(let o): request.done(wasCancelled ? .failed("cancelled", retryable: false) : o)
            case .redirect(let r): wasCancelled ? r.done(.failed("cancelled", retryable: false)) : elsewhere(r)
            }
        }
        connection = nil
        condition.lock()
        running -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// The origin's next request, waiting a while for one; nil when the worker should end.
    private func next(_ origin: String) -> HTTPRequest? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = MonotonicClock.now + Self.idleSeconds
        while true {
            if stopping { break }
            if var queue = queues[origin], !queue.isEmpty {
                let request = queue.removeFirst()
                queues[origin] = queue.isEmpty ? nil : queue
                inFlight[request.id] = .some(nil)
                return request
            }
            idle[origin, default: 0] += 1
            let woken = condition.wait(until: deadline)
            idle[origin]! -= 1
            if !woken && queues[origin]?.isEmpty ?? true { break }
        }
        workers[origin]! -= 1
        if workers[origin] == 0 { workers[origin] = nil; idle[origin] = nil }
        return nil
    }

    /// Records the connection a request is using (so a cancel can abort it); false if the
    /// request was cancelled already.
    private func using(_ connection: PlainHTTPConnection, for id: HTTPClient.ID) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        inFlight[id] = connection
        return !cancelled.contains(id) && !stopping
    }

    private func isCancelled(_ id: HTTPClient.ID) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled.contains(id) || stopping
    }

    private enum Result {
        case done(HTTPOutcome)
        /// Moved somewhere this engine does not go.
        case redirect(HTTPRequest)
    }

    /// One request over `connection` (opened, or reopened once when a kept-alive connection
    /// turns out closed by the server), with the redirect it may lead to.
    private func perform(_ request: HTTPRequest, _ connection: inout PlainHTTPConnection?) -> Result {
        guard let address = HTTPAddress(request.url) else { return .redirect(request) }
        let deadline = MonotonicClock.now + options.totalTimeout
        var reader = HTTPResponseReader(limit: request.limit)
        var retried = false
        while true {
            reader = HTTPResponseReader(limit: request.limit)
            let reused = connection != nil
            do {
                if connection == nil {
                    // Each socket is known before it connects, so that a cancel wakes the wait.
                    connection = try PlainHTTPConnection.open(address, deadline: min(deadline, MonotonicClock.now + options.connectTimeout)) {
                        self.using($0, for: request.id)
                    }
                }
                guard using(connection!, for: request.id) else { return .done(.failed("cancelled", retryable: false)) }
                if !(try exchange(request, address, connection!, &reader, deadline: deadline)) { connection = nil }
                break
            } catch {
                connection = nil
                let failure = error as? HTTPFailure ?? HTTPFailure("\(error)", retryable: false)
                // A kept-alive connection the server had closed meanwhile: once more on a fresh one.
                if reused, !retried, failure.retryable, !reader.started, !isCancelled(request.id) { retried = true; continue }
                if isCancelled(request.id) { return .done(.failed("cancelled", retryable: false)) }
                return .done(.failed(failure.reason, retryable: failure.retryable))
            }
        }
        if [301, 302, 303, 307, 308].contains(reader.status), let location = reader.headers.last(where: { $0.0.lowercased() == "location" })?.1 {
            guard request.redirects < 3 else { return .done(.failed(tr("too many redirects"), retryable: false)) }
            let target = address.resolve(location)
            guard target.lowercased().hasPrefix("http://") || target.lowercased().hasPrefix("https://") else {
                // TRANSLATORS: %@ is the address redirected to.
                return .done(.failed(tr("redirected away from the web: %@", shownInMessage(target)), retryable: false))
            }
            var next = request
            next.url = target
            next.redirects += 1
            return .redirect(next)
        }
        return .done(.response(HTTPResponse(status: reader.status, headers: reader.headers, body: reader.body)))
    }

    /// Asks and reads the answer into `reader`; whether the connection can carry another.
    private func exchange(_ request: HTTPRequest, _ address: HTTPAddress, _ connection: PlainHTTPConnection,
                          _ reader: inout HTTPResponseReader, deadline: Double) throws -> Bool {
        var head = "GET \(address.target) HTTP/1.1\r\nHost: \(address.hostHeader)\r\nUser-Agent: \(options.userAgent)\r\n"
        if !request.headers.contains(where: { $0.lowercased().hasPrefix("accept:") }) { head += "Accept: */*\r\n" }
        for line in request.headers { head += line + "\r\n" }
        head += "\r\n"
        try connection.send(Array(head.utf8), stall: options.stallTimeout, deadline: deadline)
        connection.uses += 1
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var leftover = false
        while !reader.isComplete {
            let n = try buffer.withUnsafeMutableBytes { try connection.receive(into: $0, stall: options.stallTimeout, deadline: deadline) }
            if n == 0 {
                try reader.end()
                return false
            }
            let used = try buffer.withUnsafeBytes { try reader.feed(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
            leftover = used < n
        }
        // Bytes past the answer belong to no request: that connection cannot be trusted again.
        return reader.keepAlive && !leftover
    }
}
