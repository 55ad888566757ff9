import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapTiles
import MapWindow
import MeridianKit
import Platform

/// What turning the map costs: a full turn over the street map in a 1280×800 window (frames,
/// pacing, labels that moved other than with the map), and how many more tiles a turned view
/// covers than a north-up one.
extension Bench {
    func turnRows(_ path: String, at: Coordinate) throws -> [Row] {
        let window = try SDLWindow(title: "Meridian bench", width: 1280, height: 800, renderer: renderer)
        let made = try Meridian.catalog.tiles(path, pixelRatio: window.pixelRatio)
        let start = Camera(center: WebMercator.project(at), zoom: 15, viewportSize: window.size)
        let session = makeSession(camera: start, tiles: made, tilesName: nil, overlays: try OverlayOptions.parse(["--no-location"]), pins: [])
        let host = try appHost(window: window, session: session, stack: made.stack)
        // The view and the ring a full turn passes over, loaded before the clock starts.
        for b in stride(from: 0.0, to: 360, by: 45) {
            var cam = start
            cam.setBearing(b)
            host.change { $0.controller.camera = cam }
            quit(after: 0.5)
            host.run()
        }
        let run = turnScript(host, from: start, seconds: 3)
        var rows = frameRows("street map: a full turn in 3 s at z15:", run, period: host.clock.period, withIntervals: true)
        for (w, h) in [(1280, 800)] {
            var cam = Camera(center: WebMercator.project(at), zoom: 15.5, viewportSize: ScreenSize(width: Double(w), height: Double(h)))
            let z = TileCover.tileZoom(forZoom: cam.zoom, maxZoom: 22)
            let north = cam.tilesInView(atZoom: z).count
            cam.setBearing(45)
            let turned = cam.tilesInView(atZoom: z).count
            rows += [Row(name: "tiles covering \(w)×\(h) at z15.5, north-up", value: Double(north), unit: "", target: "report"),
                     Row(name: "tiles covering \(w)×\(h) at z15.5, turned 45°", value: Double(turned), unit: "", target: "report")]
        }
        return rows
    }

    /// 0° → 360° at an even pace over `seconds`, the centre still.
    private func turnScript(_ host: MapHost, from start: Camera, seconds duration: Double) -> MeasuredRun {
        scripted(host, seconds: duration) { e in
            var cam = start
            cam.setBearing(360 * e / duration)
            return cam
        }
    }
}
