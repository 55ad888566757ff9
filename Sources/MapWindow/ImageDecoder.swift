import CImage
import CSDL2
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
            throw SDLError(message: tr("png picture of %@×%@ pixels", header.width, header.height))
        }
        var pixels = [UInt32](repeating: 0, count: header.width * header.height)
        var why = [CChar](repeating: 0, count: 128)
        let rc = data.withUnsafeBytes { bytes in
            pixels.withUnsafeMutableBufferPointer { mi_png_decode(bytes.baseAddress, bytes.count, $0.baseAddress, w, h, &why) }
        }
        // TRANSLATORS: %@ is the decoder's reason (libpng's, in English).
        guard rc == 0 else { throw SDLError(message: tr("not a decodable png picture (%@)", String(cBuffer: why))) }
        return Bitmap(width: header.width, height: header.height, pixels: pixels, premultiplied: false)
    }

    private static func decodeWithSDLImage(_ data: Data, _ header: ImageHeader, maxSide: Int) throws -> Bitmap {
        if let why = mi_sdl_image_load() { throw SDLError(message: String(cString: why)) }
        return try data.withUnsafeBytes { (buf: UnsafeRawBufferPointer) -> Bitmap in
            guard let base = buf.baseAddress, let count = Int32(exactly: buf.count), let rw = SDL_RWFromConstMem(base, count) else {
                throw SDLError(tr("cannot read image bytes"))
            }
            defer { SDL_RWclose(rw) }
            let surface = header.format == .jpeg ? mi_load_jpeg(rw) : mi_load_webp(rw)
            guard let loaded = surface?.assumingMemoryBound(to: SDL_Surface.self) else {
                // TRANSLATORS: %@ is the picture's format (jpeg, webp).
                throw SDLError(tr("not a decodable %@ picture", header.format.rawValue))
            }
            defer { SDL_FreeSurface(loaded) }
            // The decoder and the header reader agree on the size; were they ever not to, the
            // bound still holds for what was decoded.
            let w = Int(loaded.pointee.w), h = Int(loaded.pointee.h)
            guard w > 0, h > 0, w <= maxSide, h <= maxSide else {
                // TRANSLATORS: the picture's format (jpeg, webp), its width and height, then the largest width and height allowed.
                throw SDLError(message: tr("%@ picture decoded at %@×%@ pixels, more than %@×%@", header.format.rawValue, w, h, maxSide, maxSide))
            }
            guard let s = SDL_ConvertSurfaceFormat(loaded, SDL_PIXELFORMAT_ARGB8888.rawValue, 0) else {
                throw SDLError("image conversion")
            }
            defer { SDL_FreeSurface(s) }
            let pitch = Int(s.pointee.pitch)
            var pixels = [UInt32](repeating: 0, count: w * h)
            SDL_LockSurface(s)
            pixels.withUnsafeMutableBytes { dst in
                let src = s.pointee.pixels!
                for row in 0..<h { memcpy(dst.baseAddress! + row * w * 4, src + row * pitch, w * 4) }
            }
            SDL_UnlockSurface(s)
            return Bitmap(width: w, height: h, pixels: pixels, premultiplied: false)
        }
    }
}
