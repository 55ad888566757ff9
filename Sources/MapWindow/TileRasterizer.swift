import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapGraphics
import MapTiles

/// Turns any payload into pixels at a device pixel ratio, on a loader's worker thread:
/// Cairo for drawn tiles, SDL2_image for encoded rasters.
public enum TileRasterizer {
    /// Drawn tiles are this many pixels across at a pixel ratio.
    public static func tilePixels(pixelRatio: Double) -> Int { max(64, Int((256 * pixelRatio).rounded())) }

    /// `order`: the channel order of the textures the tiles go into.
    public static func decoder(pixelRatio: Double, painter: VectorTilePainter, order: Bitmap.ChannelOrder) -> TileDecoder {
        let pixels = tilePixels(pixelRatio: pixelRatio)
        return { tile, payload in
            var decoded: DecodedTile
            switch payload {
            case let .debugGrid(id): decoded = DecodedTile(bitmap: try DebugTilePainter.paint(id, pixelSize: pixels))
            case let .encodedImage(data): decoded = DecodedTile(bitmap: try ImageDecoder.decode(data))
            case let .vector(data, dataTile): decoded = try painter.paint(tile, data: data, dataTile: dataTile, pixelSize: pixels)
            }
            // Straight alpha for SDL, converted here on the worker rather than on the frame;
            // the tile's places sorted and cut here too, so accepting a tile costs the frame
            // thread little more than its upload.
            decoded.bitmap.unpremultiply()
            decoded.bitmap.convert(to: order)
            decoded.places = Array(decoded.places.sorted {
                PlaceLabel.precedes(rank: PlaceLabel.rank(population: $0.population, capital: $0.capital), $0.point,
                                    rank: PlaceLabel.rank(population: $1.population, capital: $1.capital), $1.point)
            }.prefix(TextureStore.placesPerTile))
            return decoded
        }
    }
}
