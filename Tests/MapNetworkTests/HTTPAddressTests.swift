@testable import MapNetwork
import Testing

struct HTTPAddressTests {
    static let parsed: [(String, String, Int, String, String)] = [
        // (url, host, port, target, Host header)
        ("http://tile.example.org/3/1/2.png", "tile.example.org", 80, "/3/1/2.png", "tile.example.org"),
        ("HTTP://Tile.Example.org:8080/a?b=c&d=e", "Tile.Example.org", 8080, "/a?b=c&d=e", "Tile.Example.org:8080"),
        ("http://127.0.0.1:41234", "127.0.0.1", 41234, "/", "127.0.0.1:41234"),
        ("http://[::1]:8080/t.png#frag", "::1", 8080, "/t.png", "[::1]:8080"),
        ("http://[fe80::1]/", "fe80::1", 80, "/", "[fe80::1]"),
        ("http://host?x=1", "host", 80, "/?x=1", "host"),
        ("http://my_host.local:80/", "my_host.local", 80, "/", "my_host.local"),
    ]

    @Test(arguments: parsed.indices)
    func plainAddressesParse(_ i: Int) throws {
        let (url, host, port, target, header) = Self.parsed[i]
        let a = try #require(HTTPAddress(url), "\(url)")
        #expect(a.host == host && a.port == port && a.target == target && a.hostHeader == header, "\(url): \(a)")
    }

    /// What the own client leaves to libcurl, or to nobody.
    @Test(arguments: ["https://tile.example.org/1.png", "ftp://x/", "file:///etc/passwd", "http://", "http:///path",
                      "http://user:pw@host/", "http://host:0/", "http://host:65536/", "http://host:99999999999999999999/",
                      "http://host:/", "http://host:8a/", "http://ho st/", "http://hóst.example/", "http://host/pa th",
                      "http://[::1/", "http://[::1]x/", "http://[zz::1]/", "http://host\r\nX: y/", "http://host/\u{7F}", "httpx://host/"])
    func otherAddressesAreNotPlain(_ url: String) {
        #expect(HTTPAddress(url) == nil, "\(url)")
    }

    static let redirects: [(String, String, String)] = [
        // (from, Location, to)
        ("http://h:81/a/b/c.png", "https://other.org/x", "https://other.org/x"),
        ("http://h:81/a/b/c.png", "//cdn.example/t.png", "http://cdn.example/t.png"),
        ("http://h:81/a/b/c.png", "/tile/3/1/2.png", "http://h:81/tile/3/1/2.png"),
        ("http://h:81/a/b/c.png", "d.png", "http://h:81/a/b/d.png"),
        ("http://h:81/a/b/c.png", "../tile/3/1/2.png?via=relative", "http://h:81/a/tile/3/1/2.png?via=relative"),
        ("http://h:81/a/b/c.png", "../../../../x", "http://h:81/x"),
        ("http://h:81/a/b/c.png", "./", "http://h:81/a/b/"),
        ("http://h:81/a/b/c.png", "?v=2", "http://h:81/a/b/c.png?v=2"),
        ("http://h/moved/relative", "../tile/3/1/2.png", "http://h/tile/3/1/2.png"),
        ("http://h/x", "file:///etc/passwd", "file:///etc/passwd"),
    ]

    @Test(arguments: redirects.indices)
    func redirectsResolveAsBrowsersDo(_ i: Int) throws {
        let (from, location, to) = Self.redirects[i]
        #expect(try #require(HTTPAddress(from)).resolve(location) == to, "\(from) + \(location)")
    }
}
