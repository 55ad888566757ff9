import FoundationEssentials
import MapRender
import MapTiles

// A tile's picture as a server or an .mbtiles hands it over: the header read first, then the
// decoder it picks, bounded to a tile's size (a bomb must be refused, never allocated).
func fuzzImage(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    _ = try? ImageHeader(data)
    if let bitmap = try? ImageDecoder.decode(data, maxSide: 512) {
        precondition(bitmap.width <= 512 && bitmap.height <= 512 && bitmap.pixels.count == bitmap.width * bitmap.height)
    }
    return 0
}
