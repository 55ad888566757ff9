import FoundationEssentials
import MapCore
import MapGeometry
import MapSearch
import MapTiles

// A street map's tile as the search index reads it: gzip-wrapped or not, decoded, its names
// read (TileNames) at a deep zoom, staged and made into rows as the index builder does (house
// numbers joined, streets merged, districts found); and the bytes read as a stored street
// line, as a damaged index file would be.
func fuzzNames(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var data = Data(bytes: start, count: count)
    if Gzip.isCompressed(data) {
        guard let inflated = try? Gzip.decompress(data, limit: 1 << 20) else { return 0 }
        data = inflated
    }
    // The same bytes as a stored street line (a damaged index file's), read back.
    for piece in LineCoding.decode(data) { precondition(piece.count >= 2 && piece.allSatisfy(\.isValid), "a line read back that is none") }
    guard let tile = try? MVTDecoder.decode(data) else { return 0 }
    for id in [TileID(z: 14, x: 9327, y: 4742), TileID(z: 0, x: 0, y: 0), TileID(z: 20, x: 1_048_575, y: 0)] {
        // As the builder makes rows: staged, the pieces merged, each row given its district.
        let (segments, points) = NameFeatures.staged(TileNames(tile, tile: id))
        let areas = AreaFinder(points)
        let rows = NameFeatures.mergeStreets(segments).map { ($0.names.name, $0.category, $0.what, $0.coordinate) }
            + points.map { ($0.names.name, $0.category, $0.what, $0.coordinate) }
        for (name, category, what, coordinate) in rows {
            precondition(coordinate.isValid, "a row outside the world")
            _ = SearchText.key(name)
            let area = areas.area(of: coordinate, except: name, townOnly: category <= .neighbourhood)
            _ = SearchRanking.detail(SearchResult(name: name, category: category, what: what, area: area, coordinate: coordinate, origin: .offline("fuzz")),
                                     from: Coordinate(latitude: 60, longitude: 25), imperial: false)
        }
    }
    return 0
}
