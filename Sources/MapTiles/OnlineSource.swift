import FoundationEssentials
import MapCore
import MapGeometry
import Platform

/// A tile server the map can stream from: its address, the zooms it serves, what the map
/// must say about it, and how big its tiles are. The two well-known ones are built in; others
/// come from `$XDG_CONFIG_HOME/meridian/sources.json` (`OnlineSource.catalog`).
public struct OnlineSource: Hashable, Sendable {
    /// Short, stable, and safe as a folder name (the disk cache is kept per source).
    public let name: String
    /// What the layer switcher calls it.
    public let title: String
    public let template: TileURLTemplate
    public let attribution: String
    /// Where the attribution links to (the copyright page), when known.
    public let attributionURL: String?
    public let zoomRange: ClosedRange<Int>
    /// Pixels across one tile as served (256, or 512 for some vector-rendered styles).
    public let tileSize: Int
    /// Whether bulk downloads ("save this area for offline use") are allowed: never for
    /// tile.openstreetmap.org, whose usage policy forbids them.
    public let allowsBulk: Bool

    public enum Kind: String, Hashable, Sendable { case raster, vector }
    /// Pictures (`OnlineTileSource`) or Mapbox Vector Tiles (`OnlineVectorTileSource`).
    public let kind: Kind
    /// The address of a TileJSON document saying where the tiles are, for sources described
    /// by one. Until `resolved(by:)` their `template` is that address with `#{z}/{x}/{y}`
    /// appended: a stand-in that names the source (and its cache), never a tile's address.
    public let tileJSON: String?
    /// A style for drawing the source's vector tiles (a path or URL, as sources.json gives it),
    /// kept for the app; nil for the built-in style.
    public let style: String?
    /// A transparent map to lie over the chosen one (hiking routes, rail, hillshade), offered
    /// as a check box in the switcher (sources.json `"overlay": true`), and the opacity it
    /// starts at (`"opacity"`, within `TileLayerSpec.opacityRange`).
    public var isOverlay = false
    public var overlayOpacity = 1.0
    /// Its pictures are heights (sources.json `"encoding": "terrarium"` or `"mapbox"`), drawn
    /// as terrain: hillshading and contours (`TerrainSource`).
    public var demEncoding: DEMTile.Encoding?

    public init(name: String, title: String? = nil, template: TileURLTemplate, attribution: String, attributionURL: String? = nil,
                zoomRange: ClosedRange<Int>, tileSize: Int = 256, allowsBulk: Bool = false,
                kind: Kind = .raster, tileJSON: String? = nil, style: String? = nil) {
        self.name = name
        self.title = title ?? name
        self.template = template
        self.attribution = attribution
        self.attributionURL = attributionURL
        self.zoomRange = zoomRange
        self.tileSize = tileSize
        self.allowsBulk = allowsBulk
        self.kind = kind
        self.tileJSON = tileJSON
        self.style = style
    }

    /// A vector source whose tiles a TileJSON document at `url` describes.
    public init(name: String, title: String? = nil, tileJSON url: String, attribution: String, attributionURL: String? = nil,
                zoomRange: ClosedRange<Int> = 0...14, allowsBulk: Bool = false, style: String? = nil) throws {
        guard Self.isWebAddress(url), !url.contains("{"), !url.contains("}"), !url.contains("#") else {
            // TRANSLATORS: %@ is the address given; TileJSON is a kind of document.
            throw CatalogError(description: tr("TileJSON address \"%@\": an http(s) address without {…} or #", shownInMessage(url)))
        }
        self.init(name: name, title: title, template: try TileURLTemplate(url + "#{z}/{x}/{y}"), attribution: attribution,
                  attributionURL: attributionURL, zoomRange: zoomRange, allowsBulk: allowsBulk, kind: .vector, tileJSON: url, style: style)
    }

    /// This source with the tile address, zooms and (when it has none) attribution `document`
    /// gives: what a TileJSON source is once its document is read.
    public func resolved(by document: TileJSON) -> OnlineSource {
        var made = OnlineSource(name: name, title: title, template: document.tiles[0],
                     attribution: !attribution.isEmpty ? attribution
                        // (The document's attribution is plain text already.)
                        : document.attribution ?? VectorAttribution.credit("", schema: document.schema, mentioned: document.mentionsOpenMapTiles),
                     attributionURL: attributionURL, zoomRange: document.dataZoomRange, tileSize: tileSize, allowsBulk: allowsBulk,
                     kind: .vector, tileJSON: tileJSON, style: style)
        made.isOverlay = isOverlay
        made.overlayOpacity = overlayOpacity
        made.demEncoding = demEncoding
        return made
    }

