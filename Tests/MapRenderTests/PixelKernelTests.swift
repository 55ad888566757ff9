import CPixels
import Testing

/// The software compositor's loops on small pictures whose every pixel is known.
struct PixelKernelTests {
    /// A w×h picture of one colour, drawn into and read back.
    final class Canvas {
        var pixels: [UInt32]
        let width: Int, height: Int
        init(_ w: Int, _ h: Int, _ colour: UInt32 = 0xFFFF_FFFF) {
            width = w; height = h
            pixels = [UInt32](repeating: colour, count: w * h)
        }
        subscript(x: Int, y: Int) -> UInt32 { pixels[y * width + x] }
        var all: mp_box { mp_box(x0: 0, y0: 0, x1: Int32(width), y1: Int32(height)) }

        func draw(_ src: [UInt32], _ sw: Int, _ sh: Int, source: (Double, Double, Double, Double)? = nil,
                  to d: (Double, Double, Double, Double), clip: mp_box? = nil, opacity: UInt32 = 255, flags: Int) {
            let s = source ?? (0, 0, Double(sw), Double(sh))
            pixels.withUnsafeMutableBufferPointer { out in
                src.withUnsafeBufferPointer { px in
                    mp_draw_image(mp_target(pixels: out.baseAddress, width: Int32(width), height: Int32(height), stride: Int32(width)),
                                  mp_image(pixels: px.baseAddress, width: Int32(sw), height: Int32(sh), stride: Int32(sw)),
                                  s.0, s.1, s.2, s.3, d.0, d.1, d.2, d.3, clip ?? all, opacity, UInt32(flags))
                }
            }
        }

        var target: mp_target {
            get { pixels.withUnsafeMutableBufferPointer { mp_target(pixels: $0.baseAddress, width: Int32(width), height: Int32(height), stride: Int32(width)) } }
        }
    }

    static func channel(_ p: UInt32, _ shift: UInt32) -> Int { Int((p >> shift) & 0xFF) }

    @Test func aCopyAtItsOwnSizePlacesEveryPixel() {
        let c = Canvas(6, 5)
        let src: [UInt32] = [0xFF11_1111, 0xFF22_2222, 0xFF33_3333, 0xFF44_4444]
        c.draw(src, 2, 2, to: (3, 2, 2, 2), flags: MP_OPAQUE)
        #expect(c[3, 2] == 0xFF11_1111 && c[4, 2] == 0xFF22_2222 && c[3, 3] == 0xFF33_3333 && c[4, 3] == 0xFF44_4444)
        #expect(c[2, 2] == 0xFFFF_FFFF && c[5, 3] == 0xFFFF_FFFF && c[3, 1] == 0xFFFF_FFFF && c[3, 4] == 0xFFFF_FFFF)
    }

    @Test func nothingIsDrawnOutsideTheClipOrThePicture() {
        let c = Canvas(4, 4)
        let black = [UInt32](repeating: 0xFF00_0000, count: 16)
        c.draw(black, 4, 4, to: (-2, -2, 4, 4), clip: mp_box(x0: 0, y0: 0, x1: 1, y1: 4), flags: MP_OPAQUE)
        // Only x = 0, y = 0…1 lies inside both the picture's rectangle and the clip.
        #expect(c[0, 0] == 0xFF00_0000 && c[0, 1] == 0xFF00_0000)
        #expect(c[1, 0] == 0xFFFF_FFFF && c[0, 2] == 0xFFFF_FFFF)
        #expect(c.pixels.filter { $0 == 0xFF00_0000 }.count == 2)
    }

    @Test func nearestDoublingGivesEachTexelTwoByTwoPixels() {
        let c = Canvas(4, 4)
        let src: [UInt32] = [0xFF00_0001, 0xFF00_0002, 0xFF00_0003, 0xFF00_0004]
        c.draw(src, 2, 2, to: (0, 0, 4, 4), flags: MP_OPAQUE)
        #expect(c.pixels == [1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4].map { 0xFF00_0000 | UInt32($0) })
    }

    @Test func filteringBlendsNeighboursByDistance() {
        // Black and white texels over four pixels: centres at −¼, ¼, ¾ and 1¼ texels.
        let c = Canvas(4, 1)
        c.draw([0xFF00_0000, 0xFFFF_FFFF], 2, 1, to: (0, 0, 4, 1), flags: MP_OPAQUE | MP_FILTER)
        #expect(c.pixels.map { Self.channel($0, 8) } == [0, 63, 191, 255])
        #expect(c.pixels.allSatisfy { $0 >> 24 == 255 })
    }

    @Test func premultipliedOverIsExact() {
        // Half-transparent red (premultiplied: 128 red, alpha 128) over white.
        let c = Canvas(1, 1)
        c.draw([0x8080_0000], 1, 1, to: (0, 0, 1, 1), flags: 0)
        #expect(Self.channel(c[0, 0], 16) == 255)
        #expect(abs(Self.channel(c[0, 0], 8) - 127) <= 1 && abs(Self.channel(c[0, 0], 0) - 127) <= 1)
        // Fully transparent pixels change nothing; opaque ones replace.
        c.draw([0], 1, 1, to: (0, 0, 1, 1), flags: 0)
        #expect(Self.channel(c[0, 0], 16) == 255)
        c.draw([0xFF00_00FF], 1, 1, to: (0, 0, 1, 1), flags: 0)
        #expect(c[0, 0] == 0xFF00_00FF)
    }

