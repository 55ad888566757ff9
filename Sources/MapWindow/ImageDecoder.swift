import CSDL2
import CSDL2Image
import FoundationEssentials
import Glibc
import MapTiles

/// Decodes PNG, JPEG and WebP with SDL2_image into ARGB bitmaps. Thread-safe for distinct data.
public enum ImageDecoder {
    public static func decode(_ data: Data) throws -> Bitmap {
        try data.withUnsafeBytes { (buf: UnsafeRawBufferPointer) -> Bitmap in
            guard let base = buf.baseAddress, let rw = SDL_RWFromConstMem(base, Int32(buf.count)) else {
                throw SDLError("cannot read image bytes")
            }
            guard let loaded = IMG_Load_RW(rw, 1) else { throw SDLError("not a decodable image") }
            defer { SDL_FreeSurface(loaded) }
            guard let s = SDL_ConvertSurfaceFormat(loaded, SDL_PIXELFORMAT_ARGB8888.rawValue, 0) else {
                throw SDLError("image conversion")
            }
            defer { SDL_FreeSurface(s) }
            let w = Int(s.pointee.w), h = Int(s.pointee.h), pitch = Int(s.pointee.pitch)
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
