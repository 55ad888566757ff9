import FoundationEssentials
import Glibc
import MapCore
import MapGeometry
import Platform

/// How a `hillshade` layer shades, with the style spec's defaults.
public struct HillshadeLook: Sendable, Equatable {
    /// Where the light comes from, degrees clockwise from north (the spec's default 335: the
    /// north-north-west, where map readers expect it).
    public var illuminationDirection = 335.0
    /// The light turns with the map (`map`) or stays with the screen (`viewport`, the default).
    public var anchoredToViewport = true
    /// How strong the shading is, 0…1.
    public var exaggeration = 0.5
    public var shadow = Color(hex: 0x000000)
    public var highlight = Color(hex: 0xFFFFFF)
    /// The colour steep slopes are given, whichever way they face.
    public var accent = Color(hex: 0x000000)
    public init() {}
}

/// Shades a DEM tile as a MapLibre `hillshade` layer does: each pixel's slope and the way it
/// faces (from its eight neighbours, Horn's way) give how much it turns to or from the light;
/// slopes that face the light take the highlight colour, those that face away the shadow,
/// flat ground nothing. At low zooms slopes are steepened, as MapLibre does, so that
/// mountains still show from afar.
public enum Hillshade {
    /// The shaded tile: premultiplied ARGB words, `dem.size` pixels a side. `tile` says where
    /// it is (for the ground size of a pixel); `bearing` turns a viewport-anchored light.
    public static func shade(_ dem: DEMTile, tile: TileID, look: HillshadeLook = HillshadeLook(), bearing: Double = 0) -> Bitmap {
        let n = dem.size
        var pixels = [UInt32](repeating: 0, count: n * n)
        let e = min(max(look.exaggeration.isFinite ? look.exaggeration : 0.5, 0), 1)
        let strength = min(e * 2, 1)
        let direction = (look.illuminationDirection.isFinite ? look.illuminationDirection : 335) + (look.anchoredToViewport && bearing.isFinite ? bearing : 0)
        let azimuth = direction * .pi / 180
        let steepen = Self.steepening(zoom: Double(tile.z))
        // How slopes are bent: stronger exaggeration lifts gentle slopes.
        let base = 1.875 - e * 1.75, curve = abs(e - 0.5) > 1e-9 && base > 0 && abs(base - 1) > 1e-9
        let curveEnd = curve ? pow(base, .pi / 2) - 1 : 1
        for y in 0..<n {
            let metres = dem.metresPerPixel(row: Double(y) + 0.5, of: tile)
            let k = steepen / (8 * max(metres, 1e-6))
            for x in 0..<n {
                let a = Double(dem.height(x - 1, y - 1)), b = Double(dem.height(x, y - 1)), c = Double(dem.height(x + 1, y - 1))
                let d = Double(dem.height(x - 1, y)), f = Double(dem.height(x + 1, y))
                let g = Double(dem.height(x - 1, y + 1)), h = Double(dem.height(x, y + 1)), i = Double(dem.height(x + 1, y + 1))
                // Rise to the east, and to the north (rows go south).
                let east = ((c + 2 * f + i) - (a + 2 * d + g)) * k
                let north = ((a + 2 * b + c) - (g + 2 * h + i)) * k
                let steepness = (east * east + north * north).squareRoot()
                guard steepness > 1e-9, steepness.isFinite else { continue }
                let slope = atan(steepness)
                let bent = curve ? (pow(base, slope) - 1) / curveEnd * (.pi / 2) : slope
                // The way the slope faces (downhill), clockwise from north, and how it meets the light.
                let facing = atan2(-east, -north)
                let toLight = 0.5 + 0.5 * cos(facing - azimuth)
                let alpha = sin(bent) * strength
                let accentAlpha = (1 - cos(bent)) * strength * look.accent.a
                let lit = mix(look.shadow, look.highlight, toLight)
                let shadeAlpha = alpha * lit.a
                // The shade over the accent (both premultiplied).
                let outA = shadeAlpha + accentAlpha * (1 - shadeAlpha)
                let r = lit.r * shadeAlpha + look.accent.r * accentAlpha * (1 - shadeAlpha)
                let gr = lit.g * shadeAlpha + look.accent.g * accentAlpha * (1 - shadeAlpha)
                let bl = lit.b * shadeAlpha + look.accent.b * accentAlpha * (1 - shadeAlpha)
                pixels[y * n + x] = UInt32(Color.byte(outA)) << 24 | UInt32(Color.byte(r)) << 16 | UInt32(Color.byte(gr)) << 8 | UInt32(Color.byte(bl))
            }
        }
        return Bitmap(width: n, height: n, pixels: pixels, premultiplied: true)
    }

    /// How much slopes are steepened at `zoom`: none from z15, more the further out.
    static func steepening(zoom z: Double) -> Double {
        guard z < 15 else { return 1 }
        let perZoom = z < 2 ? 0.4 : z < 4.5 ? 0.35 : 0.3
        return pow(2, (15 - z) * perZoom)
    }

    private static func mix(_ a: Color, _ b: Color, _ t: Double) -> Color {
        Color(r: a.r + (b.r - a.r) * t, g: a.g + (b.g - a.g) * t, b: a.b + (b.b - a.b) * t, a: a.a + (b.a - a.a) * t)
    }
}
