import FoundationEssentials
import Glibc
import MapGeometry
import MapNetwork
import Platform

/// A TileJSON document (https://github.com/mapbox/tilejson-spec): where a tile set's tiles
/// are, its zooms, its attribution and, for vector tiles, its layers. Servers hand these out,
/// so everything is checked: the size, the tile addresses (http or https templates with {z},
/// {x} and {y}), the zooms (0…30) and the bounds; text is kept short and free of markup.
public struct TileJSON: Sendable, Equatable {
    /// Tile addresses; the first is used (the others are mirrors).
    public var tiles: [TileURLTemplate]
    public var minZoom: Int
    public var maxZoom: Int
    /// Plain text: HTML tags (links, as servers write it) removed. Nil when absent or empty.
    public var attribution: String?
    /// `vector_layers[].id`.
    public var vectorLayers: [String]
    /// West, south, east, north in degrees, when given and sane.
    public var bounds: [Double]?
    public var name: String?
    public var version: String?
    /// Whether the document names the OpenMapTiles schema anywhere (its name, description or
    /// attribution), as many servers of that schema do.
    public var mentionsOpenMapTiles: Bool

    public static let maxBytes = 1 << 20

    /// The document as written; fields are optional except `tiles`.
    private struct Document: Decodable {
        var tiles: [String]
        var minzoom: Double?
        var maxzoom: Double?
        var attribution: String?
        var vector_layers: [Layer]?
        var bounds: [Double]?
        var name: String?
        var version: String?
        var description: String?
        struct Layer: Decodable { var id: String }
    }

    /// Reads `data`; `url` (where it came from) prefixes every error.
    public init(_ data: Data, url: String) throws {
        // TRANSLATORS: the address of a TileJSON document, and what is wrong with it.
        func fail(_ why: String) -> TileSourceError { TileSourceError(tr("%@: %@", shownInMessage(url), why)) }
        guard data.count <= Self.maxBytes else { throw fail(tr("larger than 1 MiB, not a TileJSON document")) }
        let doc: Document
        do { doc = try JSONDecoder().decode(Document.self, from: data) } catch {
            // TRANSLATORS: {"tiles": [...], …} is the form a TileJSON document takes: keep it as it is.
            throw fail(tr("not a TileJSON document (expected {\"tiles\": [\"https://…/{z}/{x}/{y}.pbf\"], …})"))
        }
        // TRANSLATORS: "tiles" is the name of a TileJSON document's entry.
        guard !doc.tiles.isEmpty else { throw fail(tr("no tile addresses in \"tiles\"")) }
        do {
            tiles = try doc.tiles.prefix(16).map { try TileURLTemplate($0) }
        } catch let e as TileURLTemplate.Invalid {
            throw fail(e.description)
        }
        func zoom(_ v: Double?, _ fallback: Int, _ what: String) throws -> Int {
            guard let v else { return fallback }
            // TRANSLATORS: %1$@ is the name of a TileJSON entry (minzoom, maxzoom), %2$@ its value.
            guard v.rounded() == v, (0...30).contains(v) else { throw fail(tr("%1$@ %2$@ is not a zoom of 0…30", what, v)) }
            return Int(saturating: v)
        }
        minZoom = try zoom(doc.minzoom, 0, "minzoom")
        maxZoom = try zoom(doc.maxzoom, 22, "maxzoom")
        // TRANSLATORS: minzoom and maxzoom are the names of TileJSON entries.
        guard minZoom <= maxZoom else { throw fail(tr("minzoom %1$@ is above maxzoom %2$@", minZoom, maxZoom)) }
        attribution = doc.attribution.map(VectorAttribution.plainText).flatMap { $0.isEmpty ? nil : $0 }
        vectorLayers = (doc.vector_layers ?? []).prefix(200).map { shownInMessage($0.id) }
        if let b = doc.bounds, b.count == 4, b.allSatisfy(\.isFinite), (-180...180).contains(b[0]), (-180...180).contains(b[2]),
           (-90...90).contains(b[1]), (-90...90).contains(b[3]), b[1] <= b[3] {
            bounds = b
        } else {
            bounds = nil
        }
        name = doc.name.map(VectorAttribution.plainText).flatMap { $0.isEmpty ? nil : $0 }
        version = doc.version.map { String($0.prefix(40)) }
        mentionsOpenMapTiles = [doc.name, doc.description, doc.attribution].contains { $0?.lowercased().contains("openmaptiles") == true }
    }

    /// The zooms a `TileID` can have of those the document serves.
    public var dataZoomRange: ClosedRange<Int> { min(minZoom, TileID.maxZoom)...min(maxZoom, TileID.maxZoom) }

    /// Tiles in the OpenMapTiles schema: its layers, or the document says so.
    public var isOpenMapTiles: Bool { VectorAttribution.isOpenMapTiles(layers: vectorLayers, mentioned: mentionsOpenMapTiles) }

    /// The schema its layers (else its name) say; nil when it names neither.
    public var schema: TileSchema? {
        if mentionsOpenMapTiles, vectorLayers.isEmpty { return .openMapTiles }
        return TileSchema.detect(layers: vectorLayers, name: name, version: version, probing: []) { _ in nil }
    }
}

/// Credits vector tiles owe when their source names none.
public enum VectorAttribution {
    /// What tiles of the OpenMapTiles schema owe: the schema and the OpenStreetMap data.
    public static let openMapTiles = "© OpenMapTiles © OpenStreetMap contributors"

    /// OpenMapTiles' schema: it has both "transportation" and "water" layers (no other
    /// common schema does), or its metadata names it.
    public static func isOpenMapTiles(layers: [String], mentioned: Bool) -> Bool {
        mentioned || (layers.contains("transportation") && layers.contains("water"))
    }

    /// `given` as plain text; when nothing is given, the OpenMapTiles credit if the metadata
    /// names that schema (`mentioned`), else the credit of the tiles' schema (none for pictures).
    public static func credit(_ given: String, schema: TileSchema?, mentioned: Bool) -> String {
        let text = plainText(given)
        return !text.isEmpty ? text : mentioned ? openMapTiles : schema?.credit ?? ""
    }

    /// An attribution as tile makers write it, in HTML (`<a href="…">&copy; OpenMapTiles</a>`),
    /// as the text the map shows: tags dropped, the common entities read, spaces collapsed,
    /// at most 200 characters.
    public static func plainText(_ html: String) -> String {
        var out = "", inTag = false
        for c in html.prefix(4096) {
            if c == "<" { inTag = true; continue }
            if c == ">" { inTag = false; out.append(" "); continue }
            if !inTag, !(c.isASCII && (c.asciiValue ?? 32) < 32 && c != "\n" && c != "\t") { out.append(c) }
        }
        for (entity, char) in [("&copy;", "©"), ("&amp;", "&"), ("&nbsp;", " "), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&middot;", "·")] {
            out = out.replacing(entity, with: char)
        }
        let words = out.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
        let text = words.joined(separator: " ")
        return text.count > 200 ? String(text.prefix(199)) + "…" : text
    }
}

extension TileJSON {
    /// The document at `url`, through the network client, kept on disk at `path`: a fresh
    /// kept copy is used as it is, a stale one when the server cannot be reached.
    public static func fetch(_ url: String, client: HTTPClient, keptIn path: String?) throws -> TileJSON {
        let body = try KeptDocument.fetch(url, client: client, keptIn: path, limit: TileJSON.maxBytes, accept: "application/json") {
            _ = try TileJSON($0, url: url)
        }
        return try TileJSON(body, url: url)
    }
}