    /// An http(s) address of printable ASCII, not too long to show or send.
    public static func isWebAddress(_ link: String) -> Bool {
        let lower = link.lowercased()
        return (lower.hasPrefix("https://") || lower.hasPrefix("http://")) && link.utf8.count <= TileURLTemplate.maxLength
            && link.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
    }

    public static let openStreetMap = OnlineSource(
        name: "osm", title: "OpenStreetMap", template: try! TileURLTemplate("https://tile.openstreetmap.org/{z}/{x}/{y}.png"),
        attribution: "© OpenStreetMap contributors", attributionURL: "https://www.openstreetmap.org/copyright", zoomRange: 0...19)

    public static let openTopoMap = OnlineSource(
        name: "opentopomap", title: "OpenTopoMap", template: try! TileURLTemplate("https://{s}.tile.opentopomap.org/{z}/{x}/{y}.png"),
        attribution: "© OpenStreetMap contributors, SRTM · © OpenTopoMap (CC-BY-SA)",
        attributionURL: "https://opentopomap.org/about", zoomRange: 0...17)

    /// OpenFreeMap's planet in the OpenMapTiles schema, as vector tiles. Its public instance
    /// states no limits on map views or requests (and publishes the planet for download):
    /// areas of it may be saved, politely (`OnlineExtractSource`).
    public static let openFreeMap = try! OnlineSource(
        // TRANSLATORS: a map's title in the switcher; OpenFreeMap is a name.
        name: "openfreemap", title: tr("OpenFreeMap (streets)"), tileJSON: "https://tiles.openfreemap.org/planet",
        attribution: "OpenFreeMap © OpenMapTiles © OpenStreetMap contributors",
        attributionURL: "https://www.openstreetmap.org/copyright", zoomRange: 0...14, allowsBulk: true)

    public static let builtIn = [openStreetMap, openTopoMap, openFreeMap]

    /// The AWS Terrain Tiles (Mapzen's terrarium heights, open data on the Registry of Open
    /// Data on AWS): what the terrain map is shaded and traced from. Not a map to show as it
    /// is, so not in `builtIn`.
    public static let terrainDEM = OnlineSource(
        // TRANSLATORS: the title of the map of heights the terrain is drawn from; AWS Terrain Tiles is a name.
        name: "terrain-dem", title: tr("Terrain heights (AWS Terrain Tiles)"),
        template: try! TileURLTemplate("https://s3.amazonaws.com/elevation-tiles-prod/terrarium/{z}/{x}/{y}.png"),
        attribution: "Terrain Tiles: Mapzen, AWS · SRTM, GMTED, NED, ETOPO1, CDEM, EU-DEM and others",
        attributionURL: "https://github.com/tilezen/joerd/blob/master/docs/attribution.md", zoomRange: 0...15,
        // Open data on AWS, with no usage limits: areas of it may be saved.
        allowsBulk: true)

    /// Why areas of this map cannot be saved (bulk downloading), nil when they can.
    public var bulkRefusal: String? {
        guard !allowsBulk else { return nil }
        switch name {
        case "osm":
            return tr("OpenStreetMap's tile usage policy forbids bulk downloading (operations.osmfoundation.org/policies/tiles): choose another map to save")
        case "opentopomap":
            return tr("OpenTopoMap's servers are run by volunteers and do not allow bulk downloading: choose another map to save")
        default:
            // TRANSLATORS: %@ is a map's title; "bulkDownload": true is what a file says: keep it as it is.
            return tr("%@'s server is not known to allow bulk downloading (its sources.json entry would say \"bulkDownload\": true)", title)
        }
    }

    /// Whether `name` may name a source: 1–40 of a–z, 0–9, '-', '_' and '.', not starting with
    /// a dot (it becomes a folder under the cache; nothing in it may climb out).
    public static func isValidName(_ name: String) -> Bool {
        guard (1...40).contains(name.utf8.count), name.utf8.first != UInt8(ascii: ".") else { return false }
        return name.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x5F || $0 == 0x2E }
    }
}

