import FoundationEssentials
import MapGeometry
import MapTiles

// Vector tile bytes as an .mbtiles file may hold them: gzip-wrapped or not, then decoded,
// then their places read as the label layer reads them.
func fuzzMVT(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var data = Data(bytes: start, count: count)
    if Gzip.isCompressed(data) {
        guard let inflated = try? Gzip.decompress(data, limit: 1 << 20) else { return 0 }
        data = inflated
    }
    guard let tile = try? MVTDecoder.decode(data) else { return 0 }
    let root = TileID(z: 0, x: 0, y: 0)
    _ = tile.places(in: root, dataTile: root)
    _ = tile.places(in: TileID(z: 3, x: 5, y: 2), dataTile: root)
    return 0
}
