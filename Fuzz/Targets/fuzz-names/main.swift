import FoundationEssentials
import MapCore
import MapGeometry
import MapTiles

// A street map's tile as the search index reads it: gzip-wrapped or not, decoded, its names
// read (TileNames) at a deep zoom, then made into rows (streets merged, house numbers joined,
// districts found); and the bytes read as a stored street line, as a damaged index file would be.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNames(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var data = Data(bytes: start, count: count)
    if Gzip.isCompressed(data) {
        guard let inflated = try? Gzip.decompress(data, limit: 1 << 20) else { return 0 }
        data = inflated
    }
    // The same bytes as a stored street line (a damaged index file's), read back.
    for piece in LineCoding.decode(data) { precondition(piece.count >= 2 && piece.allSatisfy(\.isValid), "a line read back that is none") }
    guard let tile = try? MVTDecoder.decode(data) else { return 0 }
    var rows: [NameFeature] = []
    for id in [TileID(z: 14, x: 9327, y: 4742), TileID(z: 0, x: 0, y: 0), TileID(z: 20, x: 1_048_575, y: 0)] {
        let names = TileNames(tile, tile: id)
        rows += NameFeatures.make(segments: names.segments, points: names.points, numbers: names.houseNumbers)
    }
    for row in rows {
        precondition(row.coordinate.isValid, "a row outside the world")
        _ = SearchText.key(row.names.name)
        _ = SearchRanking.detail(SearchResult(name: row.names.name, category: row.category, what: row.what, area: row.area,
                                              coordinate: row.coordinate, origin: .offline("fuzz")),
                                 from: Coordinate(latitude: 60, longitude: 25), imperial: false)
    }
    return 0
}
