import FoundationEssentials
import Glibc
import MapNetwork
import MapTiles
import Platform

extension SpriteSheet {
    /// A sheet on the web (a style's `sprite` address): SPRITE@2x.json and its picture (else
    /// SPRITE.json and SPRITE.png), fetched through `client` and kept in `folder` as tiles are
    /// kept, so the icons are drawn offline too. Throws what went wrong with the last tried.
    public init(url base: String, client: HTTPClient, keptIn folder: String) throws {
        // The suffix goes before a query ("…/sprite?key=K" → "…/sprite@2x.json?key=K").
        let query = base.firstIndex(of: "?")
        func address(_ suffix: String) -> String {
            guard let query else { return base + suffix }
            return String(base[..<query]) + suffix + String(base[query...])
        }
        guard FileIO.makeDirectories(folder) == nil else { throw TileSourceError(tr("%@: cannot make the folder for a sprite sheet", folder)) }
        // TRANSLATORS: %@ is the sprite sheet's address (a style's picture of icons).
        var failure: Error = TileSourceError(tr("%@: no sprite sheet", base))
        for variant in ["@2x", ""] {
            do {
                let index = try KeptDocument.fetch(address(variant + ".json"), client: client, keptIn: "\(folder)/sprite\(variant).json.kept",
                                                   limit: 4 << 20, accept: "application/json") { data in
                    // TRANSLATORS: "an object of icons" is what the JSON must be.
                    guard case .object = try JSONValue.parse(data) else { throw TileSourceError(tr("not a sprite index (an object of icons)")) }
                }
                let picture = try KeptDocument.fetch(address(variant + ".png"), client: client, keptIn: "\(folder)/sprite\(variant).png.kept",
                                                     limit: 1 << 26, accept: "image/png") { data in
                    let header = try ImageHeader(data, maxSide: IconPainter.maxSheetSide)
                    // TRANSLATORS: %@ is the format the picture is in (jpeg, webp).
                    guard header.format == .png else { throw TileSourceError(tr("the sprite sheet is %@, not PNG", header.format.rawValue)) }
                }
                // A plain copy of the picture beside what is kept, for the icons to be cut from,
                // named by what the sheet holds: written once, never changed under a reader.
                // The index is read from the bytes at hand.
                let stem = "\(folder)/sheet-" + String(FNV1a.hash(String(decoding: index, as: UTF8.self) + "\(picture.count)"), radix: 16) + variant
                if (try? FileIO.read(stem + ".png", limit: 1 << 26)) != picture {
                    try AtomicFile.write(picture, to: URL(fileURLWithPath: stem + ".png"))
                }
                try self.init(index: index, named: address(variant + ".json"), picture: stem + ".png",
                              header: try ImageHeader(picture, maxSide: IconPainter.maxSheetSide))
                return
            } catch {
                failure = error
            }
        }
        throw failure
    }
}
