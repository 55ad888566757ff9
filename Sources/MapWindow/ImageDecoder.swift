import CSDL2
import CSDL2Image
import FoundationEssentials
import Glibc
import MapTiles

/// Decodes PNG, JPEG and WebP with SDL2_image into ARGB bitmaps. Thread-safe for distinct data.
///
/// The picture's header is read first (`ImageHeader`): a picture larger than `maxSide` a side
/// is refused before SDL2_image allocates the surface its header declares, and the format the
/// header names picks the one loader that decodes it, so no other of SDL2_image's loaders
/// (TIFF, SVG, XCF…) ever sees the bytes of a tile.
public enum ImageDecoder {
    public static func decode(_ data: Data, maxSide: Int = ImageHeader.maxTileSide) throws -> Bitmap {
        let header = try ImageHeader(data, maxSide: maxSide)
        if header.format == .png { try ImageHeader.checkPNGChunks(data) }
        return try data.withUnsafeBytes { (buf: UnsafeRawBufferPointer) -> Bitmap in
            guard let base = buf.baseAddress, let count = Int32(exactly: buf.count), let rw = SDL_RWFromConstMem(base, count) else {
                throw SDLError("cannot read image bytes")
            }
            defer { SDL_RWclose(rw) }
            let surface: UnsafeMutablePointer<SDL_Surface>? = switch header.format {
            case .png: IMG_LoadPNG_RW(rw)
            case .jpeg: IMG_LoadJPG_RW(rw)
            case .webp: IMG_LoadWEBP_RW(rw)
            }
            guard let loaded = surface else { throw SDLError("not a decodable \(header.format.rawValue) picture") }
            defer { SDL_FreeSurface(loaded) }
            // The decoder and the header reader agree on the size; were they ever not to, the
            // bound still holds for what was decoded.
            let w = Int(loaded.pointee.w), h = Int(loaded.pointee.h)
            guard w > 0, h > 0, w <= maxSide, h <= maxSide else {
                throw SDLError(message: "\(header.format.rawValue) picture decoded at \(w)×\(h) pixels, more than \(maxSide)×\(maxSide)")
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
