import FoundationEssentials
import MapChrome
import MapCore
import MapGraphics
import MapNetwork
import MapRender
import MapStyle
import MapTiles
import MapWindow
import Platform

/// The maps there are, by name (Meridian's `--tiles` and its layer switcher use these names):
/// the embedded basemap, the built-in tile servers, those of the user's sources.json, and
/// "debug", .mbtiles and .pmtiles files, folders, tile URLs and TileJSON addresses. Online maps
/// lie over the embedded basemap, which shows wherever their tiles are not in (loading, or the
/// network down), so the map is never blank. Where it looks and who it says it is are the
/// app's (`Settings`), given when the catalogue is made: an app makes one and hands it where
/// maps are made; nothing is read from the process's globals. What it reads once (the user's
/// sources, the styles) and its network client are its own.
public final class MapCatalog: @unchecked Sendable { // immutable but for locked values (sources read, schemas told)
    /// The name of the embedded basemap.
    public static let basemap = SourcesLayer.basemap

    /// What the catalogue needs of the app: who it says it is to tile servers, where the
    /// user's sources.json and the tile cache are, and where to say what is wrong.
    public struct Settings: Sendable {
        /// Sent with every request: tile servers refuse library defaults (OSM's policy).
        public var userAgent = "MeridianKit (an app that did not say its name)"
        /// The folder of `sources.json` (nil: no sources of the user's).
        public var configFolder: String?
        /// The tile cache's root: online tiles and style sprite sheets are kept there (the
        /// default, a folder in /tmp, lasts until the system cleans it).
        public var cacheRoot = "/tmp/meridiankit-tiles"
        /// The folder of the areas saved for offline use (nil: none): each is a map of its
        /// own, and lies beneath the online map it was cut from.
        public var savedAreasFolder: String?
        /// Where problems found once (a bad sources.json entry, a style's layers left out) are said.
        public var warn: @Sendable (String) -> Void = { _ in }
        /// Every HTTP request and its answer, when given (debugging a server).
        public var httpLog: (@Sendable (String) -> Void)?
        /// Ask nothing of the network (`isOffline` changes it later): online maps show only
        /// the tiles kept on disk.
        public var offline = false
        public init() {}
    }

    /// The app's settings, as given.
    public let settings: Settings
    /// The styles read so far, and their sprite sheets (fetched with this catalogue's client).
    public let styles: MapStyles
    private let clientMaker: ClientMaker
    private let readSources = LockedValue<Result<[OnlineSource], any Error>>()
    /// The sources whose schema no style draws, already said.
    private let toldSchemas = LockedValue<Set<String>>()

    /// A catalogue with `settings` (the defaults: no sources of the user's, no saved areas,
    /// a tile cache in /tmp, problems said nowhere). Nothing is read or started until a map
    /// is asked for.
    public init(settings: Settings = Settings()) {
        self.settings = settings
        let maker = ClientMaker(settings)
        clientMaker = maker
        styles = MapStyles(settings: settings, client: { maker.client })
    }

    /// The network client, made when first asked for.
    final class ClientMaker: @unchecked Sendable { // the client made once, under `made`'s lock
        private let settings: Settings
        private let made = LockedValue<HTTPClient>()
        private let offline = LockedValue<Bool>()
        init(_ settings: Settings) {
            self.settings = settings
            offline.set(settings.offline)
        }
        var client: HTTPClient {
            made.update { c in
                if let c { return c }
                var options = HTTPClient.Options(userAgent: settings.userAgent)
                options.offline = isOffline
                let n = HTTPClient(options: options)
                c = n
                return n
            }
        }
        var isOffline: Bool {
            get { offline.get() ?? false }
            set {
                made.update { c in
                    offline.set(newValue)
                    c?.isOffline = newValue
                }
            }
        }
    }

    /// Nothing is asked of the network while set (the app's `--offline`, its settings'
    /// "offline"): the catalogue's maps show what is kept on disk. The app's other clients (a
    /// geocoder, a router) read it when they are made. From any thread.
    public var isOffline: Bool {
        get { clientMaker.isOffline }
        set { clientMaker.isOffline = newValue }
    }

