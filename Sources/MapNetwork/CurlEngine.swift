import CCurl
import FoundationEssentials
import Glibc
import Platform

/// HTTP with libcurl (https, and everything behind a proxy): one multi handle on one thread,
/// so connections are reused and HTTP/2 multiplexes where a server offers it. libcurl is
/// loaded when the first engine is made.
final class CurlEngine: HTTPEngine, @unchecked Sendable {
    private let options: HTTPClient.Options
    private let lock = Lock()
    private var pending: [Transfer] = []
    private var cancelled: Set<HTTPClient.ID> = []
    private var stopping = false
    private var multi: UnsafeMutableRawPointer?
    private var thread: Joinable<Void>?
    /// Why libcurl cannot be used, when it cannot.
    private let unavailable: String?

    init(options: HTTPClient.Options) {
        self.options = options
        unavailable = mc_load().map { String(cString: $0) }
        guard unavailable == nil else { return }
        multi = mc_multi_init()
        if let multi {
            _ = mc_multi_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
            _ = mc_multi_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, options.connectionsPerHost)
        }
        thread = Joinable(name: "http") { [weak self] in self?.run() }
    }

    func start(_ request: HTTPRequest) {
        lock.lock()
        let refused = stopping || multi == nil
        if !refused { pending.append(Transfer(request)) }
        lock.unlock()
        if refused {
            request.done(.failed(unavailable ?? tr("the network client is stopped"), retryable: false))
            return
        }
        if let multi { mc_multi_wakeup(multi) }
    }

    func cancel(_ id: HTTPClient.ID) {
        lock.lock()
        cancelled.insert(id)
        lock.unlock()
        if let multi { mc_multi_wakeup(multi) }
    }

    func stop() {
        lock.lock()
        let already = stopping
        stopping = true
        lock.unlock()
        guard !already else { return }
        if let multi { mc_multi_wakeup(multi) }
        thread?.join()
        thread = nil
        if let multi { mc_multi_cleanup(multi) }
        multi = nil
    }

    /// One request in flight: its easy handle and what has arrived so far.
    final class Transfer {
        let request: HTTPRequest
        var handle: UnsafeMutableRawPointer?
        var list: UnsafeMutablePointer<curl_slist>?
        var body = Data()
        var headers: [(String, String)] = []
        var tooLarge = false
        var id: HTTPClient.ID { request.id }
        var limit: Int { request.limit }

        init(_ request: HTTPRequest) { self.request = request }

        deinit {
            if let list { mc_slist_free_all(list) }
            if let handle { mc_easy_cleanup(handle) }
        }
    }

    /// The network thread: adds what was asked for, drops what was cancelled, moves bytes,
    /// and sleeps in curl_multi_poll until a socket or a wakeup needs it.
    private func run() {
        guard let multi else { return }
        var active: [HTTPClient.ID: Transfer] = [:]
        while true {
            let (adds, cancels, stop) = takeWork()
            for t in adds {
                if cancels.contains(t.id) { t.request.done(.failed("cancelled", retryable: false)); continue }
                if let error = setUp(t) { t.request.done(.failed(error, retryable: false)); continue }
                active[t.id] = t
                mc_multi_add_handle(multi, t.handle)
            }
            for id in stop ? Array(active.keys) : Array(cancels) {
                guard let t = active.removeValue(forKey: id) else { continue }
                mc_multi_remove_handle(multi, t.handle)
                t.request.done(.failed("cancelled", retryable: false))
            }
            if stop { return }
            var running: Int32 = 0
            mc_multi_perform(multi, &running)
            var left: Int32 = 0
            while let message = mc_multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                      let t = active.first(where: { $0.value.handle == easy })?.value else { continue }
                let code = message.pointee.data.result
                mc_multi_remove_handle(multi, easy)
                active[t.id] = nil
                t.request.done(finish(t, code))
            }
            var events: Int32 = 0
            mc_multi_poll(multi, 1000, &events)
        }
    }

    private func takeWork() -> ([Transfer], Set<HTTPClient.ID>, Bool) {
        lock.lock()
        defer { pending.removeAll(); cancelled.removeAll(); lock.unlock() }
        return (pending, cancelled, stopping)
    }
    /// Sets up a transfer's handle; an error message when it cannot be.
    private func setUp(_ t: Transfer) -> String? {
        guard let h = mc_easy_init() else { return tr("cannot start a transfer") }
        t.handle = h
        let me = Unmanaged.passUnretained(t).toOpaque()
        guard mc_easy_string(h, CURLOPT_URL, t.request.url) == CURLE_OK else {
            return tr("not a web address: %@", shownInMessage(t.request.url))
        }
        // Only the web, also after a redirect: a tile URL never reads a local file.
        guard mc_easy_string(h, CURLOPT_PROTOCOLS_STR, "http,https") == CURLE_OK,
              mc_easy_string(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https") == CURLE_OK else {
            return tr("libcurl is older than 7.85 (it cannot be limited to the web)")
        }
        _ = mc_easy_string(h, CURLOPT_USERAGENT, options.userAgent)
        _ = mc_easy_long(h, CURLOPT_NOSIGNAL, 1)
        _ = mc_easy_long(h, CURLOPT_FOLLOWLOCATION, 1)
        _ = mc_easy_long(h, CURLOPT_MAXREDIRS, 3)
        _ = mc_easy_long(h, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        _ = mc_easy_long(h, CURLOPT_PIPEWAIT, 1)
        _ = mc_easy_long(h, CURLOPT_CONNECTTIMEOUT_MS, Int(saturating: options.connectTimeout * 1000))
        _ = mc_easy_long(h, CURLOPT_TIMEOUT_MS, Int(saturating: options.totalTimeout * 1000))
        // Fewer than one byte a second for the stall timeout: given up.
        _ = mc_easy_long(h, CURLOPT_LOW_SPEED_LIMIT, 1)
        _ = mc_easy_long(h, CURLOPT_LOW_SPEED_TIME, max(1, Int(saturating: options.stallTimeout.rounded(.up))))
        _ = mc_easy_offset(h, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(t.limit))
        for line in t.request.headers {
            t.list = mc_slist_append(t.list, line)
        }
        if let list = t.list { _ = mc_easy_list(h, CURLOPT_HTTPHEADER, list) }
        _ = mc_easy_write(h, CURLOPT_WRITEFUNCTION, { data, size, count, me in
            guard let me, let data else { return 0 }
            let t = Unmanaged<Transfer>.fromOpaque(me).takeUnretainedValue()
            let n = size * count
            // Past the limit the transfer is aborted, not downloaded to the end.
            guard t.body.count + n <= t.limit else { t.tooLarge = true; return 0 }
            t.body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: n)
            return n
        })
        _ = mc_easy_pointer(h, CURLOPT_WRITEDATA, me)
        _ = mc_easy_write(h, CURLOPT_HEADERFUNCTION, { data, size, count, me in
            guard let me, let data else { return 0 }
            let t = Unmanaged<Transfer>.fromOpaque(me).takeUnretainedValue()
            let n = size * count
            let line = String(decoding: UnsafeRawBufferPointer(start: data, count: min(n, 8192)), as: UTF8.self).trimmed
            if line.hasPrefix("HTTP/") {
                t.headers.removeAll() // a new answer (after a redirect or a 100)
            } else if let colon = line.firstIndex(of: ":"), t.headers.count < 100 {
                t.headers.append((String(line[..<colon]).trimmed, String(line[line.index(after: colon)...]).trimmed))
            }
            return n
        })
        _ = mc_easy_pointer(h, CURLOPT_HEADERDATA, me)
        return nil
    }

    private func finish(_ t: Transfer, _ code: CURLcode) -> HTTPOutcome {
        if t.tooLarge || code == CURLE_FILESIZE_EXCEEDED {
            let failure = HTTPFailure.tooLarge(t.limit)
            return .failed(failure.reason, retryable: failure.retryable)
        }
        guard code == CURLE_OK else {
            let reason = String(cString: mc_easy_strerror(code))
            let network = [CURLE_OPERATION_TIMEDOUT, CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_RECV_ERROR,
                           CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM]
            return .failed(reason, retryable: network.contains(code))
        }
        var status = 0
        _ = mc_info_long(t.handle, CURLINFO_RESPONSE_CODE, &status)
        return .response(HTTPResponse(status: status, headers: t.headers, body: t.body))
    }
}
