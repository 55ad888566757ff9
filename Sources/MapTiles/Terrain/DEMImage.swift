import FoundationEssentials
import Platform

/// The pixels of a DEM tile's PNG: 8-bit RGB or RGBA, not interlaced, as every terrain tile
/// set writes them. Read here rather than by the picture decoder, whose colour handling
/// (gamma, premultiplied alpha) would change the numbers the colours carry.
public struct DEMImage: Sendable {
    public let width: Int, height: Int
    /// R, G, B, A bytes, row by row.
    public let rgba: [UInt8]

    /// The largest side read: a DEM tile is 256 or 512 pixels.
    public static let maxSide = 4096

    public init(png: Data) throws {
        let b = [UInt8](png)
        guard b.count >= 8, b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            // TRANSLATORS: DEM: a digital elevation model (a picture of heights).
            throw DEMError(tr("the DEM tile is not a PNG"))
        }
        func u32(_ at: Int) -> Int { Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3]) }
        var at = 8
        var header: (w: Int, h: Int, depth: UInt8, colour: UInt8, interlace: UInt8)?
        var compressed = [UInt8]()
        while at + 8 <= b.count {
            let length = u32(at), kind = String(decoding: b[at + 4..<at + 8], as: UTF8.self)
            guard length <= b.count - at - 12 || (length <= b.count - at - 8 && kind == "IEND") else {
                // TRANSLATORS: %@ is the name of a PNG chunk (IDAT).
                throw DEMError(tr("the DEM tile's PNG is truncated (%@)", kind))
            }
            let data = at + 8
            switch kind {
            case "IHDR":
                guard length == 13 else { throw DEMError(tr("the DEM tile's PNG header is malformed")) }
                header = (u32(data), u32(data + 4), b[data + 8], b[data + 9], b[data + 12])
            case "IDAT":
                compressed += b[data..<data + length]
            case "IEND":
                at = b.count
                continue
            default: break
            }
            at = data + length + 4
        }
        guard let header else { throw DEMError(tr("the DEM tile's PNG has no header")) }
        guard header.w > 0, header.h > 0, header.w <= Self.maxSide, header.h <= Self.maxSide else {
            throw DEMError(tr("a DEM tile of %1$@×%2$@ pixels is not one", header.w, header.h))
        }
        guard header.depth == 8, header.colour == 2 || header.colour == 6, header.interlace == 0 else {
            // TRANSLATORS: %1$@ is a PNG's bit depth, %2$@ its colour type (numbers).
            throw DEMError(tr("DEM tiles are 8-bit RGB or RGBA PNGs, not interlaced; this one has depth %1$@, colour type %2$@", header.depth, header.colour))
        }
        let channels = header.colour == 6 ? 4 : 3, stride = header.w * channels
        let raw: [UInt8]
        do { raw = [UInt8](try Gzip.decompress(Data(compressed), limit: (stride + 1) * header.h)) } catch {
            throw DEMError(tr("the DEM tile's pixels cannot be read: %@", error))
        }
        guard raw.count == (stride + 1) * header.h else {
            // TRANSLATORS: %1$@ is a number of bytes, %2$@×%3$@ the tile's width and height in pixels.
            throw DEMError(tr("the DEM tile's pixels are short: %1$@ bytes for %2$@×%3$@", raw.count, header.w, header.h))
        }
        var out = [UInt8](repeating: 255, count: header.w * header.h * 4)
        var previous = [UInt8](repeating: 0, count: stride), line = previous
        for y in 0..<header.h {
            let start = y * (stride + 1), filter = raw[start]
            for x in 0..<stride {
                let v = raw[start + 1 + x]
                let a = x >= channels ? Int(line[x - channels]) : 0, up = Int(previous[x]), c = x >= channels ? Int(previous[x - channels]) : 0
                let p: Int
                switch filter {
                case 0: p = 0
                case 1: p = a
                case 2: p = up
                case 3: p = (a + up) / 2
                case 4:
                    let e = a + up - c, pa = abs(e - a), pb = abs(e - up), pc = abs(e - c)
                    p = pa <= pb && pa <= pc ? a : pb <= pc ? up : c
                // TRANSLATORS: %1$@ is a PNG filter's number, %2$@ a row of pixels.
                default: throw DEMError(tr("the DEM tile's PNG has an unknown filter %1$@ in row %2$@", filter, y))
                }
                line[x] = v &+ UInt8(truncatingIfNeeded: p)
            }
            for x in 0..<header.w {
                for k in 0..<channels { out[(y * header.w + x) * 4 + k] = line[x * channels + k] }
            }
            swap(&previous, &line)
        }
        width = header.w
        height = header.h
        rgba = out
    }
}
