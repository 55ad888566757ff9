import Foundation
import MapCore
import MapGeometry
import Testing

/// Every sprite is ready, its size whatever is asked.
struct AllSprites: SpriteAvailability {
    func size(of sprite: SpriteKey) -> ScreenSize? { ScreenSize(width: 10, height: 10) }
}


struct OverlayTests {
    // MARK: the circle pulse (YHAnimatedCircleView's numbers)

    @Test("Circle pulse: scale 0.8→1.2, opacity 0.5→0.05 over 0.8 s, linear", arguments: [
        (0.0, 0.8, 0.5), (0.2, 0.9, 0.3875), (0.4, 1.0, 0.275), (0.6, 1.1, 0.1625),
        (0.8, 0.8, 0.5),          // the cycle restarts
        (1.0, 0.9, 0.3875), (80.4, 1.0, 0.275),
    ])
    func circlePulse(t: Double, scale: Double, opacity: Double) {
        let s = CirclePulse().state(at: t)
        #expect(abs(s.scale - scale) < 1e-9 && abs(s.opacity - opacity) < 1e-9, "t=\(t): \(s)")
    }

    @Test func circlePulseApproachesItsEndJustBeforeTheRestart() {
        let s = CirclePulse().state(at: 0.8 - 1e-9)
        #expect(abs(s.scale - 1.2) < 1e-6 && abs(s.opacity - 0.05) < 1e-6)
    }

    // MARK: the halo pulse (SVPulsingAnnotationView's numbers)

    /// Expected values from the Bézier definitions, computed independently (bisection in Python):
    /// ease-out(0.5) = 0.684643, ease-in(0.5) = 0.315357.
    @Test("Halo: scale 0→1 ease-out, opacity 1→0 ease-in over 1 s, then a 1 s pause", arguments: [
        (0.0, 0.0, 1.0, 0),
        (0.5, 0.684643, 0.684643, 2),
        (1.0, 1.0, 0.0, 2),
        (1.5, 1.0, 0.0, 2),      // the pause: grown and invisible
        (2.0, 0.0, 1.0, 0),      // the next pulse
        (2.1, TimingCurve.easeOut.value(at: 0.1), 1 - TimingCurve.easeIn.value(at: 0.1), 0),
    ])
    func halo(t: Double, scale: Double, opacity: Double, raster: Int) {
        let s = HaloPulse().state(at: t)
        #expect(abs(s.scale - scale) < 1e-5 && abs(s.opacity - opacity) < 1e-5, "t=\(t): \(s)")
        #expect(s.raster == raster, "t=\(t): raster \(s.raster)")
    }

    /// Which raster is used when: each until the halo has grown to its size, never upscaled.
    @Test func haloRastersSwitchWhereTheHaloReachesTheirSize() {
        let halo = HaloPulse()
        var last = 0
        for i in 0...1000 {
            let t = Double(i) / 1000
            let s = halo.state(at: t)
            #expect(s.raster >= last) // only ever switches up during the growth
            last = s.raster
            #expect(s.scale <= HaloPulse.rasterFractions[s.raster] + 1e-6, "t=\(t): scale \(s.scale) on raster \(s.raster)")
        }
        #expect(halo.state(at: 0.2).scale < 1.0 / 3 && halo.state(at: 0.2).raster == 0)
        #expect(halo.state(at: 0.3).raster == 1 && halo.state(at: 0.6).raster == 2)
    }

    @Test func haloDurationAndDelayAreCustomisable() {
        let h = HaloPulse(duration: 0.5, delay: 2)
        #expect(abs(h.state(at: 0.5).scale - 1) < 1e-9)
        #expect(h.state(at: 2.4).opacity == 0)           // still in the pause
        #expect(abs(h.state(at: 2.5).opacity - 1) < 1e-9) // next cycle at 2.5 s
    }

