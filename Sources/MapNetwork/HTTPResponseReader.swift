import FoundationEssentials
import Platform

/// Why an answer could not be read: the reason as the user is told it, and whether asking
/// again later may help (the network failed, not the server's speech).
public struct HTTPFailure: Error, Sendable {
    public let reason: String
    public let retryable: Bool
    public init(_ reason: String, retryable: Bool) { self.reason = reason; self.retryable = retryable }

    /// A body past `limit`, from either engine (HTTPRangeReader recognises it by its words).
    public static func tooLarge(_ limit: Int) -> HTTPFailure {
        HTTPFailure(tr("larger than %@ KiB, not a tile", limit / 1024), retryable: false)
    }

    /// Whether a failure means no connection could be made at all (no network, the host not
    /// found, nobody listening), in the words of either HTTP engine (ours, in the reader's
    /// language or in English, and libcurl's).
    public static func isNoConnection(_ reason: String) -> Bool {
        let r = reason.lowercased()
        if ["could not connect", "couldn't connect", "could not resolve", "couldn't resolve", "timed out connecting",
            "network is unreachable", "no route to host", "connection refused"].contains(where: { r.contains($0) }) {
            return true
        }
        let blank = "\u{1}"
        return [notResolved(blank, blank), timedOutConnecting(blank), notConnected(blank, blank)].contains { said(reason, like: $0, blank: blank) }
    }

    /// Our engine's words for no connection (`isNoConnection` knows them in any language).
    static func notResolved(_ host: String, _ why: String) -> String {
        // TRANSLATORS: %1$@ is a host name, %2$@ the system's reason.
        tr("could not resolve host %1$@ (%2$@)", host, why)
    }

    static func timedOutConnecting(_ host: String) -> String {
        // TRANSLATORS: %@ is a host name (and port).
        tr("timed out connecting to %@", host)
    }

    static func notConnected(_ host: String, _ why: String) -> String {
        // TRANSLATORS: %1$@ is a host name (and port), %2$@ the system's reason.
        tr("could not connect to %1$@ (%2$@)", host, why)
    }

    /// Whether `reason` is `template` with anything (not nothing) where its `blank`s are.
    static func said(_ reason: String, like template: String, blank: String) -> Bool {
        let pieces = template.split(separator: blank, omittingEmptySubsequences: false)
        guard pieces.count > 1, let first = pieces.first, let last = pieces.last, reason.hasPrefix(first) else { return pieces.count == 1 && reason == template }
        var rest = Substring(reason).dropFirst(first.count)
        for piece in pieces.dropFirst().dropLast() {
            guard let r = rest.dropFirst().firstRange(of: piece) else { return false }
            rest = rest[r.upperBound...]
        }
        return rest.count > last.count && rest.hasSuffix(last)
    }
}

/// An HTTP/1.1 answer to a GET, read from bytes as they arrive in pieces of any size: the
/// status line and headers, then the body as its framing says (a length, chunks, or until the
/// connection closes). Pure: no sockets, so every hostile answer can be fuzzed.
public struct HTTPResponseReader {
    public internal(set) var status = 0
    public internal(set) var headers: [(String, String)] = []
    public private(set) var body = Data()
    /// The answer has ended and the connection may carry another request.
    public internal(set) var keepAlive = false
    public var isComplete: Bool { if case .done = state { return true } else { return false } }
    /// Whether any byte of an answer has arrived (a reused connection that closes before one
    /// has is retried on a fresh one).
    public private(set) var started = false
    public let limit: Int

    static let maxHeadBytes = 64 << 10
    static let maxHeaders = 100
    static let maxLineBytes = 4096

    enum State {
        case head
        case fixed(Int)
        case chunkSize
        case chunkData(Int)
        case chunkEnd
        case trailers
        case untilClose
        case done
    }
    var state = State.head
    /// Bytes of a chunk-size or trailer line not yet complete.
    private var pending: [UInt8] = []
    /// Bytes of the head until its blank line.
    var pendingHead: [UInt8] = []

