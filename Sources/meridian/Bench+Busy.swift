import CSDL2
import Glibc
import MapCore
import MapGeometry
import MapWindow
import MeridianKit
import Platform

extension Bench {
    /// A desktop that is not idle: this binary started afresh (median of three) until the
    /// view is fully drawn, alone and then beside two processes that only spin (a compile,
    /// a browser tab), for the world map of a first start and a street map at z15. The two
    /// rows of a pair show what the busy desktop costs the view.
    func busyDesktopRows(vector: String?) throws -> [Row] {
        var rows: [Row] = []
        var views: [(String, [String])] = [("first start, world map", [])]
        if let vector { views.append(("street map z15", ["--tiles", vector, "--center", "60.1699,24.9384", "--zoom", "15"])) }
        for (name, args) in views {
            let run = args + ["--offline", "--no-location", "--exit-when-drawn"]
            rows.append(Row(name: name + ": start to fully drawn (median of 3)", value: try spawnMedian(run) * 1000, unit: "ms", target: ""))
            let busy = try beside(spinners: 2) { try spawnMedian(run) }
            rows.append(Row(name: name + ": the same beside 2 busy processes", value: busy * 1000, unit: "ms", target: "≤ 1000 ms"))
        }
        return rows
    }

    /// In a window over the world map at z8 (the embedded basemap, whose tiles are painted
    /// as they come): seconds from a jump of the camera until the window shows all of the new
    /// view (median of three), for a pan to new ground and a zoom in by one, alone and beside
    /// two busy processes.
    func busyWindowRows() throws -> [Row] {
        let window = try SDLWindow(title: "Meridian bench", width: 1280, height: 800, renderer: renderer)
        let made = try Meridian.catalog.tiles("basemap", pixelRatio: window.pixelRatio)
        let europe = Coordinate(latitude: 50, longitude: 10)
        var start = Camera(center: WebMercator.project(europe), zoom: 8, viewportSize: window.size)
        start.setZoom(8)
        let session = makeSession(camera: start, tiles: made, tilesName: nil, overlays: try OverlayOptions.parse(["--no-location"]), pins: [])
        let host = try appHost(window: window, session: session, stack: made.stack)
        _ = toDrawn(host, start)
        // Views no run has drawn before, one set alone (k 0) and one busy (k 1), 3° apart:
        // pans over the north of Europe, zooms over its south.
        func views(_ k: Int) -> (pans: [Camera], zooms: [Camera]) {
            func at(_ i: Int, latitude: Double, zoom: Double) -> Camera {
                var c = start
                c.setCenter(WebMercator.project(Coordinate(latitude: latitude, longitude: -5 + 3 * Double(k * 3 + i))))
                c.setZoom(zoom)
                return c
            }
            return ((0..<3).map { at($0, latitude: 54, zoom: 8) }, (0..<3).map { at($0, latitude: 44, zoom: 9) })
        }
        func median(_ cams: [Camera]) -> Double {
            var times: [Double] = []
            for cam in cams {
                // Drawn first: for a pan, the view three screens south of it; for a zoom, the
                // same centre a zoom out.
                var before = cam
                if cam.zoom > 8 {
                    before.setZoom(cam.zoom - 1)
                } else {
                    before.setCenter(MapPoint(x: cam.center.x, y: cam.center.y + 3 * cam.visibleMapRect.size.height))
                }
                _ = toDrawn(host, before)
                times.append(toDrawn(host, cam))
            }
            return times.sorted()[1]
        }
        let (idlePans, idleZooms) = views(0), (busyPans, busyZooms) = views(1)
        let pan = median(idlePans), zoom = median(idleZooms)
        let (busyPan, busyZoom) = try beside(spinners: 2) { (median(busyPans), median(busyZooms)) }
        return [Row(name: "world map: pan to new ground z8, to fully drawn (median of 3)", value: pan * 1000, unit: "ms", target: ""),
                Row(name: "world map: the same beside 2 busy processes", value: busyPan * 1000, unit: "ms", target: "≤ 1000 ms"),
                Row(name: "world map: zoom in z8 → z9, to fully drawn (median of 3)", value: zoom * 1000, unit: "ms", target: ""),
                Row(name: "world map: the same beside 2 busy processes", value: busyZoom * 1000, unit: "ms", target: "≤ 1000 ms")]
    }

    /// Seconds from showing `camera` until the window has drawn all of it (30 s at most).
    private func toDrawn(_ host: MapHost, _ camera: Camera) -> Double {
        let start = MonotonicClock.now
        host.change { $0.controller.camera = camera }
        host.markUndrawn()
        SDL_FlushEvent(SDL_QUIT.rawValue)
        let handle = host.handle
        let watcher = Joinable(name: "bench-drawn") {
            handle.waitUntilDrawn(timeout: 30)
            handle.perform { $0.requestQuit() }
        }
        host.run()
        watcher.join()
        return MonotonicClock.now - start
    }

    /// `body` run while `count` processes spin (`sh -c 'while :; do :; done'`), ended after.
    private func beside<T>(spinners count: Int, _ body: () throws -> T) throws -> T {
        let spinners = try (0..<count).map { _ in try Subprocess("/bin/sh", ["-c", "while :; do :; done"]) }
        defer { for s in spinners { s.terminate(); s.wait() } }
        return try body()
    }
}
