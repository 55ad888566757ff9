import ArgumentParser
import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapGraphics
import MapTiles
import MapWindow

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

    @Option(name: .long, help: ArgumentHelp("Tile source: 'basemap' (the embedded world map, default), 'debug', an .mbtiles file, or a directory of {z}/{x}/{y}.png tiles.", valueName: "SOURCE"))
    var tiles: String = "basemap"

    func validate() throws {
        if let z = zoom, !(z.isFinite && z >= Camera.minZoom && z <= Camera.maxZoom) {
            throw ValidationError("--zoom must be between \(Int(Camera.minZoom)) and \(Int(Camera.maxZoom)), got \(z)")
        }
        _ = try makeSource()
    }

    func makeSource() throws -> TileSource {
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
