import Glibc
import Platform

/// One TCP connection to an HTTP server, non-blocking underneath so that every wait has a
/// deadline: connecting, a stall (no byte moving), and the whole request.
final class PlainHTTPConnection {
    let fd: Int32
    /// Requests this connection has carried.
    var uses = 0

    private init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    /// Connects to the first address of `address.host` that answers, each given its share of
    /// the time left before `deadline` (a silent IPv6 route does not keep IPv4 from being
    /// tried). `register` hears of each socket before it connects; false gives up (cancelled).
    static func open(_ address: HTTPAddress, deadline: Double, register: (PlainHTTPConnection) -> Bool = { _ in true }) throws -> PlainHTTPConnection {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG | (address.isIPv6 ? AI_NUMERICHOST : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(address.host, String(address.port), &hints, &list)
        guard rc == 0, let list else {
            let why = rc == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(rc))
            throw HTTPFailure(HTTPFailure.notResolved(address.host, why), retryable: true)
        }
        defer { freeaddrinfo(list) }
        var lastError = tr("no address")
        var addresses: [UnsafeMutablePointer<addrinfo>] = []
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let a = entry { addresses.append(a); entry = a.pointee.ai_next }
        for (i, a) in addresses.enumerated() {
            let fd = socket(a.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { lastError = String(cString: strerror(errno)); continue }
            let connection = PlainHTTPConnection(fd: fd)
            guard register(connection) else { throw HTTPFailure("cancelled", retryable: false) }
            var on: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            if connect(fd, a.pointee.ai_addr, a.pointee.ai_addrlen) == 0 { return connection }
            guard errno == EINPROGRESS else { lastError = String(cString: strerror(errno)); continue }
            let now = MonotonicClock.now
            let share = now + max(0, deadline - now) / Double(addresses.count - i)
            guard connection.wait(Int16(POLLOUT), until: share) else {
                lastError = tr("timed out")
                if MonotonicClock.now < deadline { continue }
                throw HTTPFailure(HTTPFailure.timedOutConnecting(address.hostHeader), retryable: true)
            }
            var error: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size)
            if error == 0 { return connection }
            lastError = String(cString: strerror(error))
        }
        throw HTTPFailure(HTTPFailure.notConnected(address.hostHeader, lastError), retryable: true)
    }

    /// Whether the socket became ready for `events` before `deadline` (false on time-out).
    private func wait(_ events: Int16, until deadline: Double) -> Bool {
        while true {
            let left = deadline - MonotonicClock.now
            guard left > 0 else { return false }
            var p = pollfd(fd: fd, events: events, revents: 0)
            let n = poll(&p, 1, Int32(saturating: min(left * 1000, 60_000).rounded(.up)))
            if n > 0 { return true }
            if n < 0 && errno != EINTR { return true } // the next call says what is wrong
        }
    }

    /// Sends all of `bytes`; `stall` and `deadline` bound each wait.
    func send(_ bytes: [UInt8], stall: Double, deadline: Double) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if n > 0 { sent += n; continue }
            if n < 0 && (errno == EAGAIN || errno == EINTR) {
                guard wait(Int16(POLLOUT), until: min(MonotonicClock.now + stall, deadline)) else { throw Self.timedOut(deadline) }
                continue
            }
            // TRANSLATORS: %@ is the system's reason.
            throw HTTPFailure(tr("the connection failed while asking (%@)", String(cString: strerror(errno))), retryable: true)
        }
    }

    /// Reads what has arrived into `buffer`, waiting for some; 0 when the server closed.
    func receive(into buffer: UnsafeMutableRawBufferPointer, stall: Double, deadline: Double) throws -> Int {
        while true {
            let n = recv(fd, buffer.baseAddress, buffer.count, 0)
            if n >= 0 { return n }
            if errno == EAGAIN || errno == EINTR {
                guard wait(Int16(POLLIN), until: min(MonotonicClock.now + stall, deadline)) else { throw Self.timedOut(deadline) }
                continue
            }
            // TRANSLATORS: %@ is the system's reason.
            throw HTTPFailure(tr("the connection failed (%@)", String(cString: strerror(errno))), retryable: true)
        }
    }

    private static func timedOut(_ deadline: Double) -> HTTPFailure {
        MonotonicClock.now >= deadline
            ? HTTPFailure(tr("timed out: the answer took too long"), retryable: true)
            : HTTPFailure(tr("timed out: the server stopped sending"), retryable: true)
    }

    /// Wakes any wait on this connection and fails it (a cancel, from another thread).
    func abort() { shutdown(fd, Int32(SHUT_RDWR)) }
}
