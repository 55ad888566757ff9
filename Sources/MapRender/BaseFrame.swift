import MapCore
import Platform

/// What a frame's base layer shows: its commands, and the pictures they draw (counted by the
/// stores). Two frames with equal ones have the same base pixels, so a compositor may keep
/// them from one frame to the next; a tile drawn anew under the same commands (its tracks
/// changed) makes another.
package struct BaseFrame: Equatable {
    package let commands: ArraySlice<DrawCommand>
    let pictures: Int

    package init(_ list: DrawList, tiles: TileStores, sprites: SpriteStore) {
        commands = list.commands[..<min(list.baseCount, list.commands.count)]
        pictures = tiles.generation &+ sprites.generation
    }
}
