import ArgumentParser
import FoundationEssentials
import Glibc
import MapChrome
import MapCore
import MapData
import MapNetwork
import MeridianKit
import Platform
import MapGeometry
import MapRender
import MapWindow

/// Draws the view offscreen into a PNG, exactly as the window would show it.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: tr("Render the map to a PDF, SVG or PNG without a display."),
        discussion: tr("The format is --out's extension. PDF and SVG keep vectors and real text (raster tiles are embedded at their own resolution). --paper lays the map out on a sheet with margins, an optional --title, a frame, the stated scale and a north arrow; --map-scale 1:N sets the zoom so that the printed scale is exact at the centre's latitude."))

    @OptionGroup var view: ViewOptions
    @OptionGroup var overlays: OverlayOptions

    @Option(name: .long, help: ArgumentHelp(tr("Image size in points (PDF, SVG) or pixels at --scale 1 (PNG)."), valueName: "WxH"))
    var size: WindowSize?

    // TRANSLATORS: a5, a4, a3, letter, legal and ,landscape are typed as they are: keep them.
    @Option(name: .long, help: ArgumentHelp(tr("A sheet: a5, a4, a3, letter or legal, with ,landscape to turn it."), valueName: "PAPER"))
    var paper: String?

    @Option(name: .long, help: ArgumentHelp(tr("The printed scale, exact at the centre's latitude (sets the zoom)."), valueName: "1:N"))
    var mapScale: String?

    @Option(name: .long, help: ArgumentHelp(tr("Dots per inch of a PNG laid out on --paper.")))
    var dpi = 150.0

    @Option(name: .long, help: ArgumentHelp(tr("A title above the map (with --paper).")))
    var title: String?

    @Flag(name: .long, help: ArgumentHelp(tr("A latitude/longitude graticule, labelled in the margin (with --paper).")))
    var grid = false

    @Option(name: .long, help: ArgumentHelp(tr("Device pixels per point (2 for HiDPI).")))
    var scale = 1.0

    @Option(name: .long, help: ArgumentHelp(tr("Clock time in seconds at which animations are shown.")))
    var at = 0.0

    @Option(name: .long, help: ArgumentHelp(tr("Seconds to wait for tiles before giving up.")))
    var timeout = 20.0

    @Option(name: .long, help: ArgumentHelp(tr("Where to write the map."), valueName: "FILE.pdf|FILE.svg|FILE.png"))
    var out: String

    @Flag(name: .long, help: ArgumentHelp(tr("Leave place labels out.")))
    var noLabels = false

    @Flag(name: .long, help: ArgumentHelp(tr("Scale bar in miles and feet.")))
    var imperial = false

    @Option(name: .long, help: ArgumentHelp(tr("Also write the placed labels (name, screen boxes) as JSON."), valueName: "FILE.json"))
    var labelsOut: String?

    @Option(name: .long, help: ArgumentHelp(tr("Then draw again at this zoom, labels held to the view before as in the window (repeatable; --labels-out then lists every view's labels)."), valueName: "ZOOM"))
    var thenZoom: [Double] = []

    @Option(name: .long, help: ArgumentHelp(tr("Draw the pins of this GeoJSON file (read only)."), valueName: "FILE"))
    var pins: String?

    // TRANSLATORS: plain, speed and elevation are typed as they are: keep them. C is a key.
    @Option(name: .long, help: ArgumentHelp(tr("Colour tracks by plain, speed or elevation (key C in the window)."), valueName: "MODE"))
    var colorBy = TrackColorMode.plain

    @Option(name: .long, help: ArgumentHelp(tr("Show the callout of the track drawn at this place, as a click there would."), valueName: "LAT,LON"))
    var select: Coordinate?

    @Flag(name: .long, help: ArgumentHelp(tr("Show the elevation profile panel (key E in the window).")))
    var profile = false

    @Flag(name: .long, help: ArgumentHelp(tr("Show the list of open files (key T in the window).")))
    var trackList = false

    @Flag(name: .long, help: ArgumentHelp(tr("Show the panel of keys and gestures (F1 in the window).")))
    var keys = false

    @Option(name: .long, help: .hidden)
    var drawlistOut: String?

    @Argument(help: ArgumentHelp(tr("GPX, KML, GeoJSON, CSV, FIT or TCX files to draw (the view fits them unless --center or --zoom is given)."), valueName: "FILE"))
    var files: [String] = []

    func validate() throws {
        guard scale.isFinite, scale >= 0.5, scale <= 4 else { throw ValidationError(tr("--scale must be between 0.5 and 4")) }
        guard at.isFinite, at >= 0 else { throw ValidationError(tr("--at must be a time ≥ 0")) }
        guard timeout > 0 else { throw ValidationError(tr("--timeout must be positive")) }
        guard thenZoom.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= Camera.maxZoom }) else {
            throw ValidationError(tr("--then-zoom must be a zoom from 0 to %d", Int(saturating: Camera.maxZoom)))
        }
        guard thenZoom.isEmpty || (paper == nil && PagePrinter.Format(path: out) == .png) else { throw ValidationError(tr("--then-zoom draws PNG views: leave --paper out")) }
        guard (size == nil) != (paper == nil) else { throw ValidationError(tr("give --size or --paper (one of them)")) }
        guard PagePrinter.Format(path: out) != nil else { throw ValidationError(tr("--out %@: name a .pdf, .svg or .png file", out)) }
        guard dpi.isFinite, dpi >= 36, dpi <= 1200 else { throw ValidationError(tr("--dpi must be between 36 and 1200")) }
        // The library's sentence names the paper; the option it was typed in is said here.
        if let paper { do { _ = try PrintLayout(paper: paper) } catch { throw ValidationError("--paper: " + String(describing: error)) } }
        if let mapScale, Self.scaleDenominator(mapScale) == nil {
            throw ValidationError(tr("--map-scale %@: 1:N with N from 100 to 100000000, e.g. 1:25000", mapScale.prefix(40)))
        }
        if grid, paper == nil { throw ValidationError(tr("--grid labels the margin of a sheet: give --paper")) }
        if mapScale != nil, view.zoom != nil { throw ValidationError(tr("--map-scale sets the zoom: leave --zoom out")) }
        if let n = mapScale.flatMap(Self.scaleDenominator) {
            // The scale must be one the map can be drawn at, at the latitude it is for.
            let lat = (view.center ?? ViewOptions.defaultCenter).latitude
            let z = PrintLayout.zoom(forScale: n, latitude: lat)
            guard z >= 0, z <= Camera.maxZoom else {
                let bound = PrintLayout.statedScale(PrintLayout.scale(zoom: z < 0 ? 0 : Camera.maxZoom, latitude: lat))
                // TRANSLATORS: %1$d is N of the scale 1:N asked for, %2$@ a latitude in degrees, %3$@ a scale (1:N).
                throw ValidationError(z < 0 ? tr("--map-scale 1:%1$d is beyond what the map draws at latitude %2$@: at most %3$@", Int(saturating: n), lat, bound)
                                            : tr("--map-scale 1:%1$d is beyond what the map draws at latitude %2$@: at least %3$@", Int(saturating: n), lat, bound))
            }
        }
    }

    /// N of "1:N" (spaces and thin spaces between digits allowed).
    static func scaleDenominator(_ text: String) -> Double? {
        let t = String(text.unicodeScalars.filter { $0 != " " && $0 != "\u{2009}" })
        guard t.hasPrefix("1:"), let n = Double(t.dropFirst(2)), n.isFinite, n >= 100, n <= 100_000_000 else { return nil }
        return n
    }

    func run() throws {
        if view.offline { Meridian.catalog.isOffline = true }
        let catalog = Meridian.catalog
        let format = PagePrinter.Format(path: out) ?? .png
        // A sheet (--paper), or a PDF or SVG of a --size: laid out as a page, without the
        // app's buttons. A PNG of a --size is the window's picture, as always.
        let layout: PrintLayout? = try paper.map { try PrintLayout(paper: $0, title: title) }
            ?? (format == .png ? nil : size.map { PrintLayout(width: Double($0.width), height: Double($0.height), title: title) })
        let frame = layout.map { ScreenSize(width: $0.mapFrame.width, height: $0.mapFrame.height) } ?? size!.screenSize
        let k = layout == nil ? scale : format == .png ? dpi / 72 : 1
        let opened = TrackFiles.read(files)
        for n in opened.notices { warn(n) }
        var center = view.center ?? ViewOptions.defaultCenter
        if view.center == nil, let rect = opened.bounds { center = WebMercator.unproject(rect.center) }
        let scaleN = mapScale.flatMap(Self.scaleDenominator)
        let zoom = scaleN.map { PrintLayout.zoom(forScale: $0, latitude: center.latitude) } ?? view.zoom ?? ViewOptions.defaultZoom
        let camera = Camera(center: center, zoom: zoom, viewportSize: frame, pixelRatio: k, bearing: view.bearing ?? 0)
        do {
            let r = try OffscreenRenderer(pixelWidth: Int(saturating: (frame.width * k).rounded()),
                                          pixelHeight: Int(saturating: (frame.height * k).rounded()), pixelRatio: k)
            var problems: [String] = []
            let overlaid = catalog.overlays.layers(catalog.overlays.settings(remembered: nil, asked: view.overlay).filter(\.on), pixelRatio: k, problems: &problems)
            for p in problems { warn(p) }
            var tiles = try catalog.tiles(view.tileName, pixelRatio: k, style: view.styleChoice, overlays: overlaid)
            // A bare {z}/{x}/{y} address of vector tiles says nothing of its schema: the tile at
            // the centre tells it (the window learns it from its first tile and draws again).
            let middle = TileID(containing: center, zoom: min(max(Int(saturating: zoom.rounded(.down)), 0), TileID.maxZoom))
            if let bare = MapCatalog.underlying(tiles.source) as? OnlineVectorTileSource, bare.schema == nil,
               let payload = try? bare.payload(for: middle) {
                bare.decoded(middle, payload: payload, ok: true)
                if (try? catalog.source(view.tileName))?.schema != nil {
                    tiles = try catalog.tiles(view.tileName, pixelRatio: k, style: view.styleChoice, overlays: overlaid)
                }
            }
            for n in tiles.notices { warn(n) }
            var pinList: [Pin] = []
            if let pins {
                // Render only reads: a file it cannot read is reported and left as it is.
                let loaded = PinFile(url: URL(fileURLWithPath: pins)).load(readOnly: true)
                for p in loaded.problems { warn(p) }
                pinList = loaded.pins
            }
            var session = makeSession(camera: camera, tiles: tiles, tilesName: view.tileName, overlays: overlays, pins: pinList)
            if layout != nil { session.removeChrome() }
            session.scene.showsLabels = !noLabels
            session.imperialUnits = imperial
            if keys {
                let table = session.keyTable
                session.scene.modify(HelpLayer.self, default: HelpLayer()) { $0.isShown = true; $0.keys = table }
            }
            for f in opened.files {
                session.scene.tracks.add(f)
                session.scene.tracks.setDetails(f.lines.map(TrackDetails.init), forFile: f.id)
            }
            // TRANSLATORS: %@ is what --color-by names, as typed: speed or elevation.
            if !session.scene.tracks.setColorMode(colorBy) { warn(tr("the tracks have no %@ to colour them by; drawn plain", colorBy.rawValue)) }
            if view.center == nil, view.zoom == nil, scaleN == nil, let rect = opened.bounds {
                session.show(rect, animated: false, at: 0)
            }
            // As a click there would: the track's callout with its statistics.
            if let select, !session.scene.tracks.select(at: session.camera.screenPoint(for: select), camera: session.camera) {
                warn(tr("no track is drawn at %@,%@", select.latitude, select.longitude))
            }
            session.scene.tracks.showsList = trackList && !session.scene.tracks.files.isEmpty
            if profile, !session.scene.tracks.toggleProfile() { warn(tr("no track with elevations: no profile to show")) }
            for m in try r.render(&session, stack: tiles.stack, at: at, timeout: timeout) { warn(m) }
            var steps = [r.placedLabels]
            for z in thenZoom {
                session.controller.camera.setZoom(z)
                for m in try r.render(&session, stack: tiles.stack, at: at, timeout: timeout) { warn(m) }
                steps.append(r.placedLabels)
            }
            if let layout {
                let page = PageRenderer(stack: tiles.stack, overlays: session.tileOverlays)
                try PagePrinter.write(r.lastDrawList, with: page, layout: layout, format: format, pixelRatio: k,
                                      camera: session.camera, grid: grid, to: out)
                for p in page.problems { warn(p) }
            } else {
                try r.writePNG(to: out)
            }
            if let drawlistOut { FileIO.writeText(r.lastDrawList.dump(), to: drawlistOut) }
            if let labelsOut { try writeLabels(steps, to: labelsOut) }
        } catch {
            warn(tr("render failed: %@", error))
            throw ExitCode(1)
        }
    }

    /// One view's labels as a list; with --then-zoom, a list of every view's.
    private func writeLabels(_ steps: [[PlacedLabel]], to path: String) throws {
        // `along`: a label set along a line, letter by letter (its box holds them all);
        // `anchorX/Y`: the point it labels (on the line, under its middle).
        struct Out: Encodable {
            var name: String; var capital: Bool; var along: Bool; var x: Double; var y: Double; var width: Double; var height: Double
            var anchorX: Double; var anchorY: Double
        }
        let rows = steps.map { labels in labels.map { Out(name: $0.place.name, capital: $0.place.capital, along: !$0.glyphs.isEmpty,
                                                         x: $0.text.x, y: $0.text.y, width: $0.text.width, height: $0.text.height,
                                                         anchorX: $0.anchor.x, anchorY: $0.anchor.y) } }
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys]
        try (steps.count == 1 ? enc.encode(rows[0]) : enc.encode(rows)).write(to: URL(fileURLWithPath: path))
    }
}

extension TrackColorMode: ExpressibleByArgument {}
