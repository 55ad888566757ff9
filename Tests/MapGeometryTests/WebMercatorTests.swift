import Foundation
import MapGeometry
import Testing
import TestSupport

struct WebMercatorTests {
    @Test("Known tiles hold known places", arguments: [
        // (lat, lon, zoom, x, y): tile numbers as every slippy map computes them.
        (48.8566, 2.3522, 10, 518, 352),      // Paris
        (51.5074, -0.1278, 10, 511, 340),     // London
        (40.7128, -74.0060, 12, 1205, 1540),  // New York
        (-33.8688, 151.2093, 8, 235, 153),    // Sydney
        (35.6762, 139.6503, 0, 0, 0),         // Tokyo, the whole world
        (0.0, 0.0, 1, 1, 1),                  // Null Island sits at the corner of four z1 tiles
        (85.0511, -180.0, 5, 0, 0),           // the north-west corner
        (-85.0511, 179.9999, 5, 31, 31),      // the south-east corner
    ])
    func tileContaining(lat: Double, lon: Double, z: Int, x: Int, y: Int) {
        #expect(TileID(containing: Coordinate(latitude: lat, longitude: lon), zoom: z) == TileID(z: z, x: x, y: y))
    }

    @Test func projectionCornersAndCentre() {
        let c = WebMercator.project(Coordinate(latitude: 0, longitude: 0))
        #expect(abs(c.x - 128) < 1e-12 && abs(c.y - 128) < 1e-12)
        let nw = WebMercator.project(Coordinate(latitude: Coordinate.maxMercatorLatitude, longitude: -180))
        #expect(abs(nw.x) < 1e-9 && abs(nw.y) < 1e-9)
        // Beyond ±85.0511° latitude is clamped to the edge of the square world.
        let pole = WebMercator.project(Coordinate(latitude: 90, longitude: 0))
        #expect(abs(pole.y) < 1e-9)
    }

    @Test func coordinatesRoundTrip() {
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<10_000 {
            let c = Coordinate(latitude: Double.random(in: -85.05...85.05, using: &rng),
                               longitude: Double.random(in: -180..<180, using: &rng))
            let back = WebMercator.unproject(WebMercator.project(c))
            #expect(abs(back.latitude - c.latitude) < 1e-9)
            #expect(abs(back.longitude - c.longitude) < 1e-9)
        }
    }

    @Test("Meters per map point follow the cosine law", arguments: [0.0, 30, 45, 60, 75, -45])
    func metersPerPoint(lat: Double) {
        let equator = WebMercator.metersPerMapPoint(atLatitude: 0)
        #expect(abs(equator - 40_075_016.685578 / 256) < 1e-6)
        #expect(abs(WebMercator.metersPerMapPoint(atLatitude: lat) - equator * cos(lat * .pi / 180)) < 1e-9)
        // And numerically: a small step north covers as many meters as the formula says.
        let p = WebMercator.project(Coordinate(latitude: lat, longitude: 0))
        let q = WebMercator.project(Coordinate(latitude: lat + 0.0001, longitude: 0))
        let meters = 0.0001 * .pi / 180 * WebMercator.earthRadius
        #expect(abs(meters / abs(q.y - p.y) / WebMercator.metersPerMapPoint(atLatitude: lat) - 1) < 1e-4)
    }

    @Test func regionsRoundTripThroughRects() {
        let region = CoordinateRegion(center: Coordinate(latitude: 46, longitude: 8), latitudeDelta: 4, longitudeDelta: 6)
        let rect = WebMercator.mapRect(for: region)
        let back = WebMercator.region(for: rect)
        #expect(abs(back.longitudeDelta - 6) < 1e-9)
        #expect(abs(back.latitudeDelta - 4) < 1e-9)
        #expect(abs(back.center.longitude - 8) < 1e-9)
        // Mercator stretches the north: the rect's centre is north of the region's mid-latitude.
        #expect(back.center.latitude > 46 && back.center.latitude < 46.2)
    }

    @Test func longitudesWrap() {
        #expect(Coordinate.wrapLongitude(190) == -170)
        #expect(Coordinate.wrapLongitude(-190) == 170)
        #expect(Coordinate.wrapLongitude(180) == -180)
        #expect(WebMercator.wrapX(-1) == 255)
        #expect(TileID(z: 2, x: 4, y: 1).wrapped == TileID(z: 2, x: 0, y: 1))
        #expect(TileID(z: 2, x: -1, y: 1).wrapped == TileID(z: 2, x: 3, y: 1))
    }

    @Test func parsingCoordinates() {
        #expect(Coordinate(parsing: "48.85, 2.35") == Coordinate(latitude: 48.85, longitude: 2.35))
        #expect(Coordinate(parsing: "-33.9,18.4") == Coordinate(latitude: -33.9, longitude: 18.4))
        #expect(Coordinate(parsing: "91,0") == nil)
        #expect(Coordinate(parsing: "1,2,3") == nil)
        #expect(Coordinate(parsing: "north,east") == nil)
        #expect(Coordinate(parsing: "nan,0") == nil)
        #expect(Coordinate(parsing: " 1\t,2\n") == Coordinate(latitude: 1, longitude: 2))
    }

    /// What a coordinate prints is what parsing it reads back, to about 10 cm.
    @Test func printingCoordinates() {
        #expect(Coordinate(latitude: 48.85, longitude: -2.35).description == "48.850000,-2.350000")
        #expect(Coordinate(latitude: -0.0000004, longitude: 179.9999996).description == "-0.000000,180.000000")
        #expect(Coordinate(latitude: 1e300, longitude: 0).description.count == 301 + 7 + 9)
    }
}
