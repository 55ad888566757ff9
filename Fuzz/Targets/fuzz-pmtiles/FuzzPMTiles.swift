import FoundationEssentials
import MapGeometry
import MapTiles

// Hostile bytes as a PMTiles archive, read as --tiles would read one (through memory instead
// of a file or a server): header, root and leaf directories, metadata, and a few tiles at
// zooms that hit the root, leaves and runs. Refusals are fine; traps and hangs are not.
func fuzzPMTiles(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Data(bytes: start, count: count)
    // A server's Content-Range header, as the HTTP range reader checks it.
    if let r = HTTPRangeReader.contentRange(String(decoding: bytes.prefix(200), as: UTF8.self)) {
        precondition(r.first <= r.last && r.total.map { r.last < $0 } ?? true, "an inverted range was accepted")
    }
    let reader = DataRangeReader(bytes)
    guard let archive = try? PMTilesArchive(reader: reader, name: "fuzz.pmtiles") else { return 0 }
    let source = try? PMTilesSource(archive: archive, name: "pmtiles:fuzz")
    for tile in [TileID(z: 0, x: 0, y: 0), TileID(z: 1, x: 1, y: 0), TileID(z: 2, x: 3, y: 1), TileID(z: 3, x: 5, y: 2),
                 TileID(z: 14, x: 9326, y: 4739), TileID(z: 22, x: 4_194_303, y: 0)] {
        if let data = try? archive.tileData(tile) { precondition(data.count <= PMTilesArchive.maxTileBytes, "a tile beyond the bound") }
        _ = try? source?.payload(for: tile)
    }
    for id: UInt64 in [0, 5, 20, 1 << 40, .max] { _ = try? archive.locate(id) }
    return 0
}
