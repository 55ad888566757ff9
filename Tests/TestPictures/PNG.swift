/// A picture's pixels, 8-bit RGB: the end-to-end tests' screenshots and the files the app
/// renders, as ImageMagick (which the test set-up installs) writes them in a binary PPM (the
/// harness runs it). Its module is compiled optimized in the debug build too: the tests look
/// at every pixel of pictures of half a million, many times while they wait for one.
public struct PNG {
    public let width: Int
    public let height: Int
    public let rgb: [UInt8]

    public init(width: Int, height: Int, rgb: [UInt8]) {
        self.width = width; self.height = height; self.rgb = rgb
    }

    /// A binary PPM (P6, 255 levels), as ImageMagick's `import … ppm:FILE` writes a screenshot.
    public init(ppm bytes: [UInt8]) throws {
        // The header: "P6", then width, height and levels, each after white space and
        // comments (# to the end of the line: a picture's own comment).
        var i = 2, fields: [Int] = []
        guard bytes.count > 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "6") else { throw PictureError("not a binary PPM") }
        while fields.count < 3 {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 || bytes[i] == UInt8(ascii: "#") {
                if bytes[i] == UInt8(ascii: "#") { while i < bytes.count, bytes[i] != 0x0A { i += 1 } } else { i += 1 }
            }
            var n = 0, digits = 0
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39, digits < 9 { n = n * 10 + Int(bytes[i] - 0x30); i += 1; digits += 1 }
            guard digits > 0 else { throw PictureError("a PPM's header is cut short") }
            fields.append(n)
        }
        i += 1 // the one white space byte before the pixels
        let (w, h) = (fields[0], fields[1])
        guard fields[2] == 255, w > 0, h > 0, bytes.count - i == w * h * 3 else {
            throw PictureError("a PPM of \(w)×\(h) at \(fields[2]) levels in \(bytes.count) bytes")
        }
        self.init(width: w, height: h, rgb: Array(bytes[i...]))
    }

    public func pixel(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let i = (y * width + x) * 3
        return (Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
    }

    public var distinctColours: Int {
        var s = Set<Int>()
        for i in stride(from: 0, to: rgb.count, by: 3) { s.insert(Int(rgb[i]) << 16 | Int(rgb[i + 1]) << 8 | Int(rgb[i + 2])) }
        return s.count
    }

    /// Fraction of pixels in a box darker than `level` (labels are dark on light tiles).
    public func darkFraction(x: Int, y: Int, w: Int, h: Int, level: Int = 100) -> Double {
        var n = 0
        for yy in y..<(y + h) { for xx in x..<(x + w) { let p = pixel(xx, yy); if p.r + p.g + p.b < level * 3 { n += 1 } } }
        return Double(n) / Double(w * h)
    }

    /// The share of pixels where some channel differs from `other`'s by more than `levels` (1
    /// when the two differ in size).
    public func differingFraction(from other: PNG, by levels: Int) -> Double {
        guard width == other.width, height == other.height, width * height > 0 else { return 1 }
        var n = 0
        for y in 0..<height {
            for x in 0..<width {
                let a = pixel(x, y), b = other.pixel(x, y)
                if abs(a.r - b.r) > levels || abs(a.g - b.g) > levels || abs(a.b - b.b) > levels { n += 1 }
            }
        }
        return Double(n) / Double(width * height)
    }

    /// The mean colour of the 9×9 pixels round (x, y): a dot or a letter there moves it little.
    public func meanColour(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        var r = 0, g = 0, b = 0, n = 0
        for v in max(0, y - 4)...min(height - 1, y + 4) {
            for u in max(0, x - 4)...min(width - 1, x + 4) {
                let p = pixel(u, v)
                r += p.r; g += p.g; b += p.b; n += 1
            }
        }
        return n == 0 ? (0, 0, 0) : (r / n, g / n, b / n)
    }
}

public struct PictureError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
