import Foundation
import MapCore
import MapGeometry
import Testing
import TestSupport

/// Where pins go in a frame: order among the overlays, culling, the carried pin, the callout.
struct PinSceneTests {
    static let paris = Coordinate(latitude: 48.8566, longitude: 2.3522)

    func scene(_ pins: [Pin], zoom: Double = 10) -> Still {
        var s = Still(camera: Camera(center: Self.paris, zoom: zoom, viewportSize: ScreenSize(width: 800, height: 600)))
        s.showsLabels = false
        s.showsScaleBar = false   // the chrome goes above everything; these tests look under it
        s.pins = PinEditor(pins: pins)
        return s
    }

    func keys(_ list: DrawList) -> [SpriteKey] { list.spriteCommands.map(\.0) }

    @Test func pinsLieAboveCirclesAndBelowTheLocationDotWithTheirShadowsUnderAll() {
        var s = scene([Pin(id: "a", coordinate: Self.paris, title: "A"),
                       Pin(id: "b", coordinate: Coordinate(latitude: 48.80, longitude: 2.40), title: "B", color: Color(hex: 0x34C759))])
        s.circles = [CircleOverlay(center: Self.paris, radiusMeters: 500)]
        s.location = LocationAnnotation(coordinate: Self.paris, accuracy: 50)
        let k = keys(s.compose(at: 0, tiles: NoTiles(), sprites: AllSprites()))
        let firstShadow = k.firstIndex(of: .pinShadow)!, lastShadow = k.lastIndex(of: .pinShadow)!
        let pinsAt = k.indices.filter { if case .pin? = k[$0].spec(as: PinSprite.self) { return true } else { return false } }
        let circle = k.firstIndex { $0.spec(as: CircleSprite.self) != nil }!
        let dot = k.firstIndex { if case .dot? = $0.spec(as: LocationSprite.self) { return true } else { return false } }!
        #expect(circle < firstShadow && lastShadow < pinsAt.first! && pinsAt.last! < dot)
        #expect(pinsAt.count == 2)
        // North first: the green (southern) pin is painted last, over the red one.
        #expect(k[pinsAt.last!] == .pin(Color(hex: 0x34C759)))
    }

    @Test func offScreenPinsAreCulledAndCrowdsGatherIntoCountedBubbles() {
        var g = SeededGenerator(seed: 7)
        var pins: [Pin] = []
        for i in 0..<10_000 {
            let c = Coordinate(latitude: Double.random(in: 35...60, using: &g), longitude: Double.random(in: -10...30, using: &g))
            pins.append(Pin(id: "\(i)", coordinate: c, title: ""))
        }
        let near = scene(pins, zoom: 10).compose(at: 0, tiles: NoTiles(), sprites: AllSprites())
        // z10 over Paris shows a sliver of Europe: a few pins, each drawn, no bubbles.
        #expect(near.pinsDrawn < 20 && near.pinClusters.isEmpty && near.pressablePins == nil)
        let s3 = scene(pins, zoom: 3)
        let far = s3.compose(at: 0, tiles: NoTiles(), sprites: AllSprites())
        // z3 shows all of Europe: bubbles, and every pin on screen is drawn or counted once.
        let onScreen = pins.filter {
            let p = s3.camera.screenPoint(for: $0.coordinate)
            return p.x > -22 && p.x < 822 && p.y > 0 && p.y < 636
        }.count
        #expect(onScreen == 10_000)
        #expect(!far.pinClusters.isEmpty && far.pinClusters.count < 400)
        #expect(far.pinsDrawn + far.pinClusters.reduce(0) { $0 + $1.count } == onScreen)
        #expect(far.pressablePins?.count == far.pinsDrawn)
        #expect(far.spriteCommands.contains { $0.0 == .pinCluster("100+") })
    }

    @Test func stackedPinsBelowTheBudgetAreThinnedNotClustered() {
        // 400 pins within a few points of each other at z10: one is visible, so one is drawn.
        let pins = (0..<400).map { Pin(id: "\($0)", coordinate: Coordinate(latitude: 48.8566 + Double($0 % 20) * 1e-5, longitude: 2.3522 + Double($0 / 20) * 1e-5), title: "") }
        let list = scene(pins).compose(at: 0, tiles: NoTiles(), sprites: AllSprites())
        #expect(list.pinClusters.isEmpty && list.pinsDrawn >= 1 && list.pinsDrawn <= 4)
    }

