import CImage
import FoundationEssentials
import Glibc
import MapTiles
import Platform

/// Decodes PNG (libpng), JPEG and WebP (SDL2_image, loaded the first time one comes) into ARGB
/// bitmaps. Thread-safe for distinct data.
///
/// The picture's header is read first (`ImageHeader`): a picture larger than `maxSide` a side
/// is refused before any decoder allocates what its header declares, and the format the header
/// names picks the one decoder that reads it, so no other of SDL2_image's loaders (TIFF, SVG,
/// XCF…) ever sees the bytes of a tile.
public enum ImageDecoder {
    public static func decode(_ data: Data, maxSide: Int = ImageHeader.maxTileSide) throws -> Bitmap {
        let header = try ImageHeader(data, maxSide: maxSide)
        guard header.format == .png else { return try decodeWithSDLImage(data, header, maxSide: maxSide) }
        try ImageHeader.checkPNGChunks(data)
        guard let w = UInt32(exactly: header.width), let h = UInt32(exactly: header.height), w > 0, h > 0 else {
            // TRANSLATORS: a picture whose width or height is nothing.
            throw RenderError(tr("png picture of %@×%@ pixels", header.width, header.height))
        }
        var pixels = [UInt32](repeating: 0, count: header.width * header.height)
        var why = [CChar](repeating: 0, count: 128)
        let rc = data.withUnsafeBytes { bytes in
            pixels.withUnsafeMutableBufferPointer { mi_png_decode(bytes.baseAddress, bytes.count, $0.baseAddress, w, h, &why) }
        }
        // TRANSLATORS: %@ is the decoder's reason (libpng's, in English).
        guard rc == 0 else { throw RenderError(tr("not a decodable png picture (%@)", String(cBuffer: why))) }
        return Bitmap(width: header.width, height: header.height, pixels: pixels, premultiplied: false)
    }

    private static func decodeWithSDLImage(_ data: Data, _ header: ImageHeader, maxSide: Int) throws -> Bitmap {
        if let why = mi_sdl_image_load() { throw RenderError(String(cString: why)) }
        var w: Int32 = 0, h: Int32 = 0, failure: Int32 = 0
        var why = [CChar](repeating: 0, count: 128)
        let picture = data.withUnsafeBytes { buf in
            mi_sdl_image_decode(buf.baseAddress, buf.count, header.format == .jpeg ? 1 : 0, Int32(clamping: maxSide), &w, &h, &failure, &why)
        }
        guard let picture else {
            // SDL's reason follows what went wrong.
            let reason = String(cBuffer: why)
            switch failure {
            case Int32(MI_IMAGE_UNREADABLE): throw RenderError(tr("cannot read image bytes") + ": " + reason)
            case Int32(MI_IMAGE_TOO_LARGE):
                // TRANSLATORS: the picture's format (jpeg, webp), its width and height, then the largest width and height allowed.
                throw RenderError(tr("%@ picture decoded at %@×%@ pixels, more than %@×%@", header.format.rawValue, Int(w), Int(h), maxSide, maxSide))
            case Int32(MI_IMAGE_CONVERSION): throw RenderError("image conversion: " + reason)
            default:
                // TRANSLATORS: %@ is the picture's format (jpeg, webp).
                throw RenderError(tr("not a decodable %@ picture", header.format.rawValue) + ": " + reason)
            }
        }
        let width = Int(w), height = Int(h)
        var pixels = [UInt32](repeating: 0, count: width * height)
        pixels.withUnsafeMutableBufferPointer { mi_sdl_image_take(picture, $0.baseAddress) }
        return Bitmap(width: width, height: height, pixels: pixels, premultiplied: false)
    }
}
