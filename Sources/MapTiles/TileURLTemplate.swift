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
        // TRANSLATORS: %1$@ is a tile address template, %2$@ what is wrong with it.
        func fail(_ why: String) -> Invalid { Invalid(description: tr("tile URL \"%1$@\": %2$@", shownInMessage(text), why)) }
        guard text.utf8.count <= Self.maxLength else { throw fail(tr("longer than %@ bytes", Self.maxLength)) }
        let lower = text.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else { throw fail(tr("must start with https:// or http://")) }
        if let bad = text.unicodeScalars.first(where: { $0.value <= 0x20 || $0.value == 0x7F || $0.value > 0x7E }) {
            // TRANSLATORS: U+%@ is a character's Unicode number (U+0020).
            throw fail(tr("character U+%@ is not allowed in a URL (escape it)", String(cFormat: "%04X", Int(bad.value))))
        }
        var parts: [Part] = []
        var literal = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            literal += rest[..<open]
            let offset = text.distance(from: text.startIndex, to: open) + 1
            guard rest[open] == "{", let close = rest[open...].firstIndex(of: "}") else {
                // TRANSLATORS: %1$@ is a brace ({ or }), %2$@ its place in the address (1 is the first character).
                throw fail(tr("unmatched \"%1$@\" at character %2$@", rest[open], offset))
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
            // TRANSLATORS: {%1$@} is the placeholder found, %2$@ its place in the address; {z} {x} {y} {-y} {s} {r} are placeholders: keep them as they are.
            default: throw fail(tr("unknown placeholder {%1$@} at character %2$@ (known: {z} {x} {y} {-y} {s} {r})", shownInMessage(String(name)), offset))
            }
            if !literal.isEmpty { parts.append(.text(literal)); literal = "" }
            parts.append(part)
            rest = rest[rest.index(after: close)...]
        }
        literal += rest
        if !literal.isEmpty { parts.append(.text(literal)) }
        guard parts.contains(.z), parts.contains(.x), parts.contains(.y) || parts.contains(.southY) else {
            throw fail(tr("needs {z}, {x} and {y} (or {-y})"))
        }
        if parts.contains(.subdomain) {
            guard !subdomains.isEmpty else { throw fail(tr("uses {s} but no subdomains are given")) }
            for s in subdomains where s.isEmpty || s.utf8.count > 63 || !s.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }) {
                throw fail(tr("subdomain \"%@\" is not a host label (a–z, 0–9, -)", shownInMessage(s)))
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
}
