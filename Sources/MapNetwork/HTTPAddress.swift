import Platform

/// A plain `http://` address in the parts a request needs: where to connect and what to ask
/// for. Only what Meridian's own HTTP/1.1 speaks parses; anything else (https, user names,
/// international host names, odd characters) is left to libcurl.
public struct HTTPAddress: Equatable, Sendable {
    /// The host as resolved (an IPv6 literal without its brackets).
    public let host: String
    public let port: Int
    /// The path and query: what follows GET.
    public let target: String
    public let isIPv6: Bool

    /// Where a kept-alive connection goes: requests with the same origin may share one.
    public var origin: String { "\(host) \(port)" }
    /// The Host header's value.
    public var hostHeader: String {
        let name = isIPv6 ? "[\(host)]" : host
        return port == 80 ? name : "\(name):\(port)"
    }

    public init?(_ url: String) {
        let u = Array(url.utf8)
        let scheme = Array("http://".utf8)
        guard u.count > scheme.count, u.count <= 8192,
              zip(u, scheme).allSatisfy({ a, b in a | 0x20 == b }), // the scheme in any case
              // Spaces, controls and anything not ASCII are libcurl's to encode or refuse.
              u.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        let rest = u[scheme.count...]
        let authorityEnd = rest.firstIndex { $0 == 0x2F || $0 == 0x3F || $0 == 0x23 } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.isEmpty, !authority.contains(0x40) else { return nil } // user@host: libcurl's
        var hostPart = authority[...]
        var portPart: ArraySlice<UInt8>?
        if authority.first == 0x5B { // [IPv6]
            guard let close = authority.firstIndex(of: 0x5D) else { return nil }
            hostPart = authority[(authority.startIndex + 1)..<close]
            let after = authority[(close + 1)...]
            if !after.isEmpty {
                guard after.first == 0x3A else { return nil }
                portPart = after.dropFirst()
            }
            guard !hostPart.isEmpty, hostPart.allSatisfy({ Self.isHex($0) || $0 == 0x3A || $0 == 0x2E }) else { return nil }
            isIPv6 = true
        } else {
            if let colon = authority.firstIndex(of: 0x3A) {
                hostPart = authority[..<colon]
                portPart = authority[(colon + 1)...]
            }
            guard !hostPart.isEmpty, hostPart.allSatisfy({ Self.isHostCharacter($0) }) else { return nil }
            isIPv6 = false
        }
        if let portPart {
            guard !portPart.isEmpty, portPart.count <= 5, portPart.allSatisfy({ (0x30...0x39).contains($0) }),
                  let p = Int(String(decoding: portPart, as: UTF8.self)), p >= 1 && p <= 65535 else { return nil }
            port = p
        } else {
            port = 80
        }
        host = String(decoding: hostPart, as: UTF8.self)
        // The fragment is never sent.
        var path = rest[authorityEnd...]
        if let hash = path.firstIndex(of: 0x23) { path = path[..<hash] }
        let text = String(decoding: path, as: UTF8.self)
        target = text.isEmpty ? "/" : text.hasPrefix("?") ? "/" + text : text
    }

    private static func isHex(_ c: UInt8) -> Bool { (0x30...0x39).contains(c) || (0x61...0x66).contains(c | 0x20) }

    private static func isHostCharacter(_ c: UInt8) -> Bool {
        (0x30...0x39).contains(c) || (0x61...0x7A).contains(c | 0x20) || c == 0x2D || c == 0x2E || c == 0x5F
    }

    /// Where a redirect's Location points, as an absolute address (RFC 3986 §5.2, for the
    /// forms servers send: absolute, scheme-relative, absolute path, relative path).
    public func resolve(_ location: String) -> String {
        let l = location.trimmed
        if let colon = l.firstIndex(of: ":"), l[..<colon].allSatisfy({ $0.isLetter || $0 == "+" || $0 == "-" || $0 == "." }),
           !l[..<colon].isEmpty {
            return l // has a scheme of its own
        }
        if l.hasPrefix("//") { return "http:" + l }
        let base = "http://" + hostHeader
        let path = target.prefix { $0 != "?" }
        let joined: Substring
        if l.hasPrefix("/") {
            joined = Substring(l)
        } else if l.hasPrefix("?") || l.isEmpty {
            return base + path + l
        } else {
            joined = (path.lastIndex(of: "/").map { path[...$0] } ?? "/") + l
        }
        // "." and ".." segments resolved, as RFC 3986 §5.2.4 does.
        let query = joined.firstIndex(of: "?").map { joined[$0...] } ?? ""
        var segments: [Substring] = []
        let parts = joined.prefix { $0 != "?" }.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (i, part) in parts.enumerated() {
            let last = i == parts.count - 1
            if part == "." || part == ".." {
                if part == "..", !segments.isEmpty { segments.removeLast() }
                if last { segments.append("") }
            } else {
                segments.append(part)
            }
        }
        return base + "/" + segments.joined(separator: "/") + query
    }
}