extension OnlineSource {
    public struct CatalogError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// One entry of sources.json as written; everything optional except name and url.
    private struct Entry: Decodable {
        var name: String
        var url: String
        var title: String?
        var attribution: String?
        var attributionURL: String?
        var minZoom: Int?
        var maxZoom: Int?
        var tileSize: Int?
        var subdomains: [String]?
        /// "raster" (the default) or "vector".
        var type: String?
        /// For vector sources: a style (path or URL) for the app.
        var style: String?
        /// The server's terms allow bulk downloads (saving areas for offline use).
        var bulkDownload: Bool?
        /// A transparent map offered over the chosen one, at this opacity to start with.
        var overlay: Bool?
        var opacity: Double?
        /// "terrarium" or "mapbox": the tiles are heights.
        var encoding: String?
    }

    /// Reads a sources.json: `{"sources": [{"name": "…", "url": "https://…/{z}/{x}/{y}.png",
    /// "attribution": "…", "minZoom": 0, "maxZoom": 18, "tileSize": 256}]}`. A vector source
    /// says `"type": "vector"`; its url is a tile template (…/{z}/{x}/{y}.pbf) or a TileJSON
    /// document's address, and it may name a `"style"` (a path or URL). Each problem
    /// names the file and the entry (`sources[2].url: …`); a valid entry is kept even when
    /// others are not, and the problems are returned for the user.
    public static func catalog(_ data: Data, file: String) throws -> (sources: [OnlineSource], problems: [String]) {
        guard data.count <= 1 << 20 else { throw CatalogError(description: tr("%@: larger than 1 MiB, not a list of sources", file)) }
        // Entries are decoded one by one, so a broken one does not take the others down.
        struct Lenient: Decodable {
            var sources: [Result]
            struct Result: Decodable {
                var entry: Entry?
                var error: String?
                /// An OpenStreetMap extract's entry: no map, read by the routing instead.
                var isExtract = false
                init(from decoder: Decoder) throws {
                    if OSMExtractEntries.isExtract(decoder) { isExtract = true; return }
                    do { entry = try Entry(from: decoder) } catch let e as DecodingError { error = Self.reason(e) }
                }
                static func reason(_ e: DecodingError) -> String {
                    switch e {
                    // TRANSLATORS: %@ is the name of an entry's field in sources.json (url, name).
                    case let .keyNotFound(key, _): return tr("%@: missing", key.stringValue)
                    case let .typeMismatch(_, c), let .valueNotFound(_, c):
                        return "\(c.codingPath.last.map { $0.stringValue } ?? "entry"): \(c.debugDescription)"
                    case let .dataCorrupted(c): return c.debugDescription
                    @unknown default: return "\(e)"
                    }
                }
            }
        }
        let document: Lenient
        do { document = try JSONDecoder().decode(Lenient.self, from: data) } catch {
            // TRANSLATORS: %1$@ is a file, %2$@ what the reader found wrong; {"sources": [...]} is the file's form: keep it as it is.
            throw CatalogError(description: tr("%1$@: not a sources list ({\"sources\": [...]}): %2$@", file, error))
        }
        var sources: [OnlineSource] = [], problems: [String] = []
        for (i, result) in document.sources.enumerated() {
            let at = "\(file): sources[\(i)]"
            if result.isExtract { continue }
            guard let e = result.entry else { problems.append("\(at).\(result.error ?? "unreadable")"); continue }
            do {
                sources.append(try make(e))
            } catch let error as TileURLTemplate.Invalid {
                // TRANSLATORS: %1$@ is where in sources.json (FILE: sources[2].url), %2$@ what is wrong there.
                problems.append(tr("%1$@: %2$@", at + ".url", error))
            } catch {
                problems.append(tr("%1$@: %2$@", at, error))
            }
        }
        var seen = Set<String>()
        sources = sources.filter { s in
            guard seen.insert(s.name).inserted else {
                // TRANSLATORS: %1$@ is a file, %2$@ a map source's name.
                problems.append(tr("%1$@: source \"%2$@\" is named twice; the first is kept", file, s.name))
                return false
            }
            return true
        }
        return (sources, problems)
    }

