import Foundation
import MapCore
import MapGeometry
import Testing

struct TrackGeometryTests {
    /// A wandering ride of `n` points around (46, 7), in `segments` pieces.
    func ride(_ n: Int, seed: UInt64, segments: Int = 1) -> Track {
        var s = seed
        func r() -> Double { s = s &* 6364136223846793005 &+ 1442695040888963407; return Double(s >> 11) / Double(1 << 53) - 0.5 }
        var p = TrackPoints()
        var lat = 46.0, lon = 7.0, heading = 0.0
        for _ in 0..<n {
            heading += r() * 0.6
            lat += cos(heading) * 0.0003 + r() * 0.00005
            lon += sin(heading) * 0.0004 + r() * 0.00005
            p.append(latitude: lat, longitude: lon, elevation: .nan, time: .nan)
        }
        let cuts = (0...segments).map { $0 * n / segments }
        return Track(kind: .track, segments: (0..<segments).map { cuts[$0]..<cuts[$0 + 1] }, points: p)
    }

    /// Whether segment ab comes within the rect (sampled finely: the rects are much larger
    /// than the steps).
    func crosses(_ a: MapPoint, _ b: MapPoint, _ r: MapRect) -> Bool {
        guard max(a.x, b.x) >= r.minX, min(a.x, b.x) <= r.maxX, max(a.y, b.y) >= r.minY, min(a.y, b.y) <= r.maxY else { return false }
        return (0...64).contains { k in
            let t = Double(k) / 64
            let x = a.x + (b.x - a.x) * t, y = a.y + (b.y - a.y) * t
            return x >= r.minX && x <= r.maxX && y >= r.minY && y <= r.maxY
        }
    }

    /// Every edge of the simplified track that crosses a tile is in the tile's lines, as
    /// consecutive points, for tiles and tolerances of several zooms.
    /// Worked on by one thread or by several (each its stretches of the track).
    @Test(arguments: [1, 3])
    func everySimplifiedEdgeCrossingATileIsDrawnThere(threads: Int) {
        for (seed, segs) in [(1, 1), (2, 3), (3, 1)] as [(UInt64, Int)] {
            let track = ride(10_000, seed: seed, segments: segs)
            let g = TrackGeometry(track, threads: threads)
            for z in [8, 11, 14] {
                let tolerance = 0.5 / Double(1 << z) // half a pixel at that zoom
                let tiles = TileCover.tiles(covering: g.bounds, tileZoom: z)
                for tile in tiles.prefix(25) {
                    let rect = tile.mapRect
                    let lines = g.lines(in: rect, tolerance: tolerance)
                    var pairs = Set<[Double]>()
                    for l in lines { for k in 1..<l.count { pairs.insert([l[k - 1].x, l[k - 1].y, l[k].x, l[k].y]) } }
                    for s in track.segments {
                        let kept = s.filter { g.importance[$0] > tolerance }
                        for k in 1..<kept.count {
                            let a = g.points[kept[k - 1]], b = g.points[kept[k]]
                            if crosses(a, b, rect) {
                                #expect(pairs.contains([a.x, a.y, b.x, b.y]), "seed \(seed) z\(z) tile \(tile): edge \(kept[k - 1])–\(kept[k]) missing")
                            }
                        }
                    }
                }
            }
        }
    }

    /// A long edge between the last point of one run of points and the first of the next
    /// crosses a tile that neither run's points come near.
    @Test func anEdgeBetweenTwoRunsOfPointsIsFound() {
        var p = TrackPoints()
        for k in 0..<512 {
            // 256 points zig-zagging west of 10°E, then 256 east of 12°E.
            let lon = k < 256 ? 9.0 - Double(k % 2) * 0.01 : 13.0 + Double(k % 2) * 0.01
            p.append(latitude: 45 + Double(k) * 1e-4, longitude: lon, elevation: .nan, time: .nan)
        }
        let g = TrackGeometry(Track(kind: .track, segments: [0..<512], points: p))
        let a = WebMercator.project(Coordinate(latitude: 45.03, longitude: 10.5)), b = WebMercator.project(Coordinate(latitude: 44.9, longitude: 11.5))
        let tile = MapRect(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y)
        let lines = g.lines(in: tile, tolerance: 1e-9)
        #expect(lines.contains { l in (1..<l.count).contains { l[$0 - 1] == g.points[255] && l[$0] == g.points[256] } }, "\(lines.map(\.count))")
    }

    @Test func fewerPointsAtLowerZoomsAndNothingFarAway() {
        let g = TrackGeometry(ride(50_000, seed: 5))
        let count = { (z: Int) in g.lines(in: g.bounds, tolerance: 0.5 / Double(1 << z)).reduce(0) { $0 + $1.count } }
        #expect(count(6) < count(10) && count(10) < count(14) && count(14) <= 50_002)
        #expect(count(6) < 500)
        let far = MapRect(x: 10, y: 10, width: 1, height: 1)
        #expect(g.lines(in: far, tolerance: 1e-6).isEmpty)
    }

    /// Simplified by several threads, every point of the track still lies within the
    /// tolerance of the kept line around it, at every zoom; the points are projected alike.
    @Test(arguments: [2, 3, 5])
    func stretchesWorkedOnAtOnceKeepTheLineWithinItsTolerance(threads: Int) {
        let track = ride(20_000, seed: 9, segments: 3)
        let one = TrackGeometry(track, threads: 1), many = TrackGeometry(track, threads: threads)
        #expect(many.points == one.points && many.bounds == one.bounds)
        // The splits between stretches are kept at every zoom, besides the segments' ends.
        let kept = { (g: TrackGeometry) in g.importance.filter { $0 == .infinity }.count }
        #expect(kept(one) == 6 && kept(many) >= 6 && (threads < 3 || kept(many) > 6))
        for z in [4, 9, 14, 18] {
            let tolerance = 0.5 / Double(1 << z)
            for s in track.segments {
                let kept = s.filter { many.importance[$0] > tolerance }
                #expect(kept.first == s.lowerBound && kept.last == s.upperBound - 1)
                for k in 1..<kept.count {
                    let a = many.points[kept[k - 1]], b = many.points[kept[k]]
                    for i in kept[k - 1]..<kept[k] {
                        #expect(Simplify.segmentDistanceSquared(many.points[i], a, b) <= tolerance * tolerance, "z\(z) point \(i)")
                    }
                }
            }
        }
    }
}
