import MapCore
import MapGeometry
import Testing

/// The live position's trail: which fixes become points, where segments break, and what the
/// tracks layer is told (its parts, and the region a new stretch changed).
struct TrailTests {
    func fix(_ lat: Double, _ lon: Double, time: Double? = nil) -> PositionFix {
        PositionFix(coordinate: Coordinate(latitude: lat, longitude: lon), accuracy: 5, time: time)
    }

    @Test func jitterIsLeftOutAndSilenceBreaksTheLine() {
        var trail = Trail()
        // 1e-5° of latitude is 1.1 m: under the 2 m step, so not recorded unless 30 s old.
        let table: [(PositionFix, Double, Bool)] = [
            (fix(46, 7), 0, true),
            (fix(46.00001, 7), 1, false),
            (fix(46.0001, 7), 2, true),          // 11 m on
            (fix(46.00011, 7), 40, true),        // jitter, but 38 s since the last point
            (fix(46.001, 7), 41, true),
            (fix(46.002, 7), 200, true),         // after 159 s of silence: a new segment
            (fix(95, 7), 201, false),            // out of range
            (fix(46.003, 7, time: 500), 202, true), // the fix's own time wins
        ]
        for (k, (f, t, recorded)) in table.enumerated() {
            #expect(trail.record(f, time: t) == recorded, "row \(k)")
        }
        #expect(trail.count == 6)
        #expect(trail.segments == [0..<4, 4..<5, 5..<6], "each silence over 60 s starts a segment")
        #expect(trail.points.time == [0, 2, 40, 41, 200, 500])
    }

    @Test func aLostFixBreaksTheLine() {
        var trail = Trail()
        trail.record(fix(46, 7), time: 0)
        trail.record(fix(46.001, 7), time: 1)
        trail.breakSegment()
        trail.record(fix(46.002, 7), time: 2)
        trail.record(fix(46.003, 7), time: 3)
        #expect(trail.segments == [0..<2, 2..<4])
    }

    @Test func theLayerGetsPartsAndTheRegionOfEachNewStretch() {
        var trail = Trail()
        var tracks = TracksLayer()
        trail.record(fix(46, 7), time: 0)
        tracks.follow(&trail)
        #expect(tracks.files.isEmpty, "one point is no line yet")
        trail.record(fix(46.001, 7), time: 1)
        tracks.follow(&trail)
        #expect(tracks.files.count == 1 && tracks.files[0].name == "Trail" && tracks.trailID == tracks.files[0].id)
        #expect(tracks.lastChange == nil, "the trail's first appearance draws every tile it touches")
        let revision = tracks.revision
        // 1200 more points northwards: sealed parts of 512 (sharing their ends), then the open one.
        for k in 2..<1202 { trail.record(fix(46 + Double(k) * 0.001, 7), time: Double(k)) }
        tracks.follow(&trail)
        let lines = tracks.files[0].lines
        #expect(lines.map(\.track.points.count) == [513, 513, 178])
        #expect(lines[0].track.points.latitude.last == lines[1].track.points.latitude.first)
        #expect(lines.reduce(0) { $0 + $1.track.points.count } - 2 == trail.count)
        let change = tracks.lastChange
        #expect(change?.from == revision && tracks.revision == revision + 1)
        // The region runs from the last point handed over before to the newest.
        let from = WebMercator.project(Coordinate(latitude: 46.001, longitude: 7))
        let to = WebMercator.project(Coordinate(latitude: 46 + 1201 * 0.001, longitude: 7))
        #expect(change.map { abs($0.region.minY - to.y) < 1e-9 && abs($0.region.maxY - from.y) < 1e-9 } == true, "\(String(describing: change))")
        // Tiles near the stretch are drawn again; one far away is not.
        let near = TileID(containing: Coordinate(latitude: 46.5, longitude: 7), zoom: 12)
        let far = TileID(containing: Coordinate(latitude: 46.5, longitude: 8), zoom: 12)
        #expect(change?.touches(near) == true && change?.touches(far) == false)
        // One more point: a small region, at the top only.
        trail.record(fix(46 + 1202 * 0.001, 7), time: 1202)
        tracks.follow(&trail)
        #expect(tracks.lastChange.map { $0.region.size.height < (tracks.files[0].bounds?.size.height ?? 0) / 500 } == true)
        #expect(tracks.files[0].lines.map(\.track.points.count) == [513, 513, 179])
    }

    @Test func anythingElseChangingDrawsEveryTile() {
        var trail = Trail()
        var tracks = TracksLayer()
        trail.record(fix(46, 7), time: 0)
        trail.record(fix(46.001, 7), time: 1)
        tracks.follow(&trail)
        trail.record(fix(46.002, 7), time: 2)
        tracks.follow(&trail)
        #expect(tracks.lastChange != nil)
        tracks.setHidden(true, at: 0)
        #expect(tracks.lastChange == nil)
    }

    @Test func aRestoredTrailIsDrawnWholeAndGoesOnInANewSegment() {
        var old = Trail()
        for k in 0..<10 { old.record(fix(46 + Double(k) * 0.001, 7), time: Double(k)) }
        var trail = Trail(restoring: old.track)
        #expect(trail.pending == 10)
        trail.record(fix(47, 7), time: 100)
        trail.record(fix(47.001, 7), time: 101)
        #expect(trail.segments == [0..<10, 10..<12])
    }
}
