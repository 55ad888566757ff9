import ArgumentParser
import FoundationEssentials
import Glibc
import MapChrome
import MapCore
import MapData
import Platform
import MapGeometry
import MapWindow

/// Draws the view offscreen into a PNG, exactly as the window would show it.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Render the map to a PNG without a display.")

    @OptionGroup var view: ViewOptions
    @OptionGroup var overlays: OverlayOptions

    @Option(name: .long, help: ArgumentHelp("Image size in points.", valueName: "WxH"))
    var size: WindowSize

    @Option(name: .long, help: "Device pixels per point (2 for HiDPI).")
    var scale = 1.0

    @Option(name: .long, help: "Clock time in seconds at which animations are shown.")
    var at = 0.0

    @Option(name: .long, help: "Seconds to wait for tiles before giving up.")
    var timeout = 20.0

    @Option(name: .long, help: ArgumentHelp("Where to write the PNG.", valueName: "FILE.png"))
    var out: String

    @Flag(name: .long, help: "Leave place labels out.")
    var noLabels = false

    @Flag(name: .long, help: "Scale bar in miles and feet.")
    var imperial = false

    @Option(name: .long, help: ArgumentHelp("Also write the placed labels (name, screen boxes) as JSON.", valueName: "FILE.json"))
    var labelsOut: String?

    @Option(name: .long, help: ArgumentHelp("Draw the pins of this GeoJSON file (read only).", valueName: "FILE"))
    var pins: String?

    @Option(name: .long, help: ArgumentHelp("Colour tracks by plain, speed or elevation (key C in the window).", valueName: "MODE"))
    var colorBy = TrackColorMode.plain

    @Option(name: .long, help: ArgumentHelp("Show the callout of the track drawn at this place, as a click there would.", valueName: "LAT,LON"))
    var select: Coordinate?

    @Flag(name: .long, help: "Show the elevation profile panel (key E in the window).")
    var profile = false

    @Flag(name: .long, help: "Show the list of open files (key T in the window).")
    var trackList = false

    @Flag(name: .long, help: "Show the panel of keys and gestures (F1 in the window).")
    var keys = false

    @Option(name: .long, help: .hidden)
    var drawlistOut: String?

    @Argument(help: ArgumentHelp("GPX, KML, GeoJSON or CSV files to draw (the view fits them unless --center or --zoom is given).", valueName: "FILE"))
    var files: [String] = []

    func validate() throws {
        guard scale.isFinite, scale >= 0.5, scale <= 4 else { throw ValidationError("--scale must be between 0.5 and 4") }
        guard at.isFinite, at >= 0 else { throw ValidationError("--at must be a time ≥ 0") }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
    }

    func run() throws {
        let camera = Camera(center: view.center ?? ViewOptions.defaultCenter, zoom: view.zoom ?? ViewOptions.defaultZoom,
                            viewportSize: size.screenSize, pixelRatio: scale)
        do {
            let r = try OffscreenRenderer(pixelWidth: Int((Double(size.width) * scale).rounded()),
                                          pixelHeight: Int((Double(size.height) * scale).rounded()), pixelRatio: scale)
            let tiles = try MapSources.tiles(view.tileName, pixelRatio: scale, style: view.styleChoice)
            var pinList: [Pin] = []
            if let pins {
                // Render only reads: a file it cannot read is reported and left as it is.
                let loaded = PinFile(url: URL(fileURLWithPath: pins)).load(readOnly: true)
                for p in loaded.problems { warn(p) }
                pinList = loaded.pins
            }
            var session = makeSession(camera: camera, tiles: tiles, tilesName: view.tileName, overlays: overlays, pins: pinList)
            session.scene.showsLabels = !noLabels
            session.imperialUnits = imperial
            if keys { session.scene.modify(HelpLayer.self, default: HelpLayer()) { $0.isShown = true } }
            let opened = TrackFiles.read(files)
            for n in opened.notices { warn(n) }
            for f in opened.files {
                session.scene.tracks.add(f)
                session.scene.tracks.setDetails(f.lines.map(TrackDetails.init), forFile: f.id)
            }
            if !session.scene.tracks.setColorMode(colorBy) { warn("the tracks have no \(colorBy.rawValue) to colour them by; drawn plain") }
            if view.center == nil, view.zoom == nil, let rect = opened.bounds {
                session.show(rect, animated: false, at: 0)
            }
            // As a click there would: the track's callout with its statistics.
            if let select, !session.scene.tracks.select(at: session.camera.screenPoint(for: select), camera: session.camera) {
                warn("no track is drawn at \(select.latitude),\(select.longitude)")
            }
            session.scene.tracks.showsList = trackList && !session.scene.tracks.files.isEmpty
            if profile, !session.scene.tracks.toggleProfile() { warn("no track with elevations: no profile to show") }
            for m in try r.render(&session, source: tiles.source, under: tiles.under, painter: tiles.painter, at: at, timeout: timeout) { warn(m) }
            try r.writePNG(to: out)
            if let drawlistOut { FileIO.writeText(r.lastDrawList.dump(), to: drawlistOut) }
            if let labelsOut { try writeLabels(r.placedLabels, to: labelsOut) }
        } catch {
            warn("render failed: \(error)")
            throw ExitCode(1)
        }
    }

    private func writeLabels(_ labels: [PlacedLabel], to path: String) throws {
        // `along`: a label set along a line, letter by letter (its box holds them all).
        struct Out: Encodable { var name: String; var capital: Bool; var along: Bool; var x: Double; var y: Double; var width: Double; var height: Double }
        let rows = labels.map { Out(name: $0.place.name, capital: $0.place.capital, along: !$0.glyphs.isEmpty,
                                    x: $0.text.x, y: $0.text.y, width: $0.text.width, height: $0.text.height) }
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys]
        try enc.encode(rows).write(to: URL(fileURLWithPath: path))
    }
}

extension TrackColorMode: ExpressibleByArgument {}
