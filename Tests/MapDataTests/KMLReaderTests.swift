import Foundation
@testable import MapData
import MapCore
import MapGeometry
import Testing

struct KMLReaderTests {
    func read(_ text: String) throws -> GeoDocument { try KMLReader(file: "k.kml").read(Data(text.utf8)) }

    @Test func placemarksWithSharedAndInlineStyles() throws {
        let doc = try read("""
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
        <Document>
          <Style id="red"><LineStyle><color>ff0000ff</color><width>3</width></LineStyle><PolyStyle><color>7fff0000</color></PolyStyle></Style>
          <Folder>
            <Placemark><name>Ridge</name><styleUrl>#red</styleUrl>
              <LineString><coordinates>
                7.0,46.0,1000 7.1,46.1,1100
                7.2,46.2
              </coordinates></LineString></Placemark>
            <Placemark><name>Lake</name><styleUrl>#red</styleUrl>
              <Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 10,0 10,10 0,10 0,0</coordinates></LinearRing></outerBoundaryIs>
                <innerBoundaryIs><LinearRing><coordinates>2,2 2,4 4,4 2,2</coordinates></LinearRing></innerBoundaryIs></Polygon></Placemark>
            <Placemark><name><![CDATA[Hut & view]]></name><Style><LineStyle><color>ff00ff00</color></LineStyle></Style>
              <MultiGeometry><Point><coordinates>7.25,46.5,2100</coordinates></Point>
                <LineString><coordinates>1,1 2,2</coordinates></LineString></MultiGeometry></Placemark>
            <Placemark><name>Ride</name><gx:Track>
              <when>2026-05-01T08:00:00Z</when><when>2026-05-01T08:00:10Z</when>
              <gx:coord>7.0 46.0 500</gx:coord><gx:coord>7.001 46.001 501</gx:coord></gx:Track></Placemark>
          </Folder>
        </Document></kml>
        """)
        #expect(doc.problems.isEmpty, "\(doc.problems)")
        #expect(doc.tracks.map(\.name) == ["Ridge", "Hut & view", "Ride"])
        let ridge = doc.tracks[0]
        #expect(ridge.color == Color(hex: 0xFF0000) && ridge.width == 3)
        #expect(ridge.points.latitude == [46, 46.1, 46.2] && ridge.points.elevation[1] == 1100 && ridge.points.elevation[2].isNaN)
        #expect(doc.tracks[1].color == Color(hex: 0x00FF00))
        let ride = doc.tracks[2]
        #expect(ride.points.time == [1_777_622_400, 1_777_622_410] && ride.points.longitude == [7.0, 7.001])
        #expect(doc.areas.count == 1 && doc.areas[0].rings.map(\.count) == [5, 4])
        #expect(doc.areas[0].fill == Color(r: 0, g: 0, b: 1, a: 127.0 / 255))
        #expect(doc.waypoints == [Waypoint(latitude: 46.5, longitude: 7.25, name: "Hut & view", elevation: 2100)])
    }

    @Test func badCoordinatesAreReportedWithTheirLine() throws {
        let doc = try read("<kml><Placemark><LineString><coordinates>1,2 x,3 4,5\n</coordinates></LineString></Placemark>\n<Placemark><Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 1,1 0,0</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></kml>")
        #expect(doc.tracks.first?.points.latitude == [2, 5])
        #expect(doc.problems.count == 2, "\(doc.problems)")
        #expect(doc.problems[0].reason.contains("1 coordinate(s)") && doc.problems[1].reason.contains("Polygon"))
        #expect(doc.problems.allSatisfy { $0.line != nil })
    }

    @Test("Refused", arguments: [
        ("<gpx/>", "not a KML document"),
        ("<?xml version=\"1.0\"?>\n<!DOCTYPE kml [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><kml>&x;</kml>", "DTD"),
        ("<kml><Placemark>", "not well-formed"),
    ])
    func refused(text: String, reason: String) {
        #expect { try read(text) } throws: { ($0 as? GeoFileError)?.reason.contains(reason) == true }
    }
}
