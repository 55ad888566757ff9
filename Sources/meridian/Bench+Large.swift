import MapCore
import MapGeometry
import MapWindow

extension Bench {
    /// The zoom script in large windows drawn in software (no GPU): a 1440p and a 4K screen.
    /// The display must be at least as large (make bench's private Xvfb is 3840×2160).
    func largeWindowRows() throws -> [Row] {
        var rows: [Row] = []
        for (w, h) in [(2560, 1440), (3840, 2160)] {
            let window = try SDLWindow(title: "Meridian bench \(w)×\(h)", width: w, height: h, renderer: .software)
            let paris = Coordinate(latitude: 48.85, longitude: 2.35)
            let start = Camera(center: paris, zoom: 3, viewportSize: window.size)
            let made = try MapSources.tiles(tiles, pixelRatio: window.pixelRatio)
            let session = makeSession(camera: start, tiles: made, tilesName: nil, overlays: try OverlayOptions.parse(["--no-location"]), pins: [])
            let host = try MapHost(window: window, session: session, source: made.source, under: made.under)
            // The first screen loads before the script, as in the rows at 1920×1080.
            quit(after: 1)
            host.run()
            let run = zoomScript(host, from: start)
            rows += frameRows("zoom script \(w)×\(h) software", run, period: host.clock.period, withIntervals: true)
        }
        return rows
    }
}
