import Foundation
import Testing
import TestPictures

/// The location annotation through `meridian render --at`: the same picture at a chosen time.
@Suite(.serialized)
struct OverlayRenderTests {
    /// Renders the location at the centre of a 300×300 view over the sea (no labels, no land).
    func render(at t: Double, dir: URL, extra: [String] = []) throws -> PNG {
        let out = dir.appendingPathComponent("loc-\(t).png").path
        let r = try run(meridianBinary, ["render", "--center", "35,-30", "--zoom", "10", "--size", "300x300", "--no-labels",
                                         "--location", "35,-30,0", "--at", "\(t)", "--out", out] + extra)
        guard r.status == 0 else { throw HarnessError(r.stderr) }
        return try PNG(out)
    }

    func isDotBlue(_ p: (r: Int, g: Int, b: Int)) -> Bool { p.r < 60 && abs(p.g - 122) < 40 && p.b > 200 }

    /// The blue of the halo over water, ring by ring outwards from the centre, from just
    /// beyond the dot's shadow (15.5 pt) to beyond the halo (61 pt).
    static let firstRing = 18
    func haloProfile(_ png: PNG) -> [Double] {
        (Self.firstRing...66).map { r -> Double in
            var sum = 0.0
            for a in stride(from: 0.0, to: 2 * .pi, by: .pi / 8) {
                let p = png.pixel(150 + Int(Double(r) * cos(a)), 150 + Int(Double(r) * sin(a)))
                sum += Double(p.b - p.r) // the halo is blue: blue minus red grows with it
            }
            return sum / 16
        }
    }

    @Test func theDotIsThereAtEveryTimeAndTheHaloMovesOutward() throws {
        let dir = temporaryDirectory("halo")
        defer { try? FileManager.default.removeItem(at: dir) }
        let at0 = try render(at: 0.0, dir: dir), at04 = try render(at: 0.4, dir: dir), at15 = try render(at: 1.5, dir: dir)
        for png in [at0, at04, at15] { #expect(isDotBlue(png.pixel(150, 150)), "\(png.pixel(150, 150))") }
        let water = at15.pixel(150, 100)
        let base = Double(water.b - water.r)
        let p0 = haloProfile(at0), p04 = haloProfile(at04), p15 = haloProfile(at15)
        // t = 0: scale 0 — nothing around the dot but water.
        #expect(p0.allSatisfy { abs($0 - base) < 6 }, "\(p0)")
        // t = 0.4: the halo has grown to ~57% of 122 pt ≈ 35 pt radius: tinted out to there,
        // brightest near its rim, water beyond.
        let rim = p04.indices.max { p04[$0] < p04[$1] }! + Self.firstRing
        #expect(rim >= 24 && rim <= 38, "rim at \(rim): \(p04)")
        #expect(p04[rim - Self.firstRing] > base + 20)
        #expect(abs(p04[55 - Self.firstRing] - base) < 6)
        // t = 1.5: the pause — faded out entirely.
        #expect(p15.allSatisfy { abs($0 - base) < 6 }, "\(p15)")
    }

    @Test func accuracyCircleAndPulsingCirclesAreDrawnInMeters() throws {
        let dir = temporaryDirectory("acc")
        defer { try? FileManager.default.removeItem(at: dir) }
        // 4000 m at 35° N and z10 is 4000 / (156543·cos 35° / 1024) ≈ 31.9 points.
        let png = try render(at: 1.5, dir: dir, extra: ["--location", "35,-30,4000"])
        let inside = png.pixel(150 + 25, 150), outside = png.pixel(150 + 40, 150)
        #expect(inside.b - inside.r > outside.b - outside.r + 10, "inside \(inside) outside \(outside)")
        // A red circle pulsing at 0.4 s: scale 1.0, opacity 0.275, fixed 40-point radius.
        let out = dir.appendingPathComponent("c.png").path
        #expect(try run(meridianBinary, ["render", "--center", "35,-30", "--zoom", "10", "--size", "300x300", "--no-labels",
                                         "--circle", "35,-30,500,#FF0000", "--fixed-radius", "40", "--at", "0.4", "--out", out]).status == 0)
        let c = try PNG(out)
        let center = c.pixel(150, 150), beyond = c.pixel(150, 200)
        #expect(center.r - center.b > beyond.r - beyond.b + 25, "center \(center) beyond \(beyond)")
    }
}
