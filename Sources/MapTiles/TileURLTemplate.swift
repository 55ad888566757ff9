import FoundationEssentials
import MapGeometry
import Platform

/// An XYZ tile address with placeholders, as Leaflet and every tile server document them:
/// `{z}` `{x}` `{y}`, `{-y}` (rows counted from the south, TMS), `{s}` (one of a few
/// subdomains) and `{r}` (`@2x` where the server offers double-resolution tiles and the
/// screen wants them). Parsed once, checked strictly: a template is user input (the command
/// line, sources.json), and a typo should be an error that says where, not a request for
/// `/{Z}/…` sent to a stranger's server.
public struct TileURLTemplate: Hashable, Sendable, CustomStringConvertible {
    enum Part: Hashable, Sendable {
        case text(String)
        case z, x, y, southY, subdomain, retina
    }

    public let text: String
    public let subdomains: [String]
    let parts: [Part]

    public static let maxLength = 2048
    public static let defaultSubdomains = ["a", "b", "c"]

    public struct Invalid: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public init(_ text: String, subdomains: [String] = TileURLTemplate.defaultSubdomains) throws {
        func fail(_ why: String) -> Invalid { Invalid(description: "tile URL \"\(Self.shown(text))\": \(why)") }
        guard text.utf8.count <= Self.maxLength else { throw fail("longer than \(Self.maxLength) bytes") }
        let lower = text.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else { throw fail("must start with https:// or http://") }
        if let bad = text.unicodeScalars.first(where: { $0.value <= 0x20 || $0.value == 0x7F || $0.value > 0x7E }) {
            throw fail(String(cFormat: "character U+%04X is not allowed in a URL (escape it)", Int(bad.value)))
        }
        var parts: [Part] = []
        var literal = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            literal += rest[..<open]
            let offset = text.distance(from: text.startIndex, to: open) + 1
            guard rest[open] == "{", let close = rest[open...].firstIndex(of: "}") else {
                throw fail("unmatched \"\(rest[open])\" at character \(offset)")
            }
            let name = rest[rest.index(after: open)..<close]
            let part: Part
            switch name {
            case "z": part = .z
            case "x": part = .x
            case "y": part = .y
            case "-y": part = .southY
            case "s": part = .subdomain
            case "r": part = .retina
            default: throw fail("unknown placeholder {\(Self.shown(String(name)))} at character \(offset) (known: {z} {x} {y} {-y} {s} {r})")
            }
            if !literal.isEmpty { parts.append(.text(literal)); literal = "" }
            parts.append(part)
            rest = rest[rest.index(after: close)...]
        }
        literal += rest
        if !literal.isEmpty { parts.append(.text(literal)) }
        guard parts.contains(.z), parts.contains(.x), parts.contains(.y) || parts.contains(.southY) else {
            throw fail("needs {z}, {x} and {y} (or {-y})")
        }
        if parts.contains(.subdomain) {
            guard !subdomains.isEmpty else { throw fail("uses {s} but no subdomains are given") }
            for s in subdomains where s.isEmpty || s.utf8.count > 63 || !s.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }) {
                throw fail("subdomain \"\(Self.shown(s))\" is not a host label (a–z, 0–9, -)")
            }
        }
        self.text = text
        self.subdomains = subdomains
        self.parts = parts
    }

    /// Whether the server offers double-resolution tiles (`{r}`).
    public var offersRetina: Bool { parts.contains(.retina) }

    /// The address of `tile`; `retina` asks for its @2x picture where offered. The subdomain
    /// follows the tile, so one tile always comes from the same host (and its cache).
    public func url(for tile: TileID, retina: Bool = false) -> String {
        var out = ""
        for part in parts {
            switch part {
            case let .text(t): out += t
            case .z: out += String(tile.z)
            case .x: out += String(tile.x)
            case .y: out += String(tile.y)
            case .southY: out += String(tile.tilesAcross - 1 - tile.y)
            case .subdomain:
                let n = subdomains.count
                out += subdomains[((tile.x &+ tile.y) % n + n) % n]
            case .retina: out += retina ? "@2x" : ""
            }
        }
        return out
    }

    public var description: String { text }

    /// Text quoted in a message: at most 80 characters, so a hostile file cannot flood a notice.
    static func shown(_ s: String) -> String { s.count > 80 ? String(s.prefix(77)) + "…" : s }
}
