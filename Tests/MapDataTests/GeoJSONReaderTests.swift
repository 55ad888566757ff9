import Foundation
@testable import MapData
import MapCore
import MapGeometry
import Testing

struct GeoJSONReaderTests {
    func read(_ text: String) throws -> GeoDocument { try GeoJSONReader(file: "s.geojson").read(Data(text.utf8)) }

    @Test func everyGeometryWithItsStyle() throws {
        let doc = try read("""
        {"type":"FeatureCollection","features":[
          {"type":"Feature","properties":{"name":"Ridge","stroke":"#f00","stroke-width":3},
           "geometry":{"type":"LineString","coordinates":[[7,46,1000],[7.1,46.1]]}},
          {"type":"Feature","properties":{"name":"Lake","fill":"#0000ff","fill-opacity":0.25,"stroke":"#000080"},
           "geometry":{"type":"Polygon","coordinates":[
             [[0,0],[10,0],[10,10],[0,10],[0,0]],
             [[2,2],[2,4],[4,4],[2,2]]]}},
          {"type":"Feature","properties":{"title":"Hut"},"geometry":{"type":"Point","coordinates":[7.2,46.2,2100]}},
          {"type":"Feature","properties":{},"geometry":null},
          {"type":"Feature","properties":{},"geometry":{"type":"GeometryCollection","geometries":[
             {"type":"MultiLineString","coordinates":[[[1,1],[2,2]],[[3,3],[4,4],[5,5]]]},
             {"type":"MultiPolygon","coordinates":[[[[20,20],[21,20],[21,21],[20,20]]]]},
             {"type":"MultiPoint","coordinates":[[1,2],[3,4]]}]}}
        ]}
        """)
        #expect(doc.problems.isEmpty, "\(doc.problems)")
        #expect(doc.tracks.count == 2)
        let ridge = doc.tracks[0]
        #expect(ridge.name == "Ridge" && ridge.color == Color(hex: 0xFF0000) && ridge.width == 3)
        #expect(ridge.points.latitude == [46, 46.1] && ridge.points.longitude == [7, 7.1])
        #expect(ridge.points.elevation[0] == 1000 && ridge.points.elevation[1].isNaN)
        #expect(doc.tracks[1].segments == [0..<2, 2..<5])
        #expect(doc.areas.count == 2)
        let lake = doc.areas[0]
        #expect(lake.name == "Lake" && lake.rings.count == 2 && lake.rings[1].count == 4)
        #expect(lake.fill == Color(hex: 0x0000FF, alpha: 0.25) && lake.stroke == Color(hex: 0x000080))
        #expect(doc.waypoints.map(\.name) == ["Hut", nil, nil])
        #expect(doc.waypoints[0].elevation == 2100)
    }

    @Test func badGeometriesAreSkippedByTheirPath() throws {
        let doc = try read("""
        {"type":"FeatureCollection","features":[
          {"type":"Feature","geometry":{"type":"LineString","coordinates":[[7,46]]}},
          {"type":"Feature","geometry":{"type":"Point","coordinates":[200,10]}},
          {"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,1],[0,0]]]}},
          {"type":"Feature","geometry":{"type":"Circle","coordinates":[0,0]}},
          {"type":"Feature","geometry":{"type":"Point","coordinates":[8,47]}}
        ]}
        """)
        #expect(doc.waypoints.count == 1)
        let reasons = doc.problems.map(\.reason)
        #expect(reasons.count == 4, "\(reasons)")
        #expect(reasons[0].hasPrefix("features[0].geometry.coordinates: not a line"))
        #expect(reasons[1].hasPrefix("features[1].geometry.coordinates: coordinates out of range"))
        #expect(reasons[2].hasPrefix("features[2].geometry.coordinates: a ring"))
        #expect(reasons[3].hasPrefix("features[3].geometry: unknown type \"Circle\""))
    }

    @Test func deepNestingIsRefusedNotRecursedForever() throws {
        let deep = String(repeating: "{\"type\":\"GeometryCollection\",\"geometries\":[", count: 40) + String(repeating: "]}", count: 40)
        let doc = try read(deep)
        #expect(doc.problems.contains { $0.reason.contains("nested deeper") })
    }
}
