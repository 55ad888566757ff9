import FoundationEssentials
import Glibc
import MapGeometry
import MapTiles
import Platform

// A whole .mbtiles file (SQLite database) as --tiles would open it: metadata, zoom range,
// and the payload of a few tiles.
func fuzzMBTiles(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let path = "/tmp/meridian-fuzz-\(getpid()).mbtiles"
    guard FileIO.writeBytes(UnsafeRawBufferPointer(start: start, count: count), to: path) else { return 0 }
    defer { unlink(path) }
    guard let source = try? MBTilesSource(path: path) else { return 0 }
    for tile in [TileID(z: 0, x: 0, y: 0), TileID(z: 1, x: 1, y: 0), TileID(z: 14, x: 8000, y: 5000)] {
        if case let .vector(bytes, dataTile)? = try? source.payload(for: tile), let t = try? MVTDecoder.decode(bytes) {
            _ = t.places(in: tile, dataTile: dataTile)
        }
    }
    return 0
}