    private static func make(_ e: Entry) throws -> OnlineSource {
        var made = try makeSource(e)
        if let o = e.opacity {
            // TRANSLATORS: opacity is a field's name in sources.json, %@ its value.
            guard o.isFinite, TileLayerSpec.opacityRange.contains(o) else { throw CatalogError(description: tr("opacity %@: a number from 0.05 to 1", o)) }
            made.overlayOpacity = o
        }
        made.isOverlay = e.overlay ?? false
        if let encoding = e.encoding {
            guard let dem = DEMTile.Encoding(rawValue: encoding), made.kind == .raster else {
                // TRANSLATORS: encoding is a field's name in sources.json, %@ its value; "terrarium" and "mapbox" are its possible values.
                throw CatalogError(description: tr("encoding \"%@\": \"terrarium\" or \"mapbox\", for raster tiles of heights", shownInMessage(encoding)))
            }
            made.demEncoding = dem
        }
        return made
    }

    private static func makeSource(_ e: Entry) throws -> OnlineSource {
        if e.type == "vector", !e.url.contains("{") {
            // No placeholders: the address of a TileJSON document.
            try checkCommon(e)
            return try OnlineSource(name: e.name, title: title(e), tileJSON: e.url, attribution: shownInMessage(e.attribution ?? ""),
                                    attributionURL: e.attributionURL, zoomRange: try zooms(e, default: 0...14),
                                    allowsBulk: e.bulkDownload ?? false, style: e.style)
        }
        return try makeTemplated(e)
    }

    /// What every entry must get right: its name, type, style and attribution link.
    private static func checkCommon(_ e: Entry) throws {
        guard isValidName(e.name) else {
            // TRANSLATORS: name is a field's name in sources.json, %@ its value.
            throw CatalogError(description: tr("name \"%@\": use 1–40 of a–z, 0–9, - _ . (it names a cache folder)", shownInMessage(e.name)))
        }
        guard let kind = Kind(rawValue: e.type ?? "raster") else {
            // TRANSLATORS: type is a field's name in sources.json, %@ its value; "raster" and "vector" are its possible values.
            throw CatalogError(description: tr("type \"%@\": \"raster\" or \"vector\"", shownInMessage(e.type ?? "")))
        }
        if let style = e.style {
            // TRANSLATORS: style is a field's name in sources.json.
            guard kind == .vector else { throw CatalogError(description: tr("style: only vector sources have one")) }
            guard (1...TileURLTemplate.maxLength).contains(style.utf8.count), style.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
                throw CatalogError(description: tr("style \"%@\": a path or an address", shownInMessage(style)))
            }
        }
        // It is opened in a browser when the attribution is clicked: a web page, nothing else.
        if let link = e.attributionURL, !isWebAddress(link) {
            // TRANSLATORS: attributionURL is a field's name in sources.json, %@ its value.
            throw CatalogError(description: tr("attributionURL \"%@\": an http(s) address", shownInMessage(link)))
        }
    }

    private static func zooms(_ e: Entry, default range: ClosedRange<Int>) throws -> ClosedRange<Int> {
        let lo = e.minZoom ?? range.lowerBound, hi = e.maxZoom ?? range.upperBound
        guard (0...TileID.maxZoom).contains(lo), (0...TileID.maxZoom).contains(hi), lo <= hi else {
            // TRANSLATORS: %1$@…%2$@ is the range of zooms given, %3$@ the deepest allowed.
            throw CatalogError(description: tr("zooms %1$@…%2$@: must lie within 0…%3$@, the lowest first", lo, hi, TileID.maxZoom))
        }
        return lo...hi
    }

    private static func title(_ e: Entry) -> String? {
        e.title.map { String(String($0.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }).prefix(60)) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    private static func makeTemplated(_ e: Entry) throws -> OnlineSource {
        try checkCommon(e)
        let template = try TileURLTemplate(e.url, subdomains: e.subdomains ?? TileURLTemplate.defaultSubdomains)
        let range = try zooms(e, default: 0...18)
        let size = e.tileSize ?? 256
        // TRANSLATORS: tileSize is a field's name in sources.json, %@ its value.
        guard [256, 512].contains(size) else { throw CatalogError(description: tr("tileSize %@: 256 or 512", size)) }
        return OnlineSource(name: e.name, title: title(e), template: template, attribution: shownInMessage(e.attribution ?? ""),
                            attributionURL: e.attributionURL, zoomRange: range, tileSize: size, allowsBulk: e.bulkDownload ?? false,
                            kind: e.type == "vector" ? .vector : .raster, style: e.style)
    }
}