    @Test func groupsRepeatAndEnd() {
        let g = AnimationGroup(start: 10, duration: 2, repeatCount: 3)
        #expect(g.localTime(at: 9) == nil)
        #expect(g.localTime(at: 11.5) == 1.5)
        #expect(g.localTime(at: 13.25) == 1.25)
        #expect(g.localTime(at: 16) == nil)
        let k = DiscreteKeyframes(values: ["a", "b", "c"], keyTimes: [0, 0.5, 0.9], duration: 2)
        #expect([0, 0.99, 1.0, 1.79, 1.8].map { k.value(at: $0) } == ["a", "a", "b", "b", "c"])
        #expect(BasicAnimation(from: 2, to: 4, duration: 1, beginTime: 0.5).value(at: 0) == 2)
        #expect(BasicAnimation(from: 2, to: 4, duration: 1, beginTime: 0.5).value(at: 9) == 4)
    }

    // MARK: composition

    func scene(zoom: Double) -> Still {
        Still(camera: Camera(center: Coordinate(latitude: 48.85, longitude: 2.35), zoom: zoom,
                             viewportSize: ScreenSize(width: 800, height: 600)))
    }

    func circleRect(_ list: DrawList) -> ScreenRect? {
        list.spriteCommands.first { $0.0.spec(as: CircleSprite.self) != nil }?.1
    }

    @Test func aMeterCircleDoublesPerZoomLevelAFixedOneDoesNot() {
        let c = CircleOverlay(center: Coordinate(latitude: 48.85, longitude: 2.35), radiusMeters: 400, pulse: nil)
        var fixed = c
        fixed.fixedRadiusPoints = 30
        var a = scene(zoom: 12), b = scene(zoom: 13)
        a.circles = [c]; b.circles = [c]
        let ra = circleRect(a.compose(at: 0, tiles: NoTiles(), sprites: AllSprites()))!
        let rb = circleRect(b.compose(at: 0, tiles: NoTiles(), sprites: AllSprites()))!
        #expect(abs(rb.width / ra.width - 2) < 1e-9)
        // 400 m at 48.85° N and z12: 400 / (156543.03 · cos 48.85° / 4096) points.
        let expected = 400 / (WebMercator.metersPerMapPoint(atLatitude: 48.85) / 4096)
        #expect(abs(ra.width / 2 - expected) < 1e-6)
        a.circles = [fixed]; b.circles = [fixed]
        #expect(circleRect(a.compose(at: 0, tiles: NoTiles(), sprites: AllSprites()))!.width == 60)
        #expect(circleRect(b.compose(at: 0, tiles: NoTiles(), sprites: AllSprites()))!.width == 60)
    }

    @Test func pulsingCircleIsPlacedWithItsAnimatedScaleAndOpacity() {
        var s = scene(zoom: 14)
        s.circles = [CircleOverlay(center: Coordinate(latitude: 48.85, longitude: 2.35), radiusMeters: 100, fixedRadiusPoints: 50)]
        let list = s.compose(at: 0.4, tiles: NoTiles(), sprites: AllSprites())
        let cmd = list.spriteCommands.first { $0.0.spec(as: CircleSprite.self) != nil }!
        #expect(abs(cmd.1.width - 100 * 1.0) < 1e-9)  // scale 1.0 at 0.4 s
        #expect(abs(cmd.2 - 0.275) < 1e-9)
        #expect(list.animating)
    }

    @Test func spritesAreDrawnInTheDocumentedOrder() {
        var s = scene(zoom: 15)
        s.circles = [CircleOverlay(center: Coordinate(latitude: 48.851, longitude: 2.351), radiusMeters: 50)]
        s.location = LocationAnnotation(coordinate: Coordinate(latitude: 48.85, longitude: 2.35), accuracy: 80, heading: 90)
        let kinds = s.compose(at: 0.3, tiles: NoTiles(), sprites: AllSprites()).spriteCommands.map { cmd -> String in
            if cmd.0.spec(as: CircleSprite.self) != nil { return "circle" }
            switch cmd.0.spec(as: LocationSprite.self) {
            case .accuracyDisc?: return "accuracy"
            case .halo?: return "halo"
            case .headingCone?: return "heading"
            case .dot?: return "dot"
            default: return "other"
            }
        }.filter { $0 != "other" }
        #expect(kinds == ["circle", "accuracy", "halo", "heading", "dot"])
    }

