import FoundationEssentials
import MapCore
import MapGraphics
import MapTiles
import Platform

// Hostile bytes as a style's sprite sheet: the index (what a style's sprite URL or file
// names) over a picture whose header is the input's tail, or a 512×512 PNG. A refusal is
// fine; a trap, or an icon outside the picture or larger than 256 points, is a bug.
func fuzzSprites(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Data(bytes: start, count: count)
    let cut = bytes.firstIndex(of: 0) ?? bytes.endIndex
    let index = bytes[..<cut], tail = bytes[cut...].dropFirst()
    let header = (try? ImageHeader(Data(tail), maxSide: IconPainter.maxSheetSide)) ?? ImageHeader(format: .png, width: 512, height: 512)
    guard let sheet = try? SpriteSheet(index: Data(index), named: "fuzz.json", picture: "fuzz.png", header: header) else { return 0 }
    precondition(sheet.count <= 20_000, "more icons than the index may hold")
    guard case let .object(entries)? = try? JSONValue.parse(Data(index)) else { return 0 }
    for name in entries.keys.prefix(64) {
        for scale in [0.0, 0.5, 1, 3, 1e300, -1, .nan, .infinity] {
            guard let icon = sheet.icon(name, scale: scale) else { continue }
            precondition(icon.x + icon.width <= header.width && icon.y + icon.height <= header.height, "an icon outside the picture")
            let size = icon.size
            precondition(size.width.isFinite && size.height.isFinite && size.width <= 256.001 && size.height <= 256.001, "an icon of \(size)")
        }
    }
    return 0
}
