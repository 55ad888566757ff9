import MapGeometry
@testable import MapCore

/// A scene and the camera it is seen through: the still pictures the scene tests compose (a
/// session keeps its camera apart from its scene in the same way).
@dynamicMemberLookup
struct Still {
    var scene: Scene
    var camera: Camera

    init(camera: Camera, tileZoomRange: ClosedRange<Int> = 0...19, layers: [any MapLayer] = Scene.standardLayers) {
        scene = Scene(tileZoomRange: tileZoomRange, layers: layers)
        self.camera = camera
    }

    subscript<T>(dynamicMember path: WritableKeyPath<Scene, T>) -> T {
        get { scene[keyPath: path] }
        set { scene[keyPath: path] = newValue }
    }

    func compose(at t: Double, tiles: TileAvailability, sprites: SpriteAvailability = NoSprites(), facts: SessionFacts = SessionFacts()) -> DrawList {
        scene.compose(at: t, camera: camera, tiles: tiles, sprites: sprites, facts: facts)
    }

    func compose(at t: Double, layers: [TileAvailability], sprites: SpriteAvailability = NoSprites(), facts: SessionFacts = SessionFacts()) -> DrawList {
        scene.compose(at: t, camera: camera, layers: layers, sprites: sprites, facts: facts)
    }

    func screenRect(of tile: TileID) -> ScreenRect { TileLayout.screenRect(of: tile, camera: camera) }
}
