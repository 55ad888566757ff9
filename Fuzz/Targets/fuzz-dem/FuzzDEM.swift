import FoundationEssentials
import MapGeometry
import MapTiles

// Hostile bytes as a DEM tile: as a PNG (what a raster-dem server sends), and as pixels of a
// small square tile in either encoding, shaded and traced for contours as a hillshade layer
// would. A refusal is fine; a trap, a hang, a NaN in the shading or a contour point off the
// tile is a bug.
func fuzzDEM(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Data(bytes: start, count: count)
    if let dem = try? DEMTile(png: bytes, encoding: bytes.count % 2 == 0 ? .terrarium : .mapbox) {
        precondition(dem.heights.count == dem.size * dem.size && dem.heights.allSatisfy(\.isFinite), "a DEM with holes")
        if dem.size <= 64 { check(dem, bytes) }
    }
    // The bytes as the pixels of a tile up to 32 a side (the first byte says the side).
    guard let first = bytes.first else { return 0 }
    let side = Int(first % 32) + 1
    var rgba = [UInt8](bytes.dropFirst().prefix(side * side * 4))
    rgba += [UInt8](repeating: 255, count: side * side * 4 - rgba.count)
    for encoding in DEMTile.Encoding.allCases {
        guard let dem = try? DEMTile(rgba: rgba, width: side, height: side, encoding: encoding) else { continue }
        check(dem, bytes)
    }
    return 0
}

private func check(_ dem: DEMTile, _ bytes: Data) {
    var look = HillshadeLook()
    look.exaggeration = Double(bytes.last ?? 128) / 200
    look.illuminationDirection = Double(bytes.first ?? 0) * 3
    let z = Int(bytes.count % 23)
    let shaded = Hillshade.shade(dem, tile: TileID(z: z, x: (1 << z) / 3, y: (1 << z) / 2), look: look, bearing: Double(bytes.count))
    precondition(shaded.pixels.count == dem.size * dem.size, "a shaded tile of another size")
    let interval = [0.5, 10, 100, 1000][Int(bytes.count % 4)]
    for line in Contours.lines(dem, interval: interval) {
        precondition(line.points.count >= 2 && line.level.isFinite, "a line that is not one")
        for p in line.points {
            precondition(p.x >= 0.5 && p.x <= Double(dem.size) - 0.5 && p.y >= 0.5 && p.y <= Double(dem.size) - 0.5, "a contour off the tile")
        }
    }
}
