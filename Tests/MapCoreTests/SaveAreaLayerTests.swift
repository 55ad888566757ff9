import Foundation
@testable import MapChrome
@testable import MapCore
import MapGeometry
import Testing

/// "Save this area offline…": key A opens it over what is in view, the panel says what the
/// area will take, Save asks the app to save it, and the progress the app reports is shown
/// with a Cancel. Driven as the window drives it, with no window.
struct SaveAreaLayerTests {
    typealias Layer = SaveAreaLayer
    let offer = SaveAreaLayer.Offer(title: "Test streets", zooms: 0...16, bytesPerTile: 20_000)

    func session(offer: SaveAreaLayer.Offer?, zoom: Double = 12) -> SessionDriver {
        var layer = SaveAreaLayer()
        layer.offer = offer
        return SessionDriver(layers: [layer], zoom: zoom, center: Coordinate(latitude: 46.37, longitude: 13.74))
    }

    func texts(_ s: inout SessionDriver) -> [String] {
        s.frame().spriteCommands.compactMap { command -> String? in
            if case let .text(t, _)? = command.0.spec(as: LabelSprite.self) { return t }
            return nil
        }
    }

    func requests(_ effects: [SessionEffect]) -> [SaveAreaLayer.Request] {
        effects.compactMap { effect -> SaveAreaLayer.Request? in
            if case let .layer(r) = effect { return r.as(SaveAreaLayer.Request.self) }
            return nil
        }
    }

    @Test(arguments: [
        // The whole world at zooms 0–2: 1 + 4 + 16.
        (SaveAreaLayer.Area(west: -180, south: -85.05, east: 180, north: 85.05, zooms: 0...2), UInt64(21)),
        // A box inside one z0–z3 tile: one tile a zoom.
        (SaveAreaLayer.Area(west: 10, south: 30, east: 11, north: 31, zooms: 0...3), UInt64(4)),
        // Across the antimeridian at z3: columns 7 and 0 (one each side), rows 4 (south of the equator).
        (SaveAreaLayer.Area(west: 170, south: -20, east: -170, north: -10, zooms: 3...3), UInt64(2)),
        // The same box at z0 is the one world tile, not two.
        (SaveAreaLayer.Area(west: 170, south: -20, east: -170, north: -10, zooms: 0...0), UInt64(1)),
    ])
    func tileCountsAreKnown(area: SaveAreaLayer.Area, tiles: UInt64) {
        #expect(SaveAreaLayer.tileCount(area) == tiles)
    }

    /// A street map's tiles are numbered a zoom shallower than drawn: the offer counts what
    /// will be fetched (the world drawn at z1…3 is its tiles at z0…2, 21 of them).
    @Test func aStreetMapCountsItsOwnTiles() {
        let world = SaveAreaLayer.Area(west: -180, south: -85.05, east: 180, north: 85.05, zooms: 1...3)
        let street = SaveAreaLayer.Offer(title: "Streets", zooms: 0...15, bytesPerTile: 30_000, zoomShift: 1)
        #expect(street.tiles(in: world) == 21)
        #expect(SaveAreaLayer.Offer(title: "Raster", zooms: 0...18, bytesPerTile: 20_000).tiles(in: world) == 84)
    }

    @Test func aOpensThePanelOverTheViewAndSaveAsksTheAppForTheOutlinedArea() throws {
        var s = session(offer: offer)
        #expect(s.buttons(of: Layer.Button.self).isEmpty)
        #expect(s.key(.letter("a")).contains(.redraw))
        #expect(s.buttons(of: Layer.Button.self) == [.shallower, .deeper, .save, .close])
        let shown = texts(&s)
        #expect(shown.contains("Save this area offline: Test streets"))
        // At z12 the deepest zoom offered is three past the view.
        #expect(shown.contains { $0.hasPrefix("Zooms 0 to 15 · ") && $0.hasSuffix(" MB") })
        let saved = requests(s.click(Layer.Button.save))
        guard case let .save(area)? = saved.first else { Issue.record("no save request: \(saved)"); return }
        // The outlined area: around the centre, inside the view, the zooms chosen.
        let view = s.session.camera
        let nw = view.coordinate(for: ScreenPoint(x: 0, y: 0)), se = view.coordinate(for: ScreenPoint(x: 800, y: 600))
        #expect(area.west > nw.longitude && area.east < se.longitude && area.north < nw.latitude && area.south > se.latitude)
        #expect(area.west < 13.74 && area.east > 13.74 && area.south < 46.37 && area.north > 46.37)
        #expect(area.zooms == 0...15)
        // Saving: the progress panel with its Cancel, the area outlined where it is.
        #expect(s.buttons(of: Layer.Button.self) == [.stop])
        #expect(texts(&s).contains("Saving Test streets offline"))
    }

