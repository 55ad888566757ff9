import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapTiles
import Platform

/// How much a route climbs and falls, from heights (a DEM) where they are at hand: the line
/// sampled every few tens of metres in the DEM's tiles at one zoom, and the climbing counted
/// as the tracks count it (`TrackStatistics`: rises under its threshold are noise).
public enum RouteHeights {
    /// The heights' zoom: about 30 m a pixel at mid latitudes, as fine as public DEMs are.
    public static let zoom = 12
    static let spacing = 30.0
    /// No route is sampled at more points (a continent-wide one is sampled more sparsely).
    static let maxSamples = 20_000

    /// The heights along `route` (metres, NaN where `tile` has none) and the climbing and
    /// falling they add up to; nil when no height at all could be had. `tile` gives the DEM
    /// tile at `zoom` (it is asked once a tile).
    public static func measure(_ route: Route, tile: (TileID) -> DEMTile?) -> Climb? {
        let line = route.geometry
        guard line.count >= 2 else { return nil }
        let step = max(spacing, route.distance / Double(maxSamples))
        var samples: [Coordinate] = [line[0]]
        var carried = 0.0
        for (a, b) in zip(line, line.dropFirst()) {
            let d = TrackStatistics.distance(a.latitude, a.longitude, b.latitude, b.longitude)
            guard d.isFinite, d > 0 else { continue }
            var at = step - carried
            while at < d {
                let f = at / d
                samples.append(Coordinate(latitude: a.latitude + (b.latitude - a.latitude) * f, longitude: a.longitude + (b.longitude - a.longitude) * f))
                at += step
            }
            carried = d - (at - step)
        }
        samples.append(line[line.count - 1])
        var tiles: [TileID: DEMTile?] = [:]
        var points = TrackPoints()
        var any = false
        for c in samples {
            let id = TileID(containing: c, zoom: zoom)
            if tiles[id] == nil { tiles[id] = .some(tile(id)) }
            let h = tiles[id].flatMap { $0 }.map { height(at: c, in: $0, of: id) } ?? .nan
            if h.isFinite { any = true }
            points.append(latitude: c.latitude, longitude: c.longitude, elevation: h, time: .nan)
        }
        guard any else { return nil }
        let stats = TrackStatistics(Track(kind: .route, segments: [0..<points.count], points: points))
        guard let up = stats.ascent, let down = stats.descent else { return nil }
        // The height of each point of the line too (a saved route's track carries them).
        let atPoints = line.map { c -> Float in
            let id = TileID(containing: c, zoom: zoom)
            if tiles[id] == nil { tiles[id] = .some(tile(id)) }
            return tiles[id].flatMap { $0 }.map { height(at: c, in: $0, of: id) } ?? .nan
        }
        return Climb(ascent: up, descent: down, heights: atPoints)
    }

    /// What the heights say of a route.
    public struct Climb: Sendable, Equatable {
        public var ascent: Double
        public var descent: Double
        /// The height at each point of the route's line (NaN where none).
        public var heights: [Float]
    }

    /// The DEM's height at `c` in its tile `id` (the nearest pixel's).
    static func height(at c: Coordinate, in dem: DEMTile, of id: TileID) -> Float {
        let p = WebMercator.project(c.normalized)
        let tileSize = WebMercator.worldSize / Double(id.tilesAcross)
        let fx = (p.x / tileSize - Double(id.x)) * Double(dem.size), fy = (p.y / tileSize - Double(id.y)) * Double(dem.size)
        let x = min(max(Int(saturating: fx.rounded(.down)), 0), dem.size - 1), y = min(max(Int(saturating: fy.rounded(.down)), 0), dem.size - 1)
        let h = dem.height(x, y)
        // Sea, voids and nonsense are no height (a DEM's no-data value is far below the sea).
        return h.isFinite && h > -500 && h < 9000 ? h : .nan
    }

    /// The DEM tile `id` from a terrain source's heights, decoded; nil where there is none.
    public static func tile(_ id: TileID, from terrain: TerrainSource) -> DEMTile? {
        guard let payload = try? terrain.dem.payload(for: id) else { return nil }
        switch payload {
        case let .encodedImage(data), let .encodedImageRegion(data, _): return try? DEMTile(png: data, encoding: terrain.encoding)
        case let .terrain(data, encoding, _): return try? DEMTile(png: data, encoding: encoding)
        default: return nil
        }
    }
}
