import CSystem
import FoundationEssentials
import Glibc
import MapCore
import Platform

/// A gpsd client: TCP to gpsd (127.0.0.1:2947 by default), `?WATCH` for JSON reports, TPV
/// reports turned into fixes. When gpsd goes away (restarted, or never there) it says so once
/// and connects again, waiting 1 s, then twice as long each time up to 30 s. Lines are
/// bounded: a flood or an endless line is dropped with a notice, never held or waited on.
public final class GPSDSource: PositionSource, @unchecked Sendable { // `attempts` under `lock`; its thread is a locked SourceThread
    public let host: String
    public let port: UInt16
    private let thread = SourceThread()
    private let lock = Lock()
    private var attempts = 0

    /// Connections tried so far: what a test counts to know the client went round again.
    public var connectionAttempts: Int {
        lock.lock(); defer { lock.unlock() }
        return attempts
    }

    // TRANSLATORS: names a position source in notices; %1$@ is a host, %2$@ a port (gpsd at 127.0.0.1:2947).
    public var name: String { tr("gpsd at %1$@:%2$@", host, port) }

    public init(host: String = "127.0.0.1", port: UInt16 = 2947) {
        self.host = host
        self.port = port
    }

    deinit { stop() }

    /// Whether gpsd answers on `host:port` within `timeout` seconds (for `auto`).
    public static func answers(host: String = "127.0.0.1", port: UInt16 = 2947, timeout: Double = 0.3) -> Bool {
        guard let fd = try? Socket.connect(host: host, port: port, timeout: timeout) else { return false }
        close(fd)
        return true
    }

    public func start(_ deliver: @escaping @Sendable (PositionEvent) -> Void) {
        thread.start(name: "gpsd") { [self] _ in run(deliver) }
    }

    public func stop() { thread.stop() }

    private var isStopping: Bool { thread.isStopping }

    private func run(_ deliver: @escaping @Sendable (PositionEvent) -> Void) {
        var wait = 1.0
        var toldDown = false
        while !isStopping {
            let reason: String
            lock.lock(); attempts += 1; lock.unlock()
            do {
                let fd = try Socket.connect(host: host, port: port, timeout: 3)
                defer { close(fd) }
                let watch = #"?WATCH={"enable":true,"json":true};"# + "\n"
                guard Socket.send(fd, watch) else { throw Socket.Failure(tr("cannot send the watch request")) }
                toldDown = false
                reason = session(fd, deliver, connected: { wait = 1 })
            } catch {
                reason = "\(error)"
            }
            if isStopping { break }
            if !toldDown { deliver(.unavailable("\(name): \(reason)")) }
            toldDown = true
            thread.pause(wait * Double.random(in: 0.8...1.2))
            wait = min(wait * 2, 30)
        }
    }

    /// Reads reports until the connection ends; returns why it ended.
    private func session(_ fd: Int32, _ deliver: @escaping @Sendable (PositionEvent) -> Void, connected: () -> Void) -> String {
        var lines = LineSplitter(maxLine: GPSDMessage.maxLine)
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        var lastData = MonotonicClock.now
        var heard = false
        var toldBad = false
        var dropped = 0
        while !isStopping {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, 200)
            // TRANSLATORS: poll is a system call; %@ is the system's reason.
            if ready < 0 && errno != EINTR { return tr("poll failed: %@", FileIO.reason(errno)) }
            if ready <= 0 {
                // gpsd greets at once (VERSION): silence means something else is listening.
                // TRANSLATORS: gpsd said nothing after the connection was made.
                if !heard, MonotonicClock.now - lastData > 5 { return tr("no answer") }
                continue
            }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return tr("the connection was closed") }
            if n < 0 { if errno == EINTR || errno == EAGAIN { continue }; return FileIO.reason(errno) }
            if !heard { heard = true; connected() }
            lastData = MonotonicClock.now
            let got = buffer.withUnsafeBytes { lines.feed(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            if lines.dropped > dropped {
                dropped = lines.dropped
                // TRANSLATORS: %1$@ names the position source, %2$@ is a number of bytes.
                if !toldBad { toldBad = true; deliver(.unavailable(tr("%1$@: dropped a report longer than %2$@ bytes", name, GPSDMessage.maxLine))) }
            }
            for line in got {
                do {
                    if let event = try GPSDMessage.parse(line) { deliver(event) }
                } catch {
                    // TRANSLATORS: %1$@ names the position source, %2$@ what is wrong with a line it sent.
                    if !toldBad { toldBad = true; deliver(.unavailable(tr("%1$@: %2$@; such lines are skipped", name, error))) }
                }
            }
        }
        return tr("stopped")
    }
}

/// TCP with timeouts, in the few calls a position source needs.
enum Socket {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }

    /// A connected, blocking socket to `host:port`, or why not within `timeout` seconds.
    static func connect(host: String, port: UInt16, timeout: Double) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        // TRANSLATORS: %1$@ is a host's name, %2$@ the system's reason.
        guard rc == 0, let first = list else { throw Failure(tr("cannot resolve %1$@: %2$@", host, String(cString: gai_strerror(rc)))) }
        defer { freeaddrinfo(list) }
        var reason = tr("no address")
        var ai: UnsafeMutablePointer<addrinfo>? = first
        while let a = ai {
            ai = a.pointee.ai_next
            let fd = socket(a.pointee.ai_family, a.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), a.pointee.ai_protocol)
            guard fd >= 0 else { reason = FileIO.reason(errno); continue }
            let flags = fcntl(fd, F_GETFL)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            if Glibc.connect(fd, a.pointee.ai_addr, a.pointee.ai_addrlen) != 0 {
                guard errno == EINPROGRESS else { reason = FileIO.reason(errno); close(fd); continue }
                var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                var err: Int32 = 0
                var len = socklen_t(MemoryLayout<Int32>.size)
                guard poll(&p, 1, Int32(saturating: timeout * 1000)) == 1, getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0, err == 0 else {
                    reason = err != 0 ? FileIO.reason(err) : tr("timed out")
                    close(fd)
                    continue
                }
            }
            _ = fcntl(fd, F_SETFL, flags)
            return fd
        }
        // TRANSLATORS: %@ is the system's reason.
        throw Failure(tr("cannot connect: %@", reason))
    }

    /// Sends all of `text`; false when the peer is gone.
    static func send(_ fd: Int32, _ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            bytes = bytes.dropFirst(n)
        }
        return true
    }
}