    /// `limit`: the largest body accepted; a larger one is refused as soon as it is known.
    public init(limit: Int) { self.limit = max(0, limit) }

    /// Reads what it can of `bytes`; returns how many it used (fewer than given once the answer
    /// is complete: the rest belongs to no answer).
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        var i = 0
        if !bytes.isEmpty { started = true }
        while i < bytes.count {
            switch state {
            case .done:
                return i
            case .head:
                i += try readHead(bytes, from: i)
            case .fixed(let left):
                let n = min(left, bytes.count - i)
                try append(bytes, i, n)
                i += n
                state = left - n == 0 ? .done : .fixed(left - n)
            case .untilClose:
                let n = bytes.count - i
                try append(bytes, i, n)
                i += n
            case .chunkData(let left):
                let n = min(left, bytes.count - i)
                try append(bytes, i, n)
                i += n
                state = left - n == 0 ? .chunkEnd : .chunkData(left - n)
            case .chunkSize, .chunkEnd, .trailers:
                guard let (line, used) = try takeLine(bytes, from: i) else { return bytes.count }
                i += used
                try readLine(line)
            }
        }
        return i
    }

    /// The connection has closed: fine only for a body that runs until it does.
    public mutating func end() throws {
        switch state {
        case .done: return
        case .untilClose: state = .done
        case .head where !started:
            throw HTTPFailure(tr("the server closed the connection without an answer"), retryable: true)
        default:
            throw HTTPFailure(tr("the connection closed before the answer was complete"), retryable: true)
        }
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer, _ at: Int, _ n: Int) throws {
        guard n > 0 else { return }
        guard body.count + n <= limit else { throw HTTPFailure.tooLarge(limit) }
        body.append(bytes.baseAddress!.advanced(by: at).assumingMemoryBound(to: UInt8.self), count: n)
    }

    /// One line (without its CR LF) once it is whole, and the bytes used from `bytes`.
    private mutating func takeLine(_ bytes: UnsafeRawBufferPointer, from start: Int) throws -> ([UInt8], Int)? {
        guard let lf = bytes[start...].firstIndex(of: 0x0A) else {
            pending.append(contentsOf: bytes[start...])
            guard pending.count <= Self.maxLineBytes else { throw Self.garbled(tr("the server's answer is not HTTP (a line longer than 4 KiB)")) }
            return nil
        }
        var line = pending + bytes[start..<lf]
        pending.removeAll()
        guard line.count <= Self.maxLineBytes else { throw Self.garbled(tr("the server's answer is not HTTP (a line longer than 4 KiB)")) }
        if line.last == 0x0D { line.removeLast() }
        return (line, lf + 1 - start)
    }

    /// An answer that is not HTTP: `said` is the whole sentence ("the server's answer is not
    /// HTTP (what is wrong)").
    static func garbled(_ said: String) -> HTTPFailure {
        HTTPFailure(said, retryable: false)
    }

    private mutating func readLine(_ line: [UInt8]) throws {
        switch state {
        case .chunkSize:
            let digits = line.prefix { $0 != 0x3B }.filter { $0 != 0x20 && $0 != 0x09 } // up to ";extensions"
            let hex = digits.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0 | 0x20) }
            guard hex, !digits.isEmpty, digits.count <= 15, let size = Int(String(decoding: digits, as: UTF8.self), radix: 16) else {
                // TRANSLATORS: %d is a number of characters.
                throw Self.garbled(tr("the server's answer is not HTTP (a chunk size of %d characters)", digits.count))
            }
            guard body.count + size <= limit else { throw HTTPFailure.tooLarge(limit) }
            state = size == 0 ? .trailers : .chunkData(size)
        case .chunkEnd:
            guard line.isEmpty else { throw Self.garbled(tr("the server's answer is not HTTP (a chunk longer than it said)")) }
            state = .chunkSize
        case .trailers:
            if line.isEmpty { state = .done }
        default:
            break
        }
    }
}
