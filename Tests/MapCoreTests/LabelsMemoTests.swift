import MapCore
import MapGeometry
import Testing

/// Every tile ready, each with the places given, under a revision the test sets.
final class RevisedTiles: TileAvailability {
    var places: [PlaceLabel]
    var revision: Int?
    init(_ places: [PlaceLabel], revision: Int?) { self.places = places; self.revision = revision }
    func isReady(_ tile: TileID) -> Bool { true }
    func places(in tile: TileID) -> [PlaceLabel] {
        // Each place belongs to the tile that holds it.
        places.filter { TileID(containing: WebMercator.unproject($0.point), zoom: tile.z) == tile }
    }
    var placesRevision: Int? { revision }
}

/// The labels layer places again only when what it places could differ: a store that tells
/// its revision is believed (the places are not compared), one that cannot is compared.
struct LabelsMemoTests {
    func names(_ list: DrawList) -> Set<String> {
        Set(list.spriteCommands.compactMap { $0.0.spec(as: LabelSprite.self).map { "\($0)" } })
    }

    let paris = PlaceLabel(name: "Paris", point: WebMercator.project(Coordinate(latitude: 48.85, longitude: 2.35)), population: 2_000_000, capital: true)
    let lyon = PlaceLabel(name: "Lyon", point: WebMercator.project(Coordinate(latitude: 45.76, longitude: 4.84)), population: 500_000, capital: false)

    func scene() -> Still {
        Still(camera: Camera(center: Coordinate(latitude: 47, longitude: 3), zoom: 4.2, viewportSize: ScreenSize(width: 800, height: 600)))
    }

    @Test func theSameRevisionKeepsThePlacementAndANewOnePlacesAgain() {
        let s = scene()
        let tiles = RevisedTiles([paris], revision: 1)
        let first = names(s.compose(at: 0, tiles: tiles, sprites: FixedSprites()))
        #expect(first.contains { $0.contains("Paris") }, "\(first)")
        // The places changed but the store says nothing did: the placement is kept.
        tiles.places = [paris, lyon]
        let kept = names(s.compose(at: 0, tiles: tiles, sprites: FixedSprites()))
        #expect(kept == first)
        // A new revision: placed again, Lyon too.
        tiles.revision = 2
        let again = names(s.compose(at: 0, tiles: tiles, sprites: FixedSprites()))
        #expect(again.contains { $0.contains("Lyon") }, "\(again)")
    }

    /// A placement made while its sprites were missing is not kept: when they come (the tiles
    /// and the camera the same), the labels are placed with them and drawn.
    @Test func aPlacementWaitingForSpritesIsMadeAgainWhenTheyCome() {
        let s = scene()
        let tiles = RevisedTiles([paris], revision: 1)
        #expect(names(s.compose(at: 0, tiles: tiles, sprites: NoSprites())).isEmpty)
        let later = names(s.compose(at: 0, tiles: tiles, sprites: FixedSprites()))
        #expect(later.contains { $0.contains("Paris") }, "\(later)")
    }

    @Test func aStoreWithoutRevisionsHasItsPlacesCompared() {
        let s = scene()
        let tiles = RevisedTiles([paris], revision: nil)
        _ = s.compose(at: 0, tiles: tiles, sprites: FixedSprites())
        tiles.places = [paris, lyon]
        let again = names(s.compose(at: 0, tiles: tiles, sprites: FixedSprites()))
        #expect(again.contains { $0.contains("Lyon") }, "\(again)")
    }
}

/// A pan in a window: the placement slides with the map and labels are placed again a few
/// times a second, not every frame.
struct LabelSlideTests {
    func names(_ list: DrawList) -> Set<String> {
        Set(list.spriteCommands.compactMap { $0.0.spec(as: LabelSprite.self).map { "\($0)" } })
    }

    let paris = PlaceLabel(name: "Paris", point: WebMercator.project(Coordinate(latitude: 48.85, longitude: 2.35)), population: 2_000_000, capital: true)
    /// West of the first view's edge, in the view once it has slid east.
    let brest = PlaceLabel(name: "Brest", point: WebMercator.project(Coordinate(latitude: 48.39, longitude: -4.49)), population: 140_000, capital: false)

    func still(fades: Double) -> Still {
        var s = Still(camera: Camera(center: Coordinate(latitude: 48.6, longitude: 4), zoom: 7, viewportSize: ScreenSize(width: 800, height: 600)))
        s.labelFadeSeconds = fades
        return s
    }

    @Test func aPanSlidesThePlacementAndPlacesAgainWhenItHasSlidLongEnough() throws {
        var s = still(fades: 0.2)
        let tiles = RevisedTiles([paris, brest], revision: 1)
        let first = s.compose(at: 10, tiles: tiles, sprites: FixedSprites())
        func placed(_ l: DrawList, _ name: String) -> Bool { l.placedLabels.contains { $0.place.name == name } }
        #expect(placed(first, "Paris") && !placed(first, "Brest"))
        let parisAt = try #require(first.placedLabels.first { $0.place.name == "Paris" }).anchor
        // The map slid 450 points east within the slide: Brest comes into the view, but waits.
        s.camera.pan(byScreen: 450, 0)
        let sliding = s.compose(at: 10.1, tiles: tiles, sprites: FixedSprites())
        #expect(!placed(sliding, "Brest"))
        let slid = try #require(sliding.placedLabels.first { $0.place.name == "Paris" }).anchor
        #expect(abs(slid.x - (parisAt.x + 450)) < 1e-6 && abs(slid.y - parisAt.y) < 1e-6)   // drawn where the map has it
        #expect(sliding.animating)                                      // frames go on until placed again
        // Past the slide: placed again, Brest is in.
        let again = s.compose(at: 10.1 + LabelsLayer.slideSeconds, tiles: tiles, sprites: FixedSprites())
        #expect(placed(again, "Brest"))
    }

    @Test func aStillPictureIsPlacedForItsOwnCamera() {
        var s = still(fades: 0)
        let tiles = RevisedTiles([paris, brest], revision: 1)
        _ = s.compose(at: 10, tiles: tiles, sprites: FixedSprites())
        s.camera.pan(byScreen: 450, 0)
        #expect(s.compose(at: 10.01, tiles: tiles, sprites: FixedSprites()).placedLabels.contains { $0.place.name == "Brest" })
    }
}
