import ArgumentParser
import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapGraphics
import MapTiles
import MapWindow
import MeridianKit
import Platform

/// "LAT,LON" on the command line.
extension Coordinate: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}

/// `--labels local|mine|both`.
extension LabelNames: ExpressibleByArgument {}

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
    /// The default as --help shows it: as it is typed, not as Swift prints the struct.
    var defaultValueDescription: String { "\(width)x\(height)" }
}

/// The options that say what to look at, shared by the window and `render`.
struct ViewOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(tr("Centre of the view."), valueName: "LAT,LON"))
    var center: Coordinate?

    @Option(name: .long, help: ArgumentHelp(tr("Zoom level, 0 to 20 (fractions allowed)."), valueName: "Z"))
    var zoom: Double?

    @Option(name: .long, help: ArgumentHelp(tr("Turn the map: the compass direction the top of the view faces, in degrees clockwise from north (90: east is up)."), valueName: "DEG"))
    var bearing: Double?

    // TRANSLATORS: the names in single quotes ('basemap', 'osm'…), {z} {x} {y} and the file names are typed as they are: keep them.
    @Option(name: .long, help: ArgumentHelp(tr("Tile source: 'basemap' (the embedded world map, default), 'osm' (OpenStreetMap), 'opentopomap', 'openfreemap' (vector streets), a tile URL with {z} {x} {y} (and {s} {r} {-y}; .pbf or .mvt for vector tiles), a TileJSON address, a source named in ~/.config/meridian/sources.json, 'debug', an .mbtiles or .pmtiles file (or a .pmtiles URL), or a directory of {z}/{x}/{y}.png tiles. The window remembers the last one chosen (key L)."), valueName: "SOURCE"))
    var tiles: String?

    // TRANSLATORS: 'terrain' and "overlay": true are typed as they are: keep them.
    @Option(name: .long, help: ArgumentHelp(tr("Lay a transparent map over the map, at an opacity from 0.05 to 1 if given: 'terrain' (hillshading and contour lines) or a source of ~/.config/meridian/sources.json with \"overlay\": true. May be given more than once; the window remembers the overlays chosen (key L)."), valueName: "NAME[@OPACITY]"))
    var overlay: [OverlayRequest] = []

    @Option(name: .long, help: ArgumentHelp(tr("A MapLibre style JSON file to draw street maps (vector tiles) with, instead of the built-in style for their schema (OpenMapTiles or Protomaps)."), valueName: "FILE.json"))
    var style: String?

    @Flag(name: .long, help: ArgumentHelp(tr("Draw street maps in the built-in style's dark variant (the default where the desktop prefers dark).")))
    var dark = false

    @Flag(name: .long, help: ArgumentHelp(tr("Ask nothing of the network: no online tiles (those kept on disk still show), no online search or directions. settings.json's \"offline\": true in ~/.config/meridian does the same for every start.")))
    var offline = false

    // TRANSLATORS: local, mine and both are typed as they are: keep them.
    @Option(name: .long, help: ArgumentHelp(tr("Which names street maps' labels show: local (the names where they are), mine (in your language where the map has it) or both (yours above the local one). By default, yours; the window remembers the choice (key L)."), valueName: "local|mine|both"))
    var labels: LabelNames?

    /// How street maps are drawn, as the options say (the window also follows the desktop:
    /// `StyleChoice.followingDesktop`, and the labels the view kept).
    var styleChoice: StyleChoice { StyleChoice(path: style, dark: dark, labels: labels ?? .standard) }

    /// The map asked for, or the basemap.
    var tileName: String { tiles ?? Meridian.catalog.styles.tilesNamed(by: styleChoice) ?? MapCatalog.basemap }

    func validate() throws {
        if let b = bearing, !b.isFinite {
            throw ValidationError(tr("--bearing must be a number of degrees"))
        }
        if let z = zoom, !(z.isFinite && z >= Camera.minZoom && z <= Camera.maxZoom) {
            throw ValidationError(tr("--zoom must be between %d and %d, got %@", Int(saturating: Camera.minZoom), Int(saturating: Camera.maxZoom), z))
        }
        if style != nil {
            do { _ = try Meridian.catalog.style(styleChoice) } catch { throw ValidationError("--style: \(error)") }
        }
        let offered = Meridian.catalog.overlays.offered().map(\.name)
        for o in overlay where !offered.contains(o.name) {
            // TRANSLATORS: %1$@ is the name given with --overlay; %2$@ lists the names there are, comma-separated.
            throw ValidationError(tr("--overlay: no overlay is named \"%1$@\" (there are: %2$@)", o.name, offered.joined(separator: ", ")))
        }
        if let tiles {
            do {
                if try Meridian.catalog.online(tiles) == nil { _ = try Meridian.catalog.source(tiles) }
            } catch {
                throw ValidationError("--tiles: \(error)")
            }
        }
    }

    /// The first view ever: the whole world.
    static let defaultCenter = Coordinate(latitude: 30, longitude: 0)
    static let defaultZoom = 2.0
}

extension RendererChoice: ExpressibleByArgument {}
