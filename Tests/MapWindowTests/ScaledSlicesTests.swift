@testable import MapWindow
import Testing

struct ScaledSlicesTests {
    typealias Piece = ScaledSlices.Piece

    @Test func aCopyInsideIsOnePiece() {
        let p = ScaledSlices.pieces(source: 1, sourceLength: 256, destination: 10, destinationLength: 300, limit: 800)
        #expect(p == [Piece(source: 1, sourceLength: 256, destination: 10, destinationLength: 300)])
    }

    @Test func aCopyOutsideIsNothing() {
        #expect(ScaledSlices.pieces(source: 0, sourceLength: 256, destination: 800, destinationLength: 300, limit: 800).isEmpty)
        #expect(ScaledSlices.pieces(source: 0, sourceLength: 256, destination: -300, destinationLength: 300, limit: 800).isEmpty)
        #expect(ScaledSlices.pieces(source: 0, sourceLength: 0, destination: 0, destinationLength: 300, limit: 800).isEmpty)
    }

    @Test func knownCuts() {
        // 4 texels over 8 pixels from -3: texel edges at -3, -1, 1, 3, 5. Texel 1 is cut at 0.
        #expect(ScaledSlices.pieces(source: 0, sourceLength: 4, destination: -3, destinationLength: 8, limit: 100) == [
            Piece(source: 1, sourceLength: 1, destination: 0, destinationLength: 1),
            Piece(source: 2, sourceLength: 2, destination: 1, destinationLength: 4),
        ])
        // Cut at both ends by a 4-pixel limit: texel 3 is cut at 4.
        #expect(ScaledSlices.pieces(source: 10, sourceLength: 4, destination: -3, destinationLength: 8, limit: 4) == [
            Piece(source: 11, sourceLength: 1, destination: 0, destinationLength: 1),
            Piece(source: 12, sourceLength: 1, destination: 1, destinationLength: 2),
            Piece(source: 13, sourceLength: 1, destination: 3, destinationLength: 1),
        ])
        // Magnified so far that the view lies inside one texel.
        #expect(ScaledSlices.pieces(source: 0, sourceLength: 2, destination: -5000, destinationLength: 20000, limit: 800) == [
            Piece(source: 0, sourceLength: 1, destination: 0, destinationLength: 800),
        ])
    }

    /// The texel a pixel shows, by the nearest-texel rule of a stretch from `p`.
    private func texel(at x: Int64, in p: Piece) -> Int64 {
        Int64(p.source) + ((x - Int64(p.destination)) * 2 + 1) * Int64(p.sourceLength) / (2 * Int64(p.destinationLength))
    }

    /// Over many scales and offsets: the pieces tile the visible pixels exactly, in order,
    /// inside the limit, and each pixel shows the texel the uncut copy would show or one within
    /// a pixel's width of it (the two copies round differently).
    @Test func piecesTileTheVisiblePixelsAndKeepTheirTexels() {
        let limit: Int32 = 500
        for length in [3, 64, 255, 256, 257, 300, 362, 511, 1400] as [Int32] {
            for start in stride(from: Int32(-1500), through: 520, by: 37) {
                let n: Int32 = 256
                let pieces = ScaledSlices.pieces(source: 7, sourceLength: n, destination: start, destinationLength: length, limit: limit)
                let v0 = max(start, 0), v1 = min(start + length, limit)
                if v1 <= v0 { #expect(pieces.isEmpty); continue }
                var x = v0
                for p in pieces {
                    #expect(p.destination == x, "gap or overlap at \(x) for \(start)+\(length)")
                    #expect(p.destinationLength > 0 && p.sourceLength > 0)
                    #expect(p.source >= 7 && p.source + p.sourceLength <= 7 + n)
                    let whole = Piece(source: 7, sourceLength: n, destination: start, destinationLength: length)
                    let slack = max(1, Int64(n / length) + 1)
                    for px in stride(from: Int64(p.destination), to: Int64(p.destination + p.destinationLength), by: 7) {
                        #expect(abs(texel(at: px, in: p) - texel(at: px, in: whole)) <= slack, "pixel \(px) of \(start)+\(length)")
                    }
                    x += p.destinationLength
                }
                #expect(x == v1)
            }
        }
    }
}

struct RendererChoiceTests {
    @Test func autoDrawsInSoftwareOnlyOnX11WithoutAGPU() {
        #expect(RendererChoice.auto.drawsInSoftware(videoDriver: "x11", hasRenderNode: false))
        #expect(!RendererChoice.auto.drawsInSoftware(videoDriver: "x11", hasRenderNode: true))
        #expect(!RendererChoice.auto.drawsInSoftware(videoDriver: "wayland", hasRenderNode: false))
        #expect(RendererChoice.software.drawsInSoftware(videoDriver: "wayland", hasRenderNode: true))
        #expect(!RendererChoice.gpu.drawsInSoftware(videoDriver: "x11", hasRenderNode: false))
    }
}
