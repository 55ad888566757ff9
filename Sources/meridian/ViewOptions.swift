import ArgumentParser
import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapGraphics
import MapTiles
import MapWindow
import Platform

/// "LAT,LON" on the command line.
extension Coordinate: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}

/// "WIDTHxHEIGHT" in logical points.
struct WindowSize: ExpressibleByArgument, Equatable {
    var width: Int
    var height: Int
    init(width: Int, height: Int) { self.width = width; self.height = height }
    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (16...16384).contains(w), (16...16384).contains(h) else { return nil }
        width = w; height = h
    }
    var screenSize: ScreenSize { ScreenSize(width: Double(width), height: Double(height)) }
}

/// The options that say what to look at, shared by the window and `render`.
struct ViewOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Centre of the view.", valueName: "LAT,LON"))
    var center: Coordinate?

    @Option(name: .long, help: ArgumentHelp("Zoom level, 0 to 20 (fractions allowed).", valueName: "Z"))
    var zoom: Double?

    @Option(name: .long, help: ArgumentHelp("Tile source: 'basemap' (the embedded world map, default), 'osm' (OpenStreetMap), 'opentopomap', a tile URL with {z} {x} {y} (and {s} {r} {-y}), a source named in ~/.config/meridian/sources.json, 'debug', an .mbtiles file, or a directory of {z}/{x}/{y}.png tiles.", valueName: "SOURCE"))
    var tiles: String = "basemap"

    func validate() throws {
        if let z = zoom, !(z.isFinite && z >= Camera.minZoom && z <= Camera.maxZoom) {
            throw ValidationError("--zoom must be between \(Int(Camera.minZoom)) and \(Int(Camera.maxZoom)), got \(z)")
        }
        if try onlineSource() == nil { _ = try makeSource() }
    }

    /// The tile server `--tiles` names, if it names one (checked, nothing started).
    func onlineSource() throws -> OnlineSource? {
        do {
            if let s = OnlineSource.builtIn.first(where: { $0.name == tiles }) { return s }
            let lower = tiles.lowercased()
            if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
                return OnlineSource(name: "url", template: try TileURLTemplate(tiles), attribution: "", zoomRange: 0...19)
            }
            guard OnlineSource.isValidName(tiles), !["basemap", "debug"].contains(tiles) else { return nil }
            return try Self.userSources.get().first { $0.name == tiles }
        } catch {
            throw ValidationError("--tiles: \(error)")
        }
    }

    /// The sources of `$XDG_CONFIG_HOME/meridian/sources.json`, read once (checking the options
    /// and making the source both ask); what is wrong in it is said on stderr, once.
    static let userSources = Result { try readUserSources() }

    private static func readUserSources() throws -> [OnlineSource] {
        let env = ProcessInfo.processInfo.environment
        let config = env["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? (env["HOME"] ?? FileIO.homeDirectory) + "/.config"
        let path = config + "/meridian/sources.json"
        guard FileIO.exists(path) else { return [] }
        let (sources, problems) = try OnlineSource.catalog(try FileIO.read(path, limit: 1 << 20), file: path)
        for p in problems { FileIO.printError("meridian: " + p) }
        return sources
    }

    /// Who asks, on every request: tile servers block library defaults.
    static let userAgent = "Meridian/\(Meridian.version) (+https://github.com/meridian-maps/meridian)"

    func makeSource() throws -> TileSource {
        if let online = try onlineSource() {
            let cache = TileDiskCache(root: TileDiskCache.defaultRoot(environment: ProcessInfo.processInfo.environment), source: online)
            return OnlineTileSource(source: online, client: HTTPClient(options: .init(userAgent: Self.userAgent)), cache: cache,
                                    isImage: { (try? ImageDecoder.decode($0)) != nil })
        }
        do {
            switch tiles {
            case "debug":
                return DebugGridSource()
            case "basemap":
                guard let url = Resources.url("basemap.mbtiles") else {
                    throw TileSourceError("the embedded basemap is missing (looked in: \(Resources.candidates("basemap.mbtiles").map(\.path).joined(separator: ", ")))")
                }
                return try MBTilesSource(path: url.path)
            case let path where path.hasSuffix(".mbtiles"):
                return try MBTilesSource(path: path)
            default:
                return try DirectorySource(root: URL(fileURLWithPath: tiles))
            }
        } catch {
            throw ValidationError("--tiles: \(error)")
        }
    }

    /// What shows where there is no tile: water under a vector map, neutral grey otherwise.
    func background(for source: TileSource) -> Color {
        (source as? MBTilesSource)?.isVector == true ? BasemapStyle.standard.water : Color(hex: 0xE8E6E1)
    }

    /// The first view ever: the whole world.
    static let defaultCenter = Coordinate(latitude: 30, longitude: 0)
    static let defaultZoom = 2.0
}

extension RendererChoice: ExpressibleByArgument {}
