import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapGraphics
import MapTiles
import Platform

/// Turns any payload into pixels at a device pixel ratio, on a loader's worker thread:
/// Cairo for drawn tiles, SDL2_image for encoded rasters.
public enum TileRasterizer {
    /// Drawn tiles are this many pixels across at a pixel ratio.
    public static func tilePixels(pixelRatio: Double) -> Int { max(64, Int(saturating: (256 * pixelRatio).rounded())) }

    /// `order`: the channel order of the textures the tiles go into; `background`: the layer's
    /// colour, which tiles are laid over here so that they are opaque and drawn without blending
    /// (nil: an overlay's tiles, which keep their transparency); `overlays`: what layers paint
    /// over the map (tracks, shapes, a measured line), for the layer that carries them;
    /// `viewZoom`: the zoom the view rests at, where styled vector tiles are evaluated (nil:
    /// each at its own zoom, as while the view moves). `ancestorsScaled`: a tile the source
    /// has only as part of an ancestor (past a server's deepest zoom) is left to the
    /// compositor to draw from the ancestor's picture, scaled, rather than enlarged here: no
    /// decode, no quarter MiB per tile (unless drawings are painted into it). `lightBearing`:
    /// the bearing hillshading lit from the viewport is painted for.
    public static func decoder(pixelRatio: Double, painter: VectorTilePainter, order: Bitmap.ChannelOrder,
                               background: Color?, overlays: [any TileOverlay] = [], viewZoom: Double? = nil,
                               lightBearing: Double = 0, ancestorsScaled: Bool = false) -> TileDecoder {
        let pixels = tilePixels(pixelRatio: pixelRatio)
        let under = background.map { UInt32(Color.byte($0.r)) << 16 | UInt32(Color.byte($0.g)) << 8 | UInt32(Color.byte($0.b)) }
        return { tile, payload in
            var decoded: DecodedTile
            switch payload {
            case let .debugGrid(id): decoded = DecodedTile(bitmap: try DebugTilePainter.paint(id, pixelSize: pixels))
            case let .encodedImage(data): decoded = DecodedTile(bitmap: try ImageDecoder.decode(data))
            case let .encodedImageRegion(_, ancestor) where ancestorsScaled && !overlays.contains(where: { $0.touches(tile) }):
                return .part(of: ancestor)
            case let .encodedImageRegion(data, ancestor):
                var image = try ImageDecoder.decode(data)
                // (An overlay's stays transparent: the enlarger premultiplies it for Cairo.)
                if let under { image.flatten(over: under) }
                decoded = DecodedTile(bitmap: try RasterEnlarger.enlarge(image, of: ancestor, to: tile, pixels: pixels))
            case let .vector(data, dataTile): decoded = try painter.paint(tile, data: data, dataTile: dataTile, pixelSize: pixels, viewZoom: viewZoom)
            case let .styled(data, dataTile, pictures):
                decoded = try painter.paint(tile, data: data, dataTile: dataTile, pixelSize: pixels, viewZoom: viewZoom, lightBearing: lightBearing,
                                            pictures: pictures,
                                            decodeImage: { try ImageDecoder.decode($0) })
            case let .terrain(data, encoding, dataTile):
                decoded = DecodedTile(bitmap: try TerrainTilePainter.paint(data, encoding: encoding, of: dataTile, as: tile, pixels: pixels, bearing: lightBearing))
            case .drawings:
                decoded = DecodedTile(bitmap: Bitmap(width: pixels, height: pixels, pixels: Array(repeating: 0, count: pixels * pixels), premultiplied: true))
            }
            // Opaque and in the texture's order, here on the worker rather than on the frame;
            // the tile's places sorted and cut here too, so accepting a tile costs the frame
            // thread little more than its upload.
            // An overlay's pictures stay transparent, premultiplied as Cairo's are (a server's
            // PNG comes in straight alpha).
            if let under { decoded.bitmap.flatten(over: under) } else { decoded.bitmap.premultiply() }
            if overlays.contains(where: { $0.touches(tile) }) {
                // Cairo draws over the premultiplied pixels as they are (opaque ones are the
                // same either way), in its own channel order.
                decoded.bitmap.convert(to: .argb)
                TileOverlayPainters.paint(overlays, onto: &decoded.bitmap, tile: tile)
            }
            decoded.bitmap.convert(to: order)
            let keep = decoded.places.first?.isStyled == true ? TextureStore.styledLabelsPerTile : TextureStore.placesPerTile
            decoded.places = Array(decoded.places.sorted(by: PlaceLabel.morePrioritary).prefix(keep))
            return decoded
        }
    }
}
