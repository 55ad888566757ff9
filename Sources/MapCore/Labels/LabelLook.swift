import FoundationEssentials
import Glibc
import Platform

/// How a style asks for a label's text to look (MapLibre's text-font, text-size, text-color,
/// text-halo-*, text-letter-spacing, text-max-width), already evaluated for one feature at
/// one zoom. Hashable: it is part of the sprite key, so equal looks share rasters.
public struct LabelLook: Hashable, Sendable {
    /// A Pango family ("DejaVu Sans") and the weight and slant the fontstack named.
    public var family: String
    public var bold: Bool
    public var italic: Bool
    /// Points.
    public var size: Double
    public var color: Color
    public var haloColor: Color
    /// Points of halo around the glyphs; 0 for none.
    public var haloWidth: Double
    /// Extra space between letters, in ems.
    public var letterSpacing: Double
    /// Lines wrap at this many ems (0: never).
    public var maxWidth: Double

    public init(family: String = "DejaVu Sans", bold: Bool = false, italic: Bool = false, size: Double = 12,
                color: Color = Color(hex: 0x333333), haloColor: Color = Color(hex: 0xFFFFFF), haloWidth: Double = 0,
                letterSpacing: Double = 0, maxWidth: Double = 0) {
        self.family = family; self.bold = bold; self.italic = italic
        // Bounded here, where a style's numbers become a raster's size.
        self.size = Self.clamp(size, 1, 64, 12)
        self.color = color; self.haloColor = haloColor
        self.haloWidth = Self.clamp(haloWidth, 0, 8, 0)
        self.letterSpacing = Self.clamp(letterSpacing, -0.5, 2, 0)
        self.maxWidth = Self.clamp(maxWidth, 0, 100, 0)
    }

    private static func clamp(_ v: Double, _ lo: Double, _ hi: Double, _ fallback: Double) -> Double {
        v.isFinite ? min(max(v, lo), hi) : fallback
    }

    /// About how big the text will be, erring large (see `LabelPlacer.estimatedSize`): lines
    /// are wrapped at `maxWidth` ems the way Pango wraps them, at spaces.
    public func estimatedSize(_ text: String) -> ScreenSize {
        let em = bold ? 0.79 : 0.72
        var lines: [Double] = []
        var line = 0.0, word = 0.0
        func ems(_ c: Unicode.Scalar) -> Double { ("mwMW@".unicodeScalars.contains(c) ? 1.0 : em) + letterSpacing }
        for c in text.unicodeScalars {
            if c == "\n" { lines.append(line + word); line = 0; word = 0; continue }
            if c == " " {
                if maxWidth > 0, line + word > maxWidth, line > 0 { lines.append(line); line = word } else { line += word }
                word = 0
                line += line > 0 ? ems(c) : 0
                continue
            }
            word += ems(c)
        }
        if maxWidth > 0, line + word > maxWidth, line > 0 { lines.append(line); lines.append(word) } else { lines.append(line + word) }
        let widest = lines.max() ?? 0
        let height = Double(lines.count) * size * 1.2 + size * 0.15
        return ScreenSize(width: (widest * size).rounded(.up) + 2 * haloWidth + 3, height: height.rounded(.up) + 2 * haloWidth + 3)
    }
}

/// An icon from a style's sprite sheet: the part of the sheet's picture it is drawn from, in
/// the sheet's pixels, and the scale it is drawn at (icon-size). Rasterized once per density.
public struct IconSprite: SpriteSpec {
    /// The sheet's picture (a PNG file).
    public var sheet: String
    public var x: Int, y: Int, width: Int, height: Int
    /// Sheet pixels per point (the sprite index's pixelRatio).
    public var sheetRatio: Double
    public var scale: Double

    public init(sheet: String, x: Int, y: Int, width: Int, height: Int, sheetRatio: Double, scale: Double) {
        self.sheet = sheet; self.x = x; self.y = y; self.width = width; self.height = height
        self.sheetRatio = sheetRatio; self.scale = scale
    }

    /// Its size on screen, in points.
    public var size: ScreenSize {
        let k = scale / max(sheetRatio, 0.1)
        return ScreenSize(width: Double(width) * k, height: Double(height) * k)
    }
}

/// A label's icon: what is drawn, and where, centred on the labelled point moved by `offset`.
public struct LabelIcon: Hashable, Sendable {
    public var key: SpriteKey
    public var size: ScreenSize
    public var offset: ScreenPoint
    public init(_ icon: IconSprite, offset: ScreenPoint = ScreenPoint(x: 0, y: 0)) {
        key = SpriteKey(icon); size = icon.size; self.offset = offset
    }
}
