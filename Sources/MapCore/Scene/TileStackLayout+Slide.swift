import FoundationEssentials
import MapGeometry
import Platform

/// A pan's frames see the same tiles, ready the same, from a centre a few points away: their
/// layout is the last one moved. `Scene.compose` keeps the last layout (`Memo`) and moves it
/// when nothing it was made from changed but the centre, rather than laying out the stack
/// again; a tile coming or going, or a row or column of tiles entering the view (on a turned
/// map, any tile the turned view comes to touch or leaves), lays it out anew.
extension TileStackLayout {
    /// A layout and what it was made from.
    struct Memo: Sendable {
        /// Everything but the centre that the layout depends on.
        struct Key: Equatable, Sendable {
            var zoom: Double, bearing: Double, viewportSize: ScreenSize, pixelRatio: Double
            var specs: [TileLayerSpec], bufferRing: Int
            /// Each store's `layoutRevision`.
            var revisions: [Int]
            /// The tiles in view, for each layer at the zoom it shows.
            var spans: [TileCover.Span]
            /// On a turned map, the tiles of those spans the turned view touches (a corner
            /// tile comes into a turned view without a new row or column), per layer.
            var touched: [Set<TileID>] = []
        }
        var key: Key
        var center: MapPoint
        /// The commands the layout added to the list, and what it set in it.
        var commands: [DrawCommand]
        var mapLayer: Int, drawingsLayer: Int?, missing: Int, coversView: Bool, wants: [TileWants]
        var shown: [[TileID]], credits: [String]
    }

    /// What the layout of `scene`'s stack through `camera` depends on, but the centre; nil
    /// when a store cannot say when its answers change.
    static func key(scene: Scene, camera: Camera, stores: [TileAvailability]) -> Memo.Key? {
        var revisions: [Int] = []
        revisions.reserveCapacity(stores.count)
        for s in stores {
            guard let r = s.layoutRevision else { return nil }
            revisions.append(r)
        }
        let rect = camera.visibleMapRect
        let specs = scene.tileLayers
        let zooms = specs.map { TileLayout.zoom(for: camera, in: $0.zoomRange) }
        let spans = zooms.map { TileCover.span(covering: rect, tileZoom: $0) }
        let touched = camera.isTurned ? zooms.map { Set(camera.tilesInView(atZoom: $0)) } : []
        return Memo.Key(zoom: camera.zoom, bearing: camera.bearing, viewportSize: camera.viewportSize, pixelRatio: camera.pixelRatio, specs: specs,
                        bufferRing: scene.bufferRing, revisions: revisions, spans: spans, touched: touched)
    }

    /// The stack laid out into `list`: the memo's layout moved to `camera` when only the
    /// centre changed, else laid out anew (and kept in `memo` for the next frame).
    static func laidOut(scene: Scene, camera: Camera, stores: [TileAvailability], memo: LockedValue<Memo>,
                        into list: inout DrawList) -> TileStackLayout {
        let key = key(scene: scene, camera: camera, stores: stores)
        if let key, let m = memo.get(), m.key == key {
            let k = camera.scale
            // The centre's move on the plane, as the view sees it (turned with the map).
            let (dx, dy) = camera.turn((m.center.x - camera.center.x) * k, (m.center.y - camera.center.y) * k)
            if dx.isFinite, dy.isFinite, abs(dx) < camera.viewportSize.width, abs(dy) < camera.viewportSize.height {
                list.mapLayer = m.mapLayer
                list.commands += dx == 0 && dy == 0 ? m.commands : m.commands.map { $0.moved(dx, dy) }
                list.missingTiles += m.missing
                list.tilesCoverView = m.coversView
                list.drawingsLayer = m.drawingsLayer
                list.tileWants = m.wants
                return TileStackLayout(scene: scene, stores: stores, shown: m.shown, credits: m.credits)
            }
        }
        let start = list.commands.count
        let stack = TileStackLayout(scene: scene, camera: camera, stores: stores, into: &list)
        if let key {
            memo.set(Memo(key: key, center: camera.center, commands: Array(list.commands[start...]), mapLayer: list.mapLayer,
                          drawingsLayer: list.drawingsLayer, missing: list.missingTiles, coversView: list.tilesCoverView,
                          wants: list.tileWants, shown: stack.shown, credits: stack.credits))
        }
        return stack
    }
}

extension DrawCommand {
    /// The same command `dx`, `dy` points further right and down (the clear stays).
    func moved(_ dx: Double, _ dy: Double) -> DrawCommand {
        func m(_ r: ScreenRect) -> ScreenRect { ScreenRect(x: r.x + dx, y: r.y + dy, width: r.width, height: r.height) }
        switch self {
        case .clear: return self
        case let .tile(id, layer, source, destination, opacity, degrees):
            return .tile(id, layer: layer, source: source, destination: m(destination), opacity: opacity, degrees: degrees)
        case let .fillRect(r, c): return .fillRect(m(r), c)
        case let .sprite(key, r, opacity): return .sprite(key, destination: m(r), opacity: opacity)
        case let .rotatedSprite(key, r, opacity, degrees): return .rotatedSprite(key, destination: m(r), opacity: opacity, degrees: degrees)
        }
    }
}
