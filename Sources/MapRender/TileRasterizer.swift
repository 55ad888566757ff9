import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import MapGraphics
import MapTiles
import Platform

/// Turns any payload into a texture's pixels at a device pixel ratio, on a loader's worker
/// thread: painted as `TilePainting` says (as a page paints it), then put in the texture's
/// channel order with its places sorted.
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
        let painting = TilePainting(painter: painter, overlays: overlays, viewZoom: viewZoom, lightBearing: lightBearing)
        return { tile, payload in
            if case let .encodedImageRegion(_, ancestor) = payload, ancestorsScaled, !painting.paintsOver(tile) { return .part(of: ancestor) }
            var decoded = try painting.pixels(tile, payload, size: pixels, background: background)
            // In the texture's order, here on the worker rather than on the frame; the tile's
            // places sorted and cut here too, so accepting a tile costs the frame thread
            // little more than its upload.
            decoded.bitmap.convert(to: order)
            let keep = decoded.places.first?.isStyled == true ? TextureStore.styledLabelsPerTile : TextureStore.placesPerTile
            decoded.places = Array(decoded.places.sorted(by: PlaceLabel.morePrioritary).prefix(keep))
            return decoded
        }
    }
}
