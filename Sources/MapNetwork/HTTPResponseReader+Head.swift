import FoundationEssentials
import Platform

extension HTTPResponseReader {
    /// Gathers the head until its blank line, then reads it; the bytes used from `bytes`.
    mutating func readHead(_ bytes: UnsafeRawBufferPointer, from start: Int) throws -> Int {
        let before = pendingHead.count
        let room = Self.maxHeadBytes - before
        let take = min(room, bytes.count - start)
        pendingHead.append(contentsOf: bytes[start..<(start + take)])
        // The blank line: LF LF, or LF CR LF.
        var end: Int?
        var k = max(1, before - 2)
        while k < pendingHead.count {
            if pendingHead[k] == 0x0A {
                if pendingHead[k - 1] == 0x0A { end = k + 1; break }
                if k >= 2, pendingHead[k - 1] == 0x0D, pendingHead[k - 2] == 0x0A { end = k + 1; break }
            }
            k += 1
        }
        guard let end else {
            guard pendingHead.count < Self.maxHeadBytes else { throw Self.garbled(tr("the server's answer is not HTTP (headers longer than 64 KiB)")) }
            return take
        }
        let head = Array(pendingHead[..<end])
        pendingHead.removeAll()
        try parseHead(head)
        return end - before
    }

    private mutating func parseHead(_ head: [UInt8]) throws {
        var lines = head.split(separator: 0x0A, omittingEmptySubsequences: false).map { line -> ArraySlice<UInt8> in
            line.last == 0x0D ? line.dropLast() : line
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        // A stray blank line before the status line (after a previous body) is ignored.
        while lines.first?.isEmpty == true { lines.removeFirst() }
        guard let first = lines.first else { throw Self.garbled(tr("the server's answer is not HTTP (no status line)")) }
        let (version, code) = try Self.statusLine(first)
        if code >= 100 && code < 200 {
            // An interim answer (100 Continue, 103 Early Hints): the real one follows.
            guard code != 101 else { throw Self.garbled(tr("the server's answer is not HTTP (it switched protocols)")) }
            return
        }
        var fields: [(String, String)] = []
        for line in lines.dropFirst() {
            if line.first == 0x20 || line.first == 0x09 {
                // A folded line continues the previous value.
                guard let last = fields.popLast() else { throw Self.garbled(tr("the server's answer is not HTTP (a folded first header)")) }
                fields.append((last.0, last.1 + " " + String(decoding: line, as: UTF8.self).trimmed))
                continue
            }
            guard let colon = line.firstIndex(of: 0x3A), colon > line.startIndex,
                  !line[..<colon].contains(where: { $0 <= 0x20 || $0 >= 0x7F }) else {
                throw Self.garbled(tr("the server's answer is not HTTP (a header line without a name)"))
            }
            fields.append((String(decoding: line[..<colon], as: UTF8.self),
                           String(decoding: line[(colon + 1)...], as: UTF8.self).trimmed))
        }
        status = code
        headers = Array(fields.prefix(Self.maxHeaders))
        try frame(version: version, fields)
    }

    /// "HTTP/1.1 200 OK": the minor version and the code.
    private static func statusLine(_ line: ArraySlice<UInt8>) throws -> (Int, Int) {
        let b = Array(line)
        guard b.count >= 12, b.starts(with: Array("HTTP/1.".utf8)), (0x30...0x39).contains(b[7]), b[8] == 0x20,
              b[9...11].allSatisfy({ (0x30...0x39).contains($0) }), b.count == 12 || b[12] == 0x20 else {
            // TRANSLATORS: %d is a number of bytes; “HTTP/1.x NNN” is how a status line must start.
            throw garbled(tr("the server's answer is not HTTP (a status line of %d bytes that does not start “HTTP/1.x NNN”)", b.count))
        }
        let code = Int(b[9] - 0x30) * 100 + Int(b[10] - 0x30) * 10 + Int(b[11] - 0x30)
        guard code >= 100 else { throw garbled(tr("the server's answer is not HTTP (status %d)", code)) }
        return (Int(b[7] - 0x30), code)
    }

    /// How the body is delimited (RFC 9112 §6.3), and whether the connection lives on.
    private mutating func frame(version: Int, _ fields: [(String, String)]) throws {
        func values(_ name: String) -> [String] {
            fields.filter { $0.0.lowercased() == name }.flatMap { $0.1.split(separator: ",").map { $0.trimmed.lowercased() } }
        }
        let connection = values("connection")
        keepAlive = version >= 1 ? !connection.contains("close") : connection.contains("keep-alive")
        if status == 204 || status == 304 {
            state = .done
            return
        }
        let encodings = values("transfer-encoding")
        if !encodings.isEmpty {
            if encodings.last == "chunked" {
                state = .chunkSize
                // A length beside chunking is a smuggling risk: this connection ends here.
                if !values("content-length").isEmpty { keepAlive = false }
            } else {
                state = .untilClose
                keepAlive = false
            }
            return
        }
        let lengths = Set(values("content-length"))
        guard !lengths.isEmpty else {
            state = .untilClose
            keepAlive = false
            return
        }
        guard lengths.count == 1, let text = lengths.first, !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            // TRANSLATORS: %@ is the header's value as the server sent it.
            throw Self.garbled(tr("the server's answer is not HTTP (a Content-Length of “%@”)", lengths.sorted().joined(separator: ", ").prefix(40)))
        }
        guard text.utf8.count <= 15, let length = Int(text), length <= limit else { throw HTTPFailure.tooLarge(limit) }
        state = length == 0 ? .done : .fixed(length)
    }
}
