@testable import MapRender
import MapCore
import MapGeometry
import MapTiles
import Platform
import Foundation
import Testing

/// A render's pipeline lets go of everything once stopped: `render` and every export in the
/// window make one, and what one kept (its tiles' pictures, its sprites) was never freed —
/// fuzz-track-render grew by 8 MiB a render until it ran out of memory.
struct PipelineLifetimeTests {
    @Test func aStoppedPipelineIsFreedWithItsStores() throws {
        weak var tiles: TileStores?, sprites: SpriteStore?, rasterizer: SpriteRasterizer?, loader: TileLoader?
        do {
            let stack = TileStack(map: DebugGridSource(), background: .noMap)
            var pipeline = RenderPipeline(device: nil, viewport: (256, 256), stack: stack, pixelRatio: 1)
            let result = pipeline.load([TileID(z: 1, x: 0, y: 0)], layer: stack.mapIndex, until: MonotonicClock.now + 10)
            #expect(result.count == 1)
            tiles = pipeline.tiles
            sprites = pipeline.sprites
            rasterizer = pipeline.rasterizer
            loader = pipeline.loader
            pipeline.stop()
        }
        // The loader's workers end once they see it stopped, and let go of it then.
        let deadline = MonotonicClock.now + 10
        while loader != nil, MonotonicClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(loader == nil, "the tile loader outlives its pipeline")
        #expect(rasterizer == nil, "the sprite rasterizer outlives its pipeline")
        #expect(sprites == nil, "the sprite store outlives its pipeline")
        #expect(tiles == nil, "the tile stores outlive their pipeline")
    }
}

