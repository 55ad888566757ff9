import MapCore
import MapGeometry
@testable import MapSearch
import Testing

/// Coordinates as people type and paste them: decimal, DMS, geo: URIs and OpenStreetMap
/// links; a place name is not coordinates; wrong coordinates say why.
struct CoordinateParserTests {
    static let good: [(String, Double, Double, Double?)] = [
        ("48.8566, 2.3522", 48.8566, 2.3522, nil),
        ("48.8566 2.3522", 48.8566, 2.3522, nil),
        ("48.8566,2.3522", 48.8566, 2.3522, nil),
        ("-33.8688, 151.2093", -33.8688, 151.2093, nil),
        ("−33.8688, 151.2093", -33.8688, 151.2093, nil),
        ("48.8566 N 2.3522 E", 48.8566, 2.3522, nil),
        ("48.8566N, 2.3522E", 48.8566, 2.3522, nil),
        ("N 48.8566 E 2.3522", 48.8566, 2.3522, nil),
        ("33.8688 S 151.2093 E", -33.8688, 151.2093, nil),
        ("40.7128 n 74.0060 w", 40.7128, -74.006, nil),
        ("2.3522 E 48.8566 N", 48.8566, 2.3522, nil),
        ("48°51′24″N 2°21′8″E", 48 + 51 / 60.0 + 24 / 3600.0, 2 + 21 / 60.0 + 8 / 3600.0, nil),
        ("48°51'24\"N 2°21'8\"E", 48 + 51 / 60.0 + 24 / 3600.0, 2 + 21 / 60.0 + 8 / 3600.0, nil),
        ("48d51m24sN 2d21m8sE", 48 + 51 / 60.0 + 24 / 3600.0, 2 + 21 / 60.0 + 8 / 3600.0, nil),
        ("48 51 24 N 2 21 8 E", 48 + 51 / 60.0 + 24 / 3600.0, 2 + 21 / 60.0 + 8 / 3600.0, nil),
        ("48°51.4′N 2°21.13′E", 48 + 51.4 / 60, 2 + 21.13 / 60, nil),
        ("-48°51′24″, 2°21′8″", -(48 + 51 / 60.0 + 24 / 3600.0), 2 + 21 / 60.0 + 8 / 3600.0, nil),
        ("geo:48.85,2.35", 48.85, 2.35, nil),
        ("geo:48.85,2.35?z=12", 48.85, 2.35, 12),
        ("GEO:48.85,2.35,100;crs=wgs84;u=30?z=40", 48.85, 2.35, 19),
        ("https://www.openstreetmap.org/#map=12/48.8566/2.3522", 48.8566, 2.3522, 12),
        ("https://www.openstreetmap.org/?mlat=47.37&mlon=8.54#map=13/47.37/8.54", 47.37, 8.54, 13),
        ("openstreetmap.org/?mlat=47.37&mlon=8.54", 47.37, 8.54, nil),
    ]

    @Test(arguments: good)
    func coordinatesAreRead(_ text: String, _ lat: Double, _ lon: Double, _ zoom: Double?) throws {
        let place = try #require(try CoordinateParser.parse(text)?.get())
        #expect(abs(place.coordinate.latitude - lat) < 1e-9 && abs(place.coordinate.longitude - lon) < 1e-9, "\(place)")
        #expect(place.zoom == zoom)
    }

    @Test func theUncertaintyOfAGeoLinkIsKept() throws {
        #expect(try CoordinateParser.parse("geo:1,2;u=35")?.get().uncertainty == 35)
    }

    static let bad: [(String, String)] = [
        ("95, 2", "Latitude 95 is beyond ±90°"),
        ("48, 200", "Longitude 200 is beyond ±180°"),
        ("48°61′N 2°E", "Minutes must be under 60"),
        ("48°51′61″N 2°E", "Seconds must be under 60"),
        ("48.5°51′N 2°E", "Degrees before minutes must be whole"),
        ("48 N 2 N", "Two latitudes"),
        ("2 E 3 W", "Two longitudes"),
        ("-48 S, 2", "A minus sign and S together"),
        ("48.85", "Give two coordinates"),
        ("1, 2, 3", "Give two coordinates"),
        ("48 51 24 2 21 8", "Separate latitude and longitude"),
        ("48.85, 2.35 km", "Not coordinates"),
        ("geo:48.85", "geo:LATITUDE,LONGITUDE"),
        ("geo:1,2;crs=epsg:3857", "Only WGS 84"),
        ("geo:1,2;u=-3", "u= is not a distance"),
        ("https://www.openstreetmap.org/#map=12/48.8566", "ZOOM/LATITUDE/LONGITUDE"),
        ("https://www.openstreetmap.org/about", "names no place"),
    ]

    @Test(arguments: bad)
    func wrongCoordinatesSayWhy(_ text: String, _ said: String) throws {
        let result = try #require(CoordinateParser.parse(text), "\(text) was taken for a place name")
        guard case let .failure(problem) = result else { Issue.record("\(text) was read as \(result)"); return }
        #expect(problem.description.contains(said), "\(text): \(problem)")
    }

    @Test(arguments: ["Zürich", "sao paulo", "New York", "St. Gallen", "", "   ", "https://example.com/x", "Nantes"])
    func placeNamesAreNotCoordinates(_ text: String) {
        #expect(CoordinateParser.parse(text) == nil)
    }
}
