import Foundation
import MapCore
import MapGeometry
import MapGraphics
@testable import MapTiles
@testable import MapRender
import Testing

/// The software tile store lets go of what a view no longer uses.
struct TextureStoreTests {
    static let tileBytes = 256 * 256 * 4

    func filled(_ tiles: [TileID]) -> TextureStore {
        let store = TextureStore(device: nil, tilePixels: 256, viewport: (width: 1280, height: 800))
        for t in tiles {
            let picture = Bitmap(width: 256, height: 256, pixels: [UInt32](repeating: 0xFF33_6699, count: 256 * 256), premultiplied: false)
            #expect(store.accept(TileResult(tile: t, outcome: .bitmap(picture, places: []))) == nil)
        }
        return store
    }

    @Test func onlyTheTilesInUseAreKept() {
        let tiles = (0..<5).map { TileID(z: 3, x: $0, y: 1) }
        let store = filled(tiles)
        #expect(store.held.count == 5 && store.held.bytes == 5 * Self.tileBytes)
        // A tile in use that the store never had changes nothing.
        let freed = store.keepOnly([tiles[1], tiles[3], TileID(z: 4, x: 0, y: 0)])
        #expect(freed == 3 * Self.tileBytes)
        #expect(store.held.count == 2 && store.held.bytes == 2 * Self.tileBytes)
        #expect(store.isReady(tiles[1]) && store.isReady(tiles[3]) && !store.isReady(tiles[0]) && !store.isReady(tiles[4]))
        #expect(store.bitmap(for: tiles[3])?.pixel(x: 5, y: 5) == 0xFF33_6699)
        #expect(store.keepOnly(Set(tiles)) == 0)
        #expect(store.keepOnly([]) == 2 * Self.tileBytes && store.isEmpty)
    }

    @Test func aTileLetGoIsTakenInAgainWhenItComesBack() {
        let tiles = [TileID(z: 2, x: 0, y: 0), TileID(z: 2, x: 1, y: 0)]
        let store = filled(tiles)
        store.invalidate()
        store.keepOnly([tiles[0]])
        #expect(!store.isReady(tiles[1]) && store.isReady(tiles[0]) && !store.isCurrent(tiles[0]))
        let picture = Bitmap(width: 256, height: 256, pixels: [UInt32](repeating: 0xFF00_0000, count: 256 * 256), premultiplied: false)
        #expect(store.accept(TileResult(tile: tiles[1], outcome: .bitmap(picture, places: []))) == nil)
        #expect(store.isCurrent(tiles[1]) && store.held.count == 2)
    }

    /// The labels' memo trusts equal revisions: a tile coming or going changes the store's,
    /// a new store (another map, with the same tiles in view) never repeats an old one's, and
    /// a tile turning empty under the same id changes what is drawn.
    @Test func revisionsChangeWithTilesAndAreNeverRepeatedByAnotherStore() {
        let tiles = [TileID(z: 2, x: 0, y: 0), TileID(z: 2, x: 1, y: 0)]
        let a = filled(tiles)
        let first = a.placesRevision
        #expect(a.keepOnly([tiles[0]]) > 0)
        #expect(a.placesRevision != first)
        let b = filled(tiles)
        #expect(b.placesRevision != a.placesRevision && b.placesRevision != first)
        let pictures = b.generation
        #expect(b.accept(TileResult(tile: tiles[0], outcome: .empty)) == nil)
        #expect(b.generation != pictures)
    }
}

/// Once the X server holds a tile's picture, the app lets its own copy go, and the tile goes
/// from the store when the server lets go of it.
struct ServedTilesTests {
    @Test func aTileHeldByTheServerKeepsItsSizeAndStampButNotItsPixels() {
        let store = TextureStoreTests().filled([TileID(z: 3, x: 1, y: 1)])
        let tile = TileID(z: 3, x: 1, y: 1)
        let (w, h, stamp) = store.stampedSize(for: tile)!
        // Another stamp (an older picture) changes nothing.
        store.letServerKeep(tile, stamp: stamp - 1)
        #expect(store.bitmap(for: tile) != nil)
        store.letServerKeep(tile, stamp: stamp)
        #expect(store.bitmap(for: tile) == nil && store.held.bytes < 1024)
        #expect(store.isReady(tile) && store.hasPixels(tile) && store.isCurrent(tile))
        #expect(store.stampedSize(for: tile)! == (w, h, stamp))
        #expect(store.dropServed(tile) && !store.isReady(tile))
        // A tile whose pixels the app still has is not dropped.
        let kept = TextureStoreTests().filled([tile])
        #expect(!kept.dropServed(tile) && kept.isReady(tile))
    }
}

/// Tiles the source has only as part of an ancestor (past a server's deepest zoom) are left
/// to the compositor to draw from the ancestor's picture: nothing decoded or enlarged.
struct PartsOfAncestorsTests {
    let tile = TileID(z: 8, x: 130, y: 90)
    var ancestor: TileID { tile.ancestor(atZoom: 6) }

    @Test func theWindowsDecoderLeavesAnAncestorsPartToTheCompositor() throws {
        let scaled = TileRasterizer.decoder(pixelRatio: 1, painter: VectorTilePainter(), order: .argb, background: Color(hex: 0xFFFFFF),
                                            ancestorsScaled: true)
        // Not a picture at all: it is not even looked at.
        let part = try scaled(tile, .encodedImageRegion(Data([1, 2, 3]), tile: ancestor))
        #expect(part.drawnFrom == ancestor && part.bitmap.width == 0)
        // Without it (and where drawings are painted into the tile), it is decoded and enlarged.
        let enlarged = TileRasterizer.decoder(pixelRatio: 1, painter: VectorTilePainter(), order: .argb, background: Color(hex: 0xFFFFFF))
        #expect(throws: (any Error).self) { try enlarged(tile, .encodedImageRegion(Data([1, 2, 3]), tile: ancestor)) }
    }

    @Test func theStoreHoldsTheTileAsItsAncestorsPart() {
        let store = TextureStore(device: nil, tilePixels: 256, viewport: (width: 1280, height: 800))
        let pictures = store.generation
        #expect(store.accept(TileResult(tile: tile, outcome: .fromAncestor(ancestor))) == nil)
        #expect(store.isReady(tile) && store.isCurrent(tile) && !store.hasPixels(tile))
        #expect(store.drawnFrom(tile) == ancestor && store.drawnFrom(ancestor) == nil)
        #expect(store.generation != pictures)
        #expect(store.held.bytes < 1024)
    }
}

/// The software sprite store lets go of sprites no longer drawn, and draws them again.
struct SpriteStoreKeepTests {
    @Test func onlyTheSpritesInUseAreKeptAndOneThatComesBackIsDrawnAgain() {
        let store = SpriteStore(device: nil, pixelRatio: 1)
        let keys = [SpriteKey.locationDot(Color(hex: 0x3366CC)), .pin(Color(hex: 0xCC3333)), .pin(Color(hex: 0x33CC33))]
        #expect(store.prepare(keys) == 3 && store.held.count == 3)
        let pinBytes = store.held.bytes
        let freed = store.keepOnly([keys[0]])
        #expect(freed > 0 && freed < pinBytes && store.held.count == 1)
        #expect(store.size(of: keys[0]) != nil && store.size(of: keys[1]) == nil)
        // Missing again, so the next frame asks for it and it is drawn anew.
        #expect(store.missing(keys) == [keys[1], keys[2]])
        #expect(store.prepare(keys) == 2 && store.held.count == 3 && store.held.bytes == pinBytes)
    }
}
