import Foundation
import MapCore
import MapGeometry
import Testing
import TestSupport

/// Where pins go in a frame: order among the overlays, culling, the carried pin, the callout.
struct PinSceneTests {
    static let paris = Coordinate(latitude: 48.8566, longitude: 2.3522)

    func scene(_ pins: [Pin], zoom: Double = 10) -> Scene {
        var s = Scene(camera: Camera(center: Self.paris, zoom: zoom, viewportSize: ScreenSize(width: 800, height: 600)))
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
        let pinsAt = k.indices.filter { if case .pin = k[$0] { return true } else { return false } }
        let circle = k.firstIndex { if case .pulseCircle = $0 { return true } else { return false } }!
        let dot = k.firstIndex { if case .locationDot = $0 { return true } else { return false } }!
        #expect(circle < firstShadow && lastShadow < pinsAt.first! && pinsAt.last! < dot)
        #expect(pinsAt.count == 2)
        // North first: the green (southern) pin is painted last, over the red one.
        #expect(k[pinsAt.last!] == .pin(Color(hex: 0x34C759)))
    }

    @Test func offScreenPinsAreCulledAndStackedOnesThinned() {
        var g = SeededGenerator(seed: 7)
        var pins: [Pin] = []
        for i in 0..<10_000 {
            let c = Coordinate(latitude: Double.random(in: 35...60, using: &g), longitude: Double.random(in: -10...30, using: &g))
            pins.append(Pin(id: "\(i)", coordinate: c, title: ""))
        }
        let near = scene(pins, zoom: 10).compose(at: 0, tiles: NoTiles(), sprites: AllSprites())
        let far = scene(pins, zoom: 3).compose(at: 0, tiles: NoTiles(), sprites: AllSprites())
        // z10 over Paris shows a sliver of Europe; z3 shows all of it, thinned to one per 4-pt cell.
        #expect(near.pinsDrawn < 20)
        #expect(far.pinsDrawn > 1000 && far.pinsDrawn < 10_000)
        #expect(far.spriteCommands.filter { $0.0 == .pinShadow }.count == far.pinsDrawn)
        // Every drawn pin's tip is on screen (or within a pin of it).
        for (key, rect, _) in far.spriteCommands where key == .pin(Color(hex: 0xFF3B30)) {
            let tipX = rect.x + rect.width / 2, tipY = rect.maxY
            #expect(tipX > -22 && tipX < 822 && tipY > 0 && tipY < 636)
        }
    }

    @Test func theCarriedPinFloatsOverItsGroundMarkAboveTheOthers() {
        var c = MapController(camera: Camera(center: Self.paris, zoom: 10, viewportSize: ScreenSize(width: 800, height: 600)))
        c.pins = PinEditor(pins: [Pin(id: "a", coordinate: Self.paris, title: "A"),
                                  Pin(id: "s", coordinate: Coordinate(latitude: 48.70, longitude: 2.3522), title: "S")])
        c.handle(.pointerDown(.left, ScreenPoint(x: 400, y: 274), clicks: 1, []), at: 0)
        c.handle(.pointerMoved(ScreenPoint(x: 460, y: 274)), at: 0.1)
        c.advance(to: 0.5)                                     // fully lifted
        var s = scene([])
        s.camera = c.camera
        s.pins = c.pins
        let list = s.compose(at: 0.5, tiles: NoTiles(), sprites: AllSprites())
        let k = keys(list)
        let mark = k.firstIndex(of: .pinGroundMark)!
        let lastPin = k.lastIndex { if case .pin = $0 { return true } else { return false } }!
        #expect(mark < lastPin && lastPin == k.count - 1)   // the carried pin is the last sprite
        let (_, rect, _) = list.spriteCommands[lastPin]
        // Lifted by its own height above the landing point (60 points right of the tip).
        #expect(abs(rect.x + rect.width / 2 - 460) < 1e-6 && abs(rect.maxY - (300 - Pin.imageSize.height)) < 1e-6)
        let (_, m, _) = list.spriteCommands[mark]
        #expect(abs(m.x + m.width / 2 - 460) < 1e-6 && abs(m.y + m.height / 2 - 300) < 1e-6)
        #expect(!list.animating)                                 // held still in the air: no frames needed
    }

    @Test func theSelectedPinHasACalloutAboveItsHeadWithItsTitleAndCoordinates() {
        var c = MapController(camera: Camera(center: Self.paris, zoom: 10, viewportSize: ScreenSize(width: 800, height: 600)))
        c.pins = PinEditor(pins: [Pin(id: "a", coordinate: Self.paris, title: "Paris")])
        c.handle(.pointerDown(.left, ScreenPoint(x: 400, y: 274), clicks: 1, []), at: 0)
        c.handle(.pointerUp(.left, ScreenPoint(x: 400, y: 274)), at: 0.1)
        var s = scene([])
        s.pins = c.pins
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
        var s = scene([])
        s.notice = "pins.geojson: not valid JSON"
        let list = s.compose(at: 0, tiles: NoTiles(), sprites: AllSprites())
        #expect(keys(list).last == .text("pins.geojson: not valid JSON   ✕", .notice))
        #expect(list.noticeFrame!.y < 20)
    }
}
