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