    /// With Routino at hand the panel offers "Directions too"; the choice is the layer's, read
    /// by the app when it saves; the work's own line replaces the tiles' count while it runs.
    @Test func directionsTooIsOfferedAndToggled() throws {
        var layer = SaveAreaLayer()
        layer.offer = offer
        layer.offersDirections = true
        var s = SessionDriver(layers: [layer], zoom: 12, center: Coordinate(latitude: 46.37, longitude: 13.74))
        _ = s.key(.letter("a"))
        #expect(s.buttons(of: Layer.Button.self) == [.directions, .shallower, .deeper, .save, .close])
        #expect(texts(&s).contains("☐ Directions too"))
        _ = s.click(Layer.Button.directions)
        #expect(s.session.scene.layer(SaveAreaLayer.self)?.directions == true)
        #expect(texts(&s).contains("☑ Directions too"))
        s.session.update(SaveAreaLayer.self, at: s.t) {
            var p = SaveAreaLayer.Progress(title: "x", area: SaveAreaLayer.Area(west: 13, south: 46, east: 14, north: 47, zooms: 0...3), done: 0, total: 0, bytes: 0, secondsLeft: nil)
            p.headline = "Directions offline for “Bled”"
            p.detail = "Downloading Slovenia: 12 MB of 40 MB"
            $0.progress = p
            return [.changed]
        }
        #expect(texts(&s).contains("Downloading Slovenia: 12 MB of 40 MB"))
        #expect(s.buttons(of: Layer.Button.self) == [.stop])
    }

    @Test func theDeepestZoomIsChosenWithinWhatTheMapOffers() {
        var s = session(offer: offer)
        _ = s.key(.letter("a"))
        for _ in 0..<5 { _ = s.click(Layer.Button.deeper) }
        #expect(texts(&s).contains { $0.hasPrefix("Zooms 0 to 16 · ") })
        for _ in 0..<20 { _ = s.click(Layer.Button.shallower) }
        #expect(texts(&s).contains { $0.hasPrefix("Zooms 0 to 0 · 1 tiles") })
    }

    @Test func aMapThatCannotBeSavedSaysWhyAndOffersNoSave() {
        var s = session(offer: SaveAreaLayer.Offer(title: "OpenStreetMap", zooms: 0...19, bytesPerTile: 20_000,
                                                   refusal: "OpenStreetMap's tile policy forbids bulk downloading"))
        _ = s.key(.letter("a"))
        #expect(s.buttons(of: Layer.Button.self) == [.close])
        #expect(texts(&s).contains("OpenStreetMap's tile policy forbids bulk downloading"))
        #expect(requests(s.key(.enter)).isEmpty)
        _ = s.key(.escape)
        #expect(s.buttons(of: Layer.Button.self).isEmpty)
    }

    @Test func tooManyTilesAreNotOfferedForSaving() {
        var s = session(offer: offer, zoom: 3)
        _ = s.key(.letter("a"))
        for _ in 0..<20 { _ = s.click(Layer.Button.deeper) }
        #expect(!s.buttons(of: Layer.Button.self).contains(.save))
        #expect(texts(&s).contains { $0.contains("more than one area may hold (250,000 tiles, 4.0 GB)") }, "\(texts(&s))")
    }

    /// The estimate is weighed against the disk: an area larger than the space free is not
    /// offered, and the panel says both numbers; one that fits says what is free.
    @Test func anAreaLargerThanTheFreeSpaceIsNotOffered() {
        var tight = offer
        tight.freeBytes = 3_000_000
        var s = session(offer: tight, zoom: 12)
        _ = s.key(.letter("a"))
        #expect(!s.buttons(of: Layer.Button.self).contains(.save))
        #expect(texts(&s).contains { $0.contains("and the disk has 3.0 MB free") }, "\(texts(&s))")
        _ = s.key(.enter)
        #expect(s.session.scene.layer(Layer.self)?.progress == nil, "Enter does not save it either")
        var roomy = offer
        roomy.freeBytes = 50_000_000_000
        var t = session(offer: roomy, zoom: 12)
        _ = t.key(.letter("a"))
        #expect(t.buttons(of: Layer.Button.self).contains(.save))
        #expect(texts(&t).contains { $0.hasSuffix("· 50.0 GB free") }, "\(texts(&t))")
    }

    @Test func progressIsReportedAndCancelAsksTheAppToStop() {
        var s = session(offer: offer)
        _ = s.key(.letter("a"))
        _ = s.key(.enter)
        s.session.update(SaveAreaLayer.self, at: 10) { $0.report(done: 1234, total: 5000, bytes: 12_300_000, secondsLeft: 125); return [.changed] }
        #expect(texts(&s).contains("1,234 of 5,000 tiles · 12.3 MB · about 2 min left"))
        // A again while saving says so rather than opening a second panel.
        let again = s.key(.letter("a"))
        #expect(again.contains { effect in
            if case .notice = effect { return true }
            return false
        })
        #expect(requests(s.click(Layer.Button.stop)) == [.cancel])
        s.session.update(SaveAreaLayer.self, at: 11) { $0.finish(); return [.changed] }
        #expect(s.buttons(of: Layer.Button.self).isEmpty)
    }

    @Test(arguments: [(UInt64(850), "1 KB"), (UInt64(850_000), "850 KB"), (UInt64(12_345_678), "12.3 MB"),
                      (UInt64(345_000_000), "345 MB"), (UInt64(1_240_000_000), "1.2 GB")])
    func sizesReadAsPeopleSayThem(bytes: UInt64, text: String) {
        #expect(SaveAreaLayer.bytes(bytes) == text)
    }
}