    /// What a window needs to show a map: its stack of tile layers.
    public struct Tiles {
        public var stack: TileStack
        public var source: TileSource { stack.source }
        public var background: Color { stack.background }
        /// Draws the map's vector tiles: the basemap's look, or a MapLibre style.
        public var painter: VectorTilePainter { stack.map.painter }
        /// What of the style's sources cannot be drawn (said once, in the window too).
        public var notices: [String] = []

        public init(source: TileSource, fallback: TileLayerSource?, background: Color, painter: VectorTilePainter = VectorTilePainter()) {
            stack = TileStack(map: source, painter: painter, background: background, fallback: fallback)
        }
    }

    /// The tile server `name` names, if it names one (checked, nothing started).
    public func online(_ name: String) throws -> OnlineSource? {
        // A sources.json entry named terrain-dem stands for the AWS Terrain Tiles (a mirror,
        // or heights of one's own).
        if name == OnlineSource.terrainDEM.name { return (try? userSources.get())?.first { $0.name == name } ?? OnlineSource.terrainDEM }
        // So does one named openfreemap for OpenFreeMap (a mirror of it).
        if name == OnlineSource.openFreeMap.name, let mirror = (try? userSources.get())?.first(where: { $0.name == name }) { return mirror }
        if let s = OnlineSource.builtIn.first(where: { $0.name == name }) { return s }
        let lower = name.lowercased()
        if Self.isRemoteArchive(name) { return nil }
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            // No {z}: a TileJSON document that says where a street map's tiles are.
            if !name.contains("{") {
                // TRANSLATORS: a map's title in the switcher: a street map given by its address.
                return try OnlineSource(name: "tilejson", title: tr("Street map from a URL"), tileJSON: name, attribution: "")
            }
            // Vector tiles by their extension: …/{z}/{x}/{y}.pbf or .mvt.
            let path = lower.split(separator: "?", maxSplits: 1).first ?? ""
            let vector = path.hasSuffix(".pbf") || path.hasSuffix(".mvt")
            // TRANSLATORS: a map's title in the switcher: tiles given by an address.
            return OnlineSource(name: "url", title: tr("Tiles from a URL"), template: try TileURLTemplate(name), attribution: "",
                                zoomRange: vector ? 0...14 : 0...19, kind: vector ? .vector : .raster)
        }
        guard OnlineSource.isValidName(name), ![Self.basemap, "debug"].contains(name) else { return nil }
        return try userSources.get().first { $0.name == name }
    }

    /// A PMTiles archive on the web, read with range requests.
    public static func isRemoteArchive(_ name: String) -> Bool {
        let lower = name.lowercased()
        let path = lower.split(separator: "?", maxSplits: 1).first.map(String.init) ?? lower
        return (lower.hasPrefix("http://") || lower.hasPrefix("https://")) && path.hasSuffix(".pmtiles")
    }

    /// The sources of the settings' sources.json, read once (checking the options and making
    /// the source both ask); what is wrong in it is said (`Settings.warn`), once.
    public var userSources: Result<[OnlineSource], any Error> {
        readSources.update { read in
            if let read { return read }
            let made = Result { try readUserSources() }
            read = made
            return made
        }
    }

    private func readUserSources() throws -> [OnlineSource] {
        guard let folder = settings.configFolder else { return [] }
        let path = folder + "/sources.json"
        guard FileIO.exists(path) else { return [] }
        let (sources, problems) = try OnlineSource.catalog(try FileIO.read(path, limit: 1 << 20), file: path)
        for p in problems { settings.warn(p) }
        return sources
    }

    /// The terrain map's name: the AWS Terrain Tiles shaded and traced (`TerrainSource`).
    public static let terrain = "terrain"

    /// Whether `name` is a terrain map (`terrain`, or `terrain:SOURCE`).
    public static func isTerrain(_ name: String) -> Bool { name == terrain || name.hasPrefix(terrain + ":") }

    /// One network client for every online map (and style sprite sheets): its connections
    /// outlive a switch of maps.
    public var client: HTTPClient { clientMaker.client }

    /// The source `name` names; `pixelRatio` picks @2x tiles on HiDPI screens where offered.
    public func source(_ name: String, pixelRatio: Double = 1) throws -> TileSource {
        let cacheRoot = settings.cacheRoot
        // Terrain: the AWS Terrain Tiles (open data), or any source of terrarium DEM tiles
        // ("terrain:FILE.mbtiles"), shaded and traced for contours.
        if name == Self.terrain { return try self.terrain(over: OnlineSource.terrainDEM.name) }
        if name.hasPrefix("terrain:"), name.count > 8 { return try self.terrain(over: String(name.dropFirst(8))) }
        if Self.isRemoteArchive(name) {
            return try PMTilesSource.remote(url: name, client: client, cacheRoot: cacheRoot)
        }
        if let online = try online(name) {
            if online.demEncoding != nil { return try terrain(over: name) }
            return try source(of: online, pixelRatio: pixelRatio)
        }
        switch name {
        case "debug":
            return DebugGridSource()
        case Self.basemap:
            return try BuiltInMaps.basemapSource()
        case let path where path.hasSuffix(".mbtiles"):
            // Vector tiles in a schema other than the basemap's are a street map's
            // (OpenMapTiles'), made for 512 points and drawn with a style.
            let file = try MBTilesSource(path: path)
            guard file.isVector, !file.holdsBasemapSchema else { return file }
            return try MBTilesSource(path: path, vectorTileSize: 512)
        case let path where path.hasSuffix(".pmtiles"):
            return try PMTilesSource(path: path)
        default:
            return try DirectorySource(root: URL(fileURLWithPath: name))
        }
    }

    /// The map `name` names, with the basemap under it when it is online or a street map;
    /// street maps drawn in `style`. An online map has the areas saved from it beneath it
    /// (`AreaBackedSource`): offline, they still show.
    /// `overlays`: the overlays offered, laid over it in order (those off are not drawn).
    /// The map is known by `name` (the session's `TileStackModel.chosenMap` once shown).
    public func tiles(_ name: String, pixelRatio: Double = 1, style: StyleChoice = StyleChoice(), overlays: [TileLayerSource] = []) throws -> Tiles {
        var made = try tiles(over: try self.source(name, pixelRatio: pixelRatio), style: style)
        made.stack = made.stack.replacingMapSource(backedBySavedAreas(made.source, name: name)).naming(map: name)
        made.stack.add(overlays)
        return made
    }

    /// The tiles of a tile server, through the disk cache.
    public func source(of online: OnlineSource, pixelRatio: Double) throws -> TileSource {
        let cacheRoot = settings.cacheRoot
        if online.kind == .vector { return try OnlineVectorTileSource.open(online, client: client, cacheRoot: cacheRoot) }
        let retina = pixelRatio >= 1.5
        let cache = TileDiskCache(root: cacheRoot, source: online, retina: retina)
        let tiles = OnlineTileSource(source: online, client: client, cache: cache, retina: retina)
        if let log = settings.httpLog { tiles.log = { log($0) } }
        return tiles
    }

    /// Terrain drawn from the heights of the source `demName` names (backed by the areas
    /// saved from it), in the encoding its sources.json entry says (terrarium by default).
    public func terrain(over demName: String) throws -> TerrainSource {
        var online = try self.online(demName)
        let encoding = online?.demEncoding ?? .terrarium
        online?.demEncoding = nil
        let dem = try online.map { try source(of: $0, pixelRatio: 1) } ?? source(demName)
        return TerrainSource(dem: backedBySavedAreas(dem, name: demName), encoding: encoding)
    }

    /// An online source over the areas saved from it (`AreaBackedSource`): offline, they still show.
    public func backedBySavedAreas(_ source: TileSource, name: String) -> TileSource {
        guard source.isRemote else { return source }
        return AreaBackedSource(primary: source, areas: savedAreas(under: name))
    }

    /// The areas saved for offline use, in the folder the settings name.
    public func savedAreas() -> [SavedArea] { settings.savedAreasFolder.map { SavedArea.list(in: $0) } ?? [] }

    /// The saved areas cut from the map `name`, as they lie beneath it.
    public func savedAreas(under name: String) -> [AreaBackedSource.Area] { Self.savedAreas(under: name, of: savedAreas()) }

    /// The areas of `saved` cut from the map `name`, as they lie beneath it.
    public static func savedAreas(under name: String, of saved: [SavedArea]) -> [AreaBackedSource.Area] {
        saved.filter { $0.source == name }.compactMap { area in
            guard let file = try? PMTilesSource(path: area.path) else { return nil }
            // A street map's tiles are drawn a zoom deeper than their own numbering (512 points).
            return AreaBackedSource.Area(source: file, rects: area.rects, minZoom: area.zooms.lowerBound + file.zoomShift)
        }
    }

    /// The tiles `source` draws from, beneath the saved areas under it and a style's pictures
    /// with it: what its kind and zooms are read from.
    public static func underlying(_ source: TileSource) -> TileSource {
        if let a = source as? AreaBackedSource { return underlying(a.primary) }
        if let s = source as? StyledTileSource { return underlying(s.vector) }
        return source
    }

    /// Whether `source` holds vector tiles a MapLibre style draws (any but the basemap's).
    public static func isStreetMap(_ source: TileSource) -> Bool {
        let source = underlying(source)
        if let m = source as? MBTilesSource { return m.isVector && m.vectorTileSize == 512 }
        if let p = source as? PMTilesSource { return p.isVector }
        return source is OnlineVectorTileSource
    }

    /// `source` as the window shows it: over the basemap when it is online, or a street map
    /// (whose tiles come later, or cover only their area).
    public func tiles(over source: TileSource, style: StyleChoice = StyleChoice()) throws -> Tiles {
        let street = Self.isStreetMap(source)
        var fallback: TileLayerSource?
        if source.isRemote || street, let base = try? self.source(Self.basemap) {
            fallback = .fallback(base, background: Self.background(for: base))
        }
        guard street else {
            return Tiles(source: source, fallback: fallback, background: fallback?.background ?? Self.background(for: source))
        }
        var style = style
        if style.path == nil, let own = (source as? OnlineVectorTileSource)?.source.style, !own.hasPrefix("http") {
            style.path = own   // the source's own style (sources.json "style"), a file
        }
        // The built-in style for the tiles' schema; where nothing tells it (a bare address
        // not yet visited), OpenMapTiles', the schema of most tile servers.
        let schema = Self.underlying(source).schema ?? .openMapTiles
        style.schema = schema
        var notices: [String] = []
        if style.path == nil, case let .unknown(layers) = schema, let said = unknownSchema(source, layers: layers) { notices.append(said) }
        let mapStyle = try styles.style(for: style)
        let ground = MapStyles.background(of: mapStyle) ?? .styleGround
        // The style's raster and raster-dem sources, drawn in their layers among the vector ones.
        let pictures = stylePictures(mapStyle, notices: &notices)
        var made = Tiles(source: pictures.isEmpty ? source : StyledTileSource(vector: source, pictures: pictures), fallback: fallback,
                         background: fallback?.background ?? ground, painter: VectorTilePainter(mapStyle: mapStyle, sprites: styles.sheet(for: style)))
        made.notices = notices
        return made
    }

    /// That its tiles follow a schema no built-in style draws: said once for each source.
    func unknownSchema(_ source: TileSource, layers: [String]) -> String? {
        guard toldSchemas.update({ told in
            var names = told ?? []
            defer { told = names }
            return names.insert(source.name).inserted
        }) else { return nil }
        let shown = layers.isEmpty ? "–" : layers.prefix(12).joined(separator: ", ") + (layers.count > 12 ? ", …" : "")
        // TRANSLATORS: %1$@ is a map's file or address, %2$@ the names of its tiles' layers.
        return tr("%1$@: its tiles follow a schema Meridian has no style for (layers: %2$@); drawn with a plain style guessed from the layers' names",
                  Self.shownName(source), shown)
    }
    /// A source's file or address as a reader knows it ("pmtiles:/x.pmtiles" is /x.pmtiles).
    static func shownName(_ source: TileSource) -> String {
        let name = underlying(source).name
        for prefix in ["pmtiles:", "mbtiles:", "dir:"] where name.hasPrefix(prefix) { return String(name.dropFirst(prefix.count)) }
        return name
    }

    /// The sources of `style`'s raster and hillshade layers, each a tile server of its own
    /// (cached like any): those given by tile addresses; what cannot be had is said in `notices`
    /// and its layers are not drawn.
    public func stylePictures(_ style: MapStyle, notices: inout [String]) -> [StyledTileSource.Picture] {
        style.pictureSources.sorted { $0.key < $1.key }.compactMap { name, s in
            guard let address = s.tiles.first else {
                // TRANSLATORS: %@ is the name of a source in a map style; TileJSON is a kind of document.
                notices.append(tr("The style's source '%@' gives no tile addresses (a TileJSON address is not read for pictures): its layers are not drawn", name))
                return nil
            }
            do {
                let template = try TileURLTemplate(address)
                let lo = s.minzoom ?? 0, hi = max(s.maxzoom ?? 22, lo)
                let online = OnlineSource(name: "style-" + String(FNV1a.hash(address), radix: 16), title: name, template: template,
                                          attribution: VectorAttribution.plainText(s.attribution ?? ""), zoomRange: lo...hi, tileSize: s.tileSize)
                let drawing = style.layers.filter { $0.source == name && $0.visible }
                let zooms = (drawing.map(\.minzoom).min() ?? 0)..<max(drawing.map(\.maxzoom).max() ?? 24, drawing.map(\.minzoom).min() ?? 0)
                return StyledTileSource.Picture(name: name, source: try source(of: online, pixelRatio: 1), tileSize: s.tileSize, styleZooms: zooms)
            } catch {
                // TRANSLATORS: %1$@ is the name of a source in a map style, %2$@ why it cannot be read.
                notices.append(tr("The style's source '%1$@' cannot be read (%2$@): its layers are not drawn", name, error))
                return nil
            }
        }
    }

    /// What shows where there is no tile: water under a vector map, neutral grey otherwise.
    public static func background(for source: TileSource) -> Color {
        let vector = (source as? MBTilesSource)?.isVector == true || (source as? PMTilesSource)?.isVector == true
            || source is OnlineVectorTileSource
        return vector ? BasemapStyle.standard.water : .noMap
    }

    /// The maps the layer switcher lists: the basemap, the built-in servers, those of
    /// sources.json, and `current` when it is none of these (a file or URL given with --tiles).
    public func choices(current: String) -> [SourcesLayer.Choice] { choices(current: current, saved: savedAreas()) }

    /// The switcher's list with the saved areas `saved` (read once for several lists).
    public func choices(current: String, saved: [SavedArea]) -> [SourcesLayer.Choice] {
        // TRANSLATORS: the map built in, in the switcher: it needs no network.
        var list = [SourcesLayer.Choice(name: Self.basemap, title: tr("World basemap (offline)"))]
        list += OnlineSource.builtIn.map { SourcesLayer.Choice(name: $0.name, title: $0.title) }
        // (Overlays are offered over the maps, and terrain-dem's heights as terrain.)
        list += ((try? userSources.get()) ?? []).filter { s in !s.isOverlay && s.name != OnlineSource.terrainDEM.name && !list.contains { $0.name == s.name } }
            .map { SourcesLayer.Choice(name: $0.name, title: $0.title) }
        // Saved areas, each an offline map of its own, by their path.
        // (Saved heights are the terrain's, not a map.)
        list += saved.filter { $0.source != OnlineSource.terrainDEM.name }.map { SourcesLayer.Choice(name: $0.path, title: $0.title, detail: SaveAreaLayer.bytes($0.bytes), deletable: true) }
        if !list.contains(where: { $0.name == current }) {
            // TRANSLATORS: in the switcher: the terrain map (shading of the relief and contour lines).
            let title = current == "debug" ? "Debug grid" : current == Self.terrain ? tr("Terrain (hillshade and contours)")
                // TRANSLATORS: in the switcher: the terrain map drawn from the heights in a file; %@ is the file's name.
                : Self.isTerrain(current) ? tr("Terrain: %@", URL(fileURLWithPath: String(current.dropFirst(Self.terrain.count + 1))).lastPathComponent)
                : (try? online(current))??.title ?? URL(fileURLWithPath: current).lastPathComponent
            list.append(SourcesLayer.Choice(name: current, title: title))
        }
        return list
    }
}

extension MapCatalog {
    /// The overlays this catalogue offers over any map.
    public var overlays: MapOverlays { MapOverlays(catalog: self) }

    /// The style `choice` names, read once (`styles`).
    public func style(_ choice: StyleChoice) throws -> MapStyle { try styles.style(for: choice) }
}
