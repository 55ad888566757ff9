import Foundation
@testable import MapNetwork
import Testing

/// The answer reader against known answers, whole and cut at every byte.
struct HTTPResponseReaderTests {
    struct Read: Equatable {
        var status = 0
        var body = ""
        var keepAlive = false
        var headers: [String] = []
        var used = 0
        var failure: String?
    }

    /// Reads `text` in pieces of `step` bytes, then the connection closes.
    func read(_ text: String, step: Int = .max, limit: Int = 1000) -> Read {
        let bytes = Array(text.utf8)
        var reader = HTTPResponseReader(limit: limit)
        var i = 0
        var out = Read()
        do {
            while i < bytes.count && !reader.isComplete {
                let n = min(step, bytes.count - i)
                let used = try bytes[i..<(i + n)].withUnsafeBytes { try reader.feed($0) }
                i += used
                if used < n { break }
            }
            if !reader.isComplete { try reader.end() }
        } catch {
            out.failure = (error as? HTTPFailure)?.reason ?? "\(error)"
            return out
        }
        out.status = reader.status
        out.body = String(decoding: reader.body, as: UTF8.self)
        out.keepAlive = reader.keepAlive
        out.headers = reader.headers.map { "\($0.0)=\($0.1)" }
        out.used = i
        return out
    }

    static let answers: [(String, String, Int, String, Bool)] = [
        // (what, the answer, status, body, keep-alive)
        ("a length", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", 200, "hello", true),
        ("chunks with extensions and a trailer", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;a=b\r\nhel\r\n2\r\nlo\r\n0\r\nX-T: 1\r\n\r\n", 200, "hello", true),
        ("upper-case hex chunk sizes", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nA\r\n0123456789\r\n0\r\n\r\n", 200, "0123456789", true),
        ("no length: until the connection closes", "HTTP/1.1 200 OK\r\n\r\nhello", 200, "hello", false),
        ("HTTP/1.0 closes unless asked", "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nhi", 200, "hi", false),
        ("HTTP/1.0 asked to keep alive", "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nhi", 200, "hi", true),
        ("Connection: close", "HTTP/1.1 200 OK\r\nConnection: Keep-Alive, Close\r\nContent-Length: 2\r\n\r\nhi", 200, "hi", false),
        ("304 has no body", "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n", 304, "", true),
        ("204 has no body", "HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n", 204, "", true),
        ("an interim 100 first", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\nno", 404, "no", true),
        ("bare line feeds", "HTTP/1.1 200 OK\nContent-Length: 2\n\nok", 200, "ok", true),
        ("a status line without a reason", "HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n", 200, "", true),
        ("a stray blank line before it", "\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx", 200, "x", true),
        ("chunking beside a length: chunks win, no reuse", "HTTP/1.1 200 OK\r\nContent-Length: 99\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n", 200, "ok", false),
        ("the same length twice", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok", 200, "ok", true),
    ]

    @Test(arguments: answers.indices)
    func knownAnswersReadTheSameWholeAndCutAnywhere(_ i: Int) {
        let (what, text, status, body, keepAlive) = Self.answers[i]
        let whole = read(text)
        #expect(whole.failure == nil && whole.status == status && whole.body == body && whole.keepAlive == keepAlive, "\(what): \(whole)")
        for step in 1...8 { #expect(read(text, step: step) == whole, "\(what), in pieces of \(step)") }
    }

    @Test func headersAreKeptAsSentAndFoldedLinesJoin() {
        let r = read("HTTP/1.1 200 OK\r\nETag: \"t3-1-2\"\r\nCache-Control: max-age=3600,\r\n  public\r\nX-Empty:\r\nContent-Length: 0\r\n\r\n")
        #expect(r.headers == ["ETag=\"t3-1-2\"", "Cache-Control=max-age=3600, public", "X-Empty=", "Content-Length=0"])
    }

    @Test func bytesAfterTheAnswerAreLeftUnread() {
        let text = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK"
        #expect(read(text).used == text.utf8.count - "HTTP/1.1 200 OK".utf8.count)
    }

    static let refusals: [(String, String)] = [
        ("HTTP/2 200\r\n\r\n", "not HTTP"),
        ("SSH-2.0-OpenSSH_9.2\r\n\r\n", "not HTTP"),
        ("HTTP/1.1 2x0 OK\r\n\r\n", "not HTTP"),
        ("HTTP/1.1 099 Low\r\n\r\n", "not HTTP"),
        ("HTTP/1.1 101 Switching Protocols\r\n\r\n", "switched protocols"),
        ("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", "without a name"),
        ("HTTP/1.1 200 OK\r\n: empty name\r\n\r\n", "without a name"),
        ("HTTP/1.1 200 OK\r\n folded first\r\n\r\n", "folded first"),
        ("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nabc", "Content-Length"),
        ("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "Content-Length"),
        ("HTTP/1.1 200 OK\r\nContent-Length: 1e3\r\n\r\n", "Content-Length"),
        ("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n", "larger than"),
        ("HTTP/1.1 200 OK\r\nContent-Length: 1001\r\n\r\n", "larger than"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\n", "chunk size"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n+5\r\nhello\r\n0\r\n\r\n", "chunk size"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\n", "chunk size"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3e9\r\n", "larger than"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nokX\r\n0\r\n\r\n", "chunk longer"),
        ("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", "closed before the answer was complete"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel", "closed before the answer was complete"),
        ("HTTP/1.1 200 OK\r\nContent-Le", "closed before the answer was complete"),
        ("", "closed the connection without an answer"),
        ("HTTP/1.1 200 OK\r\n" + String(repeating: "X-Pad: 0123456789012345678901234567890123456789\r\n", count: 1500) + "\r\n", "longer than 64 KiB"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;" + String(repeating: "e", count: 5000) + "\r\n", "longer than 4 KiB"),
    ]

    @Test(arguments: refusals.indices)
    func brokenAnswersAreRefusedWithAReason(_ i: Int) {
        let (text, reason) = Self.refusals[i]
        for step in [Int.max, 1, 3, 4096] {
            let r = read(text, step: step)
            #expect(r.failure?.contains(reason) == true, "\(text.prefix(60).debugDescription) in pieces of \(step): \(r)")
        }
    }

    @Test func aBodyPastItsLimitIsRefusedAsItArrives() {
        let chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + String(repeating: "10\r\n0123456789abcdef\r\n", count: 100)
        #expect(read(chunked, limit: 64).failure == "larger than 0 KiB, not a tile")
        let closing = "HTTP/1.1 200 OK\r\n\r\n" + String(repeating: "x", count: 2048)
        #expect(read(closing, limit: 1024).failure == "larger than 1 KiB, not a tile")
        #expect(read("HTTP/1.1 200 OK\r\nContent-Length: 64\r\n\r\n" + String(repeating: "y", count: 64), limit: 64).body.count == 64)
    }
}
