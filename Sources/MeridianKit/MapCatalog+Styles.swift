import FoundationEssentials
import MapCore
import MapGraphics
import MapNetwork
import MapStyle
import MapTiles
import Platform

/// Which MapLibre style draws street maps (vector tiles): the built-in one for the tiles'
/// schema (light or dark) or a style file the user names. Each style is read once; what it
/// leaves out is said once (`MapCatalog.Settings.warn`); a catalogue's `styles` read it.
public struct StyleChoice: Equatable, Sendable {
    /// A style JSON file (`--style`), nil for the built-in style.
    public var path: String?
    public var dark = false
    /// Which names labels show (the reader's language where the reader's locale names one).
    public var labels: LabelNames
    /// The schema of the tiles the built-in style is for (the source's, set when they are
    /// opened); a style file is taken as it is.
    public var schema: TileSchema = .openMapTiles

    public init(path: String? = nil, dark: Bool = false, labels: LabelNames = .standard, schema: TileSchema = .openMapTiles) {
        self.path = path
        self.dark = dark
        self.labels = labels
        self.schema = schema
    }

    /// The built-in style's file in Resources (nil for an unknown schema's, made in code).
    public var builtInName: String? {
        switch schema {
        case .openMapTiles, .basemap: return dark ? "styles/streets-dark.json" : "styles/streets.json"
        case .protomaps: return dark ? "styles/protomaps-dark.json" : "styles/protomaps.json"
        case .unknown: return nil
        }
    }
}

/// The styles read so far, by choice: a catalogue's (`MapCatalog.styles`), with its settings
/// (where problems are said, where web sprite sheets are kept) and its network client.
public final class MapStyles: @unchecked Sendable { // its caches under `lock`; settings and client immutable
    private let settings: MapCatalog.Settings
    private let client: @Sendable () -> HTTPClient
    private let lock = Lock()
    /// By path and which names the labels show.
    private var loaded: [String: MapStyle] = [:]
    /// The styles whose left-out layers were said.
    private var told: Set<String> = []
    private var sheets: [String: SpriteSheet] = [:]
    /// Sheets that could not be had, and when they may be asked for again.
    private var failedSheets: [String: Double] = [:]
    private let fetching = Lock()

    init(settings: MapCatalog.Settings, client: @escaping @Sendable () -> HTTPClient) {
        self.settings = settings
        self.client = client
    }

    public func style(for choice: StyleChoice) throws -> MapStyle {
        let path: String
        var made: Data?
        if let p = choice.path { path = p } else if let name = choice.builtInName {
            guard let url = Resources.url(name) else {
                // TRANSLATORS: %@ is a list of folders.
                throw TileSourceStyleError(tr("the built-in street style is missing (looked in: %@)", Resources.candidates(name).map(\.path).joined(separator: ", ")))
            }
            path = url.path
        } else {
            // Tiles of a schema no style is written for: one made from their layers' names.
            let layers = if case let .unknown(l) = choice.schema { l } else { [String]() }
            path = "generic" + (choice.dark ? "-dark:" : ":") + layers.joined(separator: ",")
            made = GenericStyle.json(layers: layers, dark: choice.dark)
        }
        let key = choice.labels.rawValue + ":" + path
        lock.lock()
        if let s = loaded[key] { lock.unlock(); return s }
        lock.unlock()
        let style: MapStyle
        do {
            style = try MapStyle(json: try made ?? FileIO.read(path, limit: 16 << 20), labels: .reader(choice.labels))
        } catch {
            // TRANSLATORS: a style file, and what is wrong with it.
            throw TileSourceStyleError(tr("%@: %@", path, error))
        }
        let skipped = style.notices
        lock.lock()
        let tell = told.insert(path).inserted
        lock.unlock()
        if !skipped.isEmpty, tell {
            // TRANSLATORS: %2$@ is a style file, %1$d how many of its layers are not drawn; the layers follow, one a line.
            settings.warn(trn("%2$@: %1$d style layer not drawn:", "%2$@: %1$d style layers not drawn:", skipped.count, path) + "\n"
                + skipped.prefix(20).map { "  " + $0 }.joined(separator: "\n"))
        }
        lock.lock()
        loaded[key] = style
        lock.unlock()
        return style
    }

    /// The style's sprite sheet: a local file (a path, or file://, beside the style file when
    /// relative), or one on the web, fetched once and kept with the tiles (offline, the copy
    /// kept is used). A sheet that cannot be had is said once; the text is drawn alone.
    public func sheet(for choice: StyleChoice) -> SpriteSheet? {
        // (A built-in style's sheet lies beside it in Resources/styles: its one-way arrows.)
        guard let path = choice.path ?? choice.builtInName.flatMap({ Resources.url($0)?.path }), let style = try? style(for: choice),
              var base = style.sprite, !base.isEmpty else { return nil }
        let web = base.hasPrefix("http://") || base.hasPrefix("https://")
        if base.hasPrefix("file://") { base = String(base.dropFirst(7)) }
        if !web, !base.hasPrefix("/") { base = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(base).path }
        // One sheet fetched at a time (the map and an overlay may ask together); one that
        // could not be had is not asked for again for a minute, nor said again.
        fetching.lock()
        defer { fetching.unlock() }
        lock.lock()
        if let s = sheets[base] { lock.unlock(); return s }
        if let until = failedSheets[base], MonotonicClock.now < until { lock.unlock(); return nil }
        let told = failedSheets[base] != nil
        lock.unlock()
        do {
            let sheet: SpriteSheet
            if web {
                let root = settings.cacheRoot
                sheet = try SpriteSheet(url: base, client: client(), keptIn: root + "/sprites/" + String(FNV1a.hash(base), radix: 16))
            } else {
                sheet = try SpriteSheet(base: base)
            }
            lock.lock()
            sheets[base] = sheet
            lock.unlock()
            return sheet
        } catch {
            // TRANSLATORS: %@ is why a style's icons (its sprite sheet) cannot be had.
            if !told { settings.warn(tr("%@; icons are left out", error)) }
            lock.lock()
            failedSheets[base] = MonotonicClock.now + 60
            lock.unlock()
            return nil
        }
    }

    /// The street map a style names (its first vector source's TileJSON `url`, or its `tiles`
    /// template), for `--style` given without `--tiles`.
    public func tilesNamed(by choice: StyleChoice) -> String? {
        guard choice.path != nil, let style = try? style(for: choice) else { return nil }
        for key in style.sources.keys.sorted() {
            guard let s = style.sources[key], s.type == "vector" else { continue }
            if let url = s.url, url.hasPrefix("http") { return url }
            if let t = s.tiles.first, t.hasPrefix("http") { return t }
        }
        return nil
    }

    /// The colour a style paints where there is nothing else (its background at z10).
    public static func background(of style: MapStyle) -> Color? {
        guard let bg = style.layers.first(where: { $0.type == .background }) else { return nil }
        return bg.color("background-color", EvaluationContext(zoom: 10))
    }
}

public struct TileSourceStyleError: Error, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}