    @Test func clusterLabelsAreExactWhenSmallAndRoundedWhenLarge() {
        let table = [(2, "2"), (99, "99"), (100, "100+"), (999, "900+"), (1000, "1k+"), (12_345, "12k+")]
        for (n, label) in table { #expect(PlacedPinCluster.label(n) == label) }
        // 1,000 pins within a few metres: over the budget, one bubble that says so.
        var g = SeededGenerator(seed: 1)
        let pins = (0..<1000).map { Pin(id: "\($0)", coordinate: Coordinate(latitude: 48.8566 + Double.random(in: 0...1e-4, using: &g), longitude: 2.3522), title: "") }
        let list = scene(pins).compose(at: 0, tiles: NoTiles(), sprites: AllSprites())
        #expect(list.pinClusters.map(\.count) == [1000] && keys(list).contains(.pinCluster("1k+")) && list.pinsDrawn == 0)
    }

    @Test func theCarriedPinFloatsOverItsGroundMarkAboveTheOthers() {
        var d = SessionDriver(layers: Scene.standardLayers, zoom: 10, center: Self.paris)
        d.session.scene.showsLabels = false
        d.session.scene.showsScaleBar = false
        d.session.pins = [Pin(id: "a", coordinate: Self.paris, title: "A"),
                          Pin(id: "s", coordinate: Coordinate(latitude: 48.70, longitude: 2.3522), title: "S")]
        _ = d.session.handle(.pointerDown(.left, ScreenPoint(x: 400, y: 274), clicks: 1, []), at: 0)
        _ = d.session.handle(.pointerMoved(ScreenPoint(x: 460, y: 274)), at: 0.1)
        let list = d.session.frame(at: 0.5, tiles: NoTiles(), sprites: AllSprites())   // fully lifted
        let k = keys(list)
        let mark = k.firstIndex(of: .pinGroundMark)!
        let lastPin = k.lastIndex { if case .pin? = $0.spec(as: PinSprite.self) { return true } else { return false } }!
        #expect(mark < lastPin && lastPin == k.count - 1)   // the carried pin is the last sprite
        let (_, rect, _) = list.spriteCommands[lastPin]
        // Lifted by its own height above the landing point (60 points right of the tip).
        #expect(abs(rect.x + rect.width / 2 - 460) < 1e-6 && abs(rect.maxY - (300 - Pin.imageSize.height)) < 1e-6)
        let (_, m, _) = list.spriteCommands[mark]
        #expect(abs(m.x + m.width / 2 - 460) < 1e-6 && abs(m.y + m.height / 2 - 300) < 1e-6)
        #expect(!list.animating)                                 // held still in the air: no frames needed
    }

    @Test func theSelectedPinHasACalloutAboveItsHeadWithItsTitleAndCoordinates() {
        var d = SessionDriver(layers: Scene.standardLayers, zoom: 10, center: Self.paris)
        d.session.pins = [Pin(id: "a", coordinate: Self.paris, title: "Paris")]
        _ = d.session.handle(.pointerDown(.left, ScreenPoint(x: 400, y: 274), clicks: 1, []), at: 0)
        _ = d.session.handle(.pointerUp(.left, ScreenPoint(x: 400, y: 274)), at: 0.1)
        var s = scene([])
        s.pins = d.session.scene.pins
        s.location = LocationAnnotation(coordinate: Self.paris, accuracy: 10)
        let list = s.compose(at: 1, tiles: NoTiles(), sprites: AllSprites())
        let k = keys(list)
        #expect(k.last == .callout(title: "Paris", detail: "48.85660° N, 2.35220° E", editing: .none))
        let frame = list.calloutFrame!
        #expect(frame.maxY <= 300 - Pin.imageSize.height && abs(frame.x + frame.width / 2 - 400) <= 0.5)
        #expect(list.calloutTitleFrame!.y == frame.y)
        #expect(PinCallout.detail(for: Coordinate(latitude: -33.8688, longitude: -151.2093)) == "33.86880° S, 151.20930° W")
    }

    @Test func aNoticeSitsAtTheTopAboveEverything() {
        var facts = SessionFacts()
        facts.notice = "pins.geojson: not valid JSON"
        let list = scene([]).compose(at: 0, tiles: NoTiles(), sprites: AllSprites(), facts: facts)
        #expect(keys(list).last == .text("pins.geojson: not valid JSON   ✕", .notice))
        #expect(list.noticeFrame!.y < 20)
    }
}