    @Test func opacityFadesAnOpaqueTile() {
        let c = Canvas(2, 1)
        c.draw([0xFF00_0000, 0xFF00_0000], 2, 1, to: (0, 0, 2, 1), opacity: 128, flags: MP_OPAQUE)
        #expect(c.pixels.allSatisfy { abs(Self.channel($0, 16) - 127) <= 1 })
        c.draw([0xFF00_0000, 0xFF00_0000], 2, 1, to: (0, 0, 2, 1), opacity: 0, flags: MP_OPAQUE)
        #expect(c.pixels.allSatisfy { abs(Self.channel($0, 16) - 127) <= 1 })
    }

    @Test func hostileRectanglesNeverTrapAndDrawOnlyInside() {
        let c = Canvas(8, 8)
        let red: [UInt32] = [0xFFFF_0000, 0xFFFF_0000, 0xFFFF_0000, 0xFFFF_0000]
        let hostile: [(Double, Double, Double, Double)] = [(.nan, 0, 4, 4), (0, 0, .infinity, 4), (0, 0, 0, 4), (0, 0, -4, 4), (1e300, 1e300, 4, 4)]
        for d in hostile {
            c.draw(red, 2, 2, to: d, flags: MP_OPAQUE)
        }
        #expect(c.pixels.allSatisfy { $0 == 0xFFFF_FFFF })
        // Two texels a million screens wide, the screen at the red one's centre.
        c.draw([0xFF00_0000, 0xFFFF_0000], 2, 1, to: (-1.5e12, 0, 2e12, 8), flags: MP_OPAQUE | MP_FILTER)
        #expect(c.pixels.allSatisfy { $0 == 0xFFFF_0000 })
    }

    @Test func aTurnedBarStandsUp() {
        let c = Canvas(40, 40, 0xFF00_0000)
        let white = [UInt32](repeating: 0xFFFF_FFFF, count: 16)
        white.withUnsafeBufferPointer { px in
            mp_draw_rotated(c.target, mp_image(pixels: px.baseAddress, width: 16, height: 1, stride: 16),
                            0, 0, 16, 1, 20, 20, 32, 4, 90, c.all, 255)
        }
        // Lying 32×4 turned a quarter: standing 4×32 about (20, 20).
        #expect(c[20, 6] == 0xFFFF_FFFF && c[19, 33] == 0xFFFF_FFFF)
        #expect(c[6, 20] == 0xFF00_0000 && c[33, 19] == 0xFF00_0000 && c[25, 20] == 0xFF00_0000)
    }

    @Test func fillAndCopyStayInTheirBoxes() {
        let c = Canvas(4, 4, 0xFF00_0000)
        mp_fill(c.target, mp_box(x0: 1, y0: 1, x1: 3, y1: 9), 0xFFFF_FFFF)
        #expect(c[1, 1] == 0xFFFF_FFFF && c[2, 3] == 0xFFFF_FFFF && c[0, 1] == 0xFF00_0000 && c[3, 3] == 0xFF00_0000)
        // Half-transparent black over white halves it.
        mp_fill(c.target, mp_box(x0: 1, y0: 1, x1: 2, y1: 2), 0x8000_0000)
        #expect(abs(Self.channel(c[1, 1], 8) - 127) <= 1)
        let source = [UInt32](repeating: 0xFF12_3456, count: 16)
        source.withUnsafeBufferPointer { px in
            mp_copy(c.target, mp_image(pixels: px.baseAddress, width: 4, height: 4, stride: 4), mp_box(x0: 0, y0: 0, x1: 1, y1: 1))
        }
        #expect(c[0, 0] == 0xFF12_3456 && c[1, 0] == 0xFF00_0000)
    }

    /// Each channel × a / 255, rounded: the reference for every blend.
    static func mul(_ p: UInt32, _ a: UInt32) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { acc, i in
            let c = (p >> (8 * UInt32(i))) & 0xFF
            return acc | ((c * a + 127) / 255) << (8 * UInt32(i))
        }
    }

    @Test func fourAtATimeMatchesOneAtATime() {
        // Odd widths, so rows end with pixels the four-at-a-time loops leave to the scalar tail.
        var rng = SystemRandomNumberGenerator()
        for (w, opacity) in [(37, 255), (37, 200), (9, 77)] {
            let under = (0..<(w * 3)).map { _ in 0xFF00_0000 | UInt32.random(in: 0...0xFF_FFFF, using: &rng) }
            let sprite: [UInt32] = (0..<(w * 3)).map { i in
                if i % 5 == 0 { return 0 }
                let a = UInt32.random(in: 0...255, using: &rng)
                let r = UInt32.random(in: 0...a, using: &rng), g = UInt32.random(in: 0...a, using: &rng), b = UInt32.random(in: 0...a, using: &rng)
                return a << 24 | r << 16 | g << 8 | b
            }
            let c = Canvas(w, 3)
            c.pixels = under
            c.draw(sprite, w, 3, to: (0, 0, Double(w), 3), opacity: UInt32(opacity), flags: 0)
            let expected = zip(under, sprite).map { d, s0 -> UInt32 in
                let s = opacity == 255 ? s0 : Self.mul(s0, UInt32(opacity))
                return s == 0 ? d : s + Self.mul(d, 255 - (s >> 24))
            }
            // The rounding of x·a/255 is exact in both ways of computing it.
            #expect(c.pixels == expected, "width \(w), opacity \(opacity)")
        }
    }
}