    @Test func locationAndAccuracyGlideInsteadOfJumping() {
        var loc = LocationAnnotation(coordinate: Coordinate(latitude: 0, longitude: 0), accuracy: 100)
        loc.update(coordinate: Coordinate(latitude: 0, longitude: 1), accuracy: 300, heading: nil, at: 10)
        #expect(loc.coordinate(at: 10).longitude == 0 && loc.accuracy(at: 10) == 100)
        #expect(abs(loc.coordinate(at: 10.15).longitude - 0.5) < 1e-9) // ease-in-out is halfway at half time
        #expect(abs(loc.accuracy(at: 10.15) - 200) < 1e-9)
        #expect(loc.isGliding(at: 10.2) && !loc.isGliding(at: 10.3))
        #expect(abs(loc.coordinate(at: 11).longitude - 1) < 1e-9 && loc.accuracy(at: 11) == 300)
        // A fix arriving mid-glide starts from where the dot is, not from the old fix.
        loc.update(coordinate: Coordinate(latitude: 0, longitude: 2), accuracy: 300, heading: nil, at: 20)
        loc.update(coordinate: Coordinate(latitude: 0, longitude: 3), accuracy: 300, heading: nil, at: 20.15)
        #expect(abs(loc.coordinate(at: 20.15).longitude - 1.5) < 1e-9)
    }

    @Test func theDrawnAccuracyCircleGrowsThroughItsGlide() {
        var s = scene(zoom: 14)
        var loc = LocationAnnotation(coordinate: Coordinate(latitude: 48.85, longitude: 2.35), accuracy: 100)
        loc.update(coordinate: Coordinate(latitude: 48.85, longitude: 2.35), accuracy: 300, heading: nil, at: 10)
        s.location = loc
        func discWidth(at t: Double) -> Double? {
            s.compose(at: t, tiles: NoTiles(), sprites: AllSprites()).spriteCommands
                .first { if case .accuracyDisc? = $0.0.spec(as: LocationSprite.self) { return true } else { return false } }?.1.width
        }
        let pointsPerMeter = 1 / (WebMercator.metersPerMapPoint(atLatitude: 48.85) / 16384)
        let widths = [10, 10.05, 10.15, 10.25, 10.3].compactMap(discWidth)
        #expect(widths.count == 5)
        #expect(zip(widths, widths.dropFirst()).allSatisfy { $0 < $1 }, "it grows frame by frame: \(widths)")
        #expect(abs(widths[0] - 2 * 100 * pointsPerMeter) < 1e-6 && abs(widths[2] - 2 * 200 * pointsPerMeter) < 1e-6)
        #expect(abs(widths[4] - 2 * 300 * pointsPerMeter) < 1e-6)
    }

    @Test func offScreenOverlaysDoNotAnimateTheFrameLoop() {
        var s = scene(zoom: 12)
        s.location = LocationAnnotation(coordinate: Coordinate(latitude: 40, longitude: -70), accuracy: 500)
        s.circles = [CircleOverlay(center: Coordinate(latitude: -10, longitude: 100), radiusMeters: 200)]
        let list = s.compose(at: 1, tiles: NoTiles(), sprites: AllSprites())
        #expect(!list.animating)
        #expect(list.spriteCommands.allSatisfy { if case .text? = $0.0.spec(as: LabelSprite.self) { return true } else { return false } }) // chrome only
        s.location = LocationAnnotation(coordinate: Coordinate(latitude: 48.85, longitude: 2.35), accuracy: 500)
        // During the pause the halo is invisible, yet the pulse is on screen: keep drawing.
        #expect(s.compose(at: 1.5, tiles: NoTiles(), sprites: AllSprites()).animating)
    }

    @Test func colorsParse() {
        #expect(Color(parsing: "#007AFF") == Color.systemBlue)
        #expect(Color(parsing: "ff0000") == Color(hex: 0xFF0000))
        #expect(Color(parsing: "Orange") == Color(hex: 0xFF9500))
        #expect(Color(parsing: "#12345") == nil && Color(parsing: "sky") == nil)
    }
}
