import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapSearch
import MapTiles
import MapWindow
import MeridianKit
import Platform

/// The first start (no view saved yet): the view over the reader's country, and, where
/// OpenFreeMap answers, its street map over the basemap — as GNOME Maps opens on streets.
/// Offline nothing is said: the basemap shows as on any start.
enum FirstStart {
    /// Europe, where the locale names no country the built-in places know.
    static let europe = (center: Coordinate(latitude: 50, longitude: 10), zoom: 4.0)

    /// The view that shows `region`'s cities (ISO 3166 code, from the locale) in a window of
    /// `viewport`: the box of its places, its far-flung few left out (Alaska, the Canaries).
    static func view(region: String?, places: PlaceIndex?, viewport: ScreenSize) -> (center: Coordinate, zoom: Double) {
        guard let region, let places else { return europe }
        let mine = places.places.filter { $0.countryCode == region }
        guard !mine.isEmpty else { return europe }
        let xs = mine.map { WebMercator.project($0.coordinate).x }.sorted(), ys = mine.map { WebMercator.project($0.coordinate).y }.sorted()
        func at(_ v: [Double], _ share: Double) -> Double { v[min(v.count - 1, Int(saturating: (Double(v.count - 1) * share).rounded()))] }
        let trim = mine.count >= 20 ? 0.04 : 0
        let minX = at(xs, trim), maxX = at(xs, 1 - trim), minY = at(ys, trim), maxY = at(ys, 1 - trim)
        let center = WebMercator.unproject(MapPoint(x: (minX + maxX) / 2, y: (minY + maxY) / 2))
        // The box with a margin, in the window; no closer than a city's view, no farther than a continent's.
        let width = max(maxX - minX, 1e-9) * 1.3, height = max(maxY - minY, 1e-9) * 1.3
        let zoom = log2(min(viewport.width / width, viewport.height / height))
        return (center, min(max(zoom.isFinite ? zoom : 4, 3), 10))
    }

    /// Asks OpenFreeMap for its description off the frame; where it answers, `show` is called
    /// on the frame's thread (which opens the map from the description kept on disk, asking
    /// nothing more). No answer: nothing happens, nothing is said.
    static func offerStreets(host: MapHost, show: @escaping @Sendable (MapHost) -> Void) {
        let handle = host.handle
        // With MERIDIAN_FRAME_LOG, tests hear the outcome (a person hears only of streets shown).
        let log = host.configuration.logFrames
        startThread(name: "first-start") {
            do {
                let source = try Meridian.catalog.source(OnlineSource.openFreeMap.name)
                if let reason = source.unreachable { throw TileSourceError(reason) }
                if log { FileIO.printError("first-start: streets") }
                handle.perform { host in show(host) }
            } catch {
                if log { FileIO.printError("first-start: no streets (\(error))") }
            }
        }
    }
}
