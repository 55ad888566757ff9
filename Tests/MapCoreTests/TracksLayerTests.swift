import Foundation
@testable import MapChrome
@testable import MapCore
import MapGeometry
import Testing

/// Ready tiles, some of them pictures from before the map's content changed.
struct StaleTiles: TileAvailability {
    var ready: Set<TileID>, stale: Set<TileID>
    func isReady(_ tile: TileID) -> Bool { ready.contains(tile) }
    func isCurrent(_ tile: TileID) -> Bool { ready.contains(tile) && !stale.contains(tile) }
}

/// The tracks layer's model, the flight to what was opened, and old pictures standing in.
struct TracksLayerTests {
    let size = ScreenSize(width: 800, height: 600)

    func file(_ name: String, waypoints: [Waypoint] = [], points: [(Double, Double)] = []) -> TrackFile {
        var p = TrackPoints()
        for (lat, lon) in points { p.append(latitude: lat, longitude: lon, elevation: .nan, time: .nan) }
        let track = Track(kind: .track, segments: points.isEmpty ? [] : [0..<points.count], points: p)
        let lines = points.isEmpty ? [] : [TrackLine(track: track, geometry: TrackGeometry(track), style: TrackStyle(color: TrackStyle.palette[0]))]
        return TrackFile(path: "/x/" + name, lines: lines, waypoints: waypoints)
    }

    @Test func everyChangeToWhatTilesShowIsANewRevision() {
        var layer = TracksLayer()
        #expect(layer.revision == 0 && !layer.hasTiledContent)
        layer.add(file("a.gpx", points: [(46, 7), (46.1, 7.1)]))
        #expect(layer.revision == 1 && layer.hasTiledContent)
        layer.setHidden(true, at: 0)
        #expect(layer.revision == 2 && !layer.hasTiledContent && layer.shownLines.isEmpty)
        layer.setHidden(true, at: 0) // no change, no new revision
        #expect(layer.revision == 2)
        layer.setHidden(false, at: 0)
        layer.close(at: 0)
        #expect(layer.revision == 4 && layer.files.isEmpty)
        layer.close(at: 3) // out of range: nothing
        #expect(layer.revision == 4)
    }

    @Test func waypointsArePinsWithNames() {
        let here = Coordinate(latitude: 46, longitude: 7)
        var scene = Still(camera: Camera(center: here, zoom: 10, viewportSize: size))
        scene.tracks.add(file("w.gpx", waypoints: [Waypoint(latitude: 46, longitude: 7, name: "Hut"),
                                                    Waypoint(latitude: 10, longitude: 7, name: "Far away")]))
        let list = scene.compose(at: 0, tiles: ReadyTiles(ready: []))
        // The pin (not yet rasterized) and its name are asked for; the far one is culled.
        #expect(list.wantedSprites.contains(.pin(TrackStyle.palette[0])))
        #expect(list.wantedSprites.contains(.text("Hut", .place)))
        #expect(!list.wantedSprites.contains(.text("Far away", .place)))
    }

    @Test func aStalePictureIsDrawnButAskedForAgain() {
        let scene = Still(camera: Camera(center: Coordinate(latitude: 10, longitude: 10), zoom: 4, viewportSize: size), tileZoomRange: 0...18)
        let visible = TileCover.tiles(covering: scene.camera.visibleMapRect, tileZoom: 4).map(\.wrapped)
        let all = ReadyTiles(ready: Set(visible))
        let fresh = scene.compose(at: 0, tiles: all)
        #expect(fresh.missingTiles == 0 && !fresh.wantedTiles.contains(visible[0]))
        let stale = scene.compose(at: 0, tiles: StaleTiles(ready: Set(visible), stale: [visible[0]]))
        // Same picture on screen, but not fully drawn until the new one arrives.
        #expect(stale.tileCommands.map(\.0) == fresh.tileCommands.map(\.0))
        #expect(stale.missingTiles == 1 && stale.wantedTiles.first == visible[0])
    }

    @Test func aFlightLeavesFromHereArrivesThereAndRisesBetween() {
        let from = WebMercator.project(Coordinate(latitude: 48.85, longitude: 2.35))
        let to = WebMercator.project(Coordinate(latitude: 35.68, longitude: 139.69))
        let f = FlyTransition(from: from, zoom: 12, to: to, zoom: 11, viewWidth: 1280, at: 10)
        #expect(f.duration >= 0.5 && f.duration <= 2.5)
        let start = f.view(at: 10), end = f.view(at: 10 + f.duration), middle = f.view(at: 10 + f.duration / 2)
        #expect(abs(start.center.x - from.x) < 1e-9 && abs(start.zoom - 12) < 1e-9)
        #expect(end.center == to && end.zoom == 11)
        // Half-way round the world, it climbs far out to see both ends.
        #expect(middle.zoom < 6, "\(middle.zoom)")
        // The centre moves monotonically toward the target.
        var last = -1.0
        for k in 0...20 {
            let c = f.view(at: 10 + f.duration * Double(k) / 20).center
            let along = (c.x - from.x) / (to.x - from.x)
            #expect(along >= last - 1e-9)
            last = along
        }
        // Zoom only: the centre stays put.
        let z = FlyTransition(from: from, zoom: 5, to: from, zoom: 9, viewWidth: 1280, at: 0)
        #expect(z.view(at: z.duration / 2).center == from && z.view(at: z.duration).zoom == 9)
    }

    @Test func openingJumpsOrFliesToShowTheFile() {
        var c = MapController(camera: Camera(center: Coordinate(latitude: 0, longitude: 0), zoom: 3, viewportSize: size))
        let rect = file("a.gpx", points: [(46, 7), (46.2, 7.3)]).bounds!
        c.show(rect, animated: false, at: 0)
        #expect(abs(c.camera.center.x - rect.center.x) < 1e-9 && c.camera.zoom > 9 && c.camera.zoom < 12)
        var d = MapController(camera: Camera(center: Coordinate(latitude: 0, longitude: 0), zoom: 3, viewportSize: size))
        d.show(rect, animated: true, at: 0)
        #expect(d.isAnimating(at: 0.1) && d.camera.zoom == 3)
        d.advance(to: 5)
        #expect(!d.isAnimating(at: 5) && abs(d.camera.center.x - rect.center.x) < 1e-9 && abs(d.camera.zoom - c.camera.zoom) < 1e-9)
    }

    /// The drop one level down from the window system (SDL_DROPFILE becomes this event in
    /// the window's EventTranslator): the controller asks the host to open the file. Ctrl+O
    /// is the app's verb: unbound in the library's table, the app's command where it binds it.
    @Test func aDroppedFileAndCtrlOAskTheHostToOpen() {
        var c = MapController(camera: Camera(center: Coordinate(latitude: 0, longitude: 0), zoom: 3, viewportSize: size))
        #expect(c.handle(.fileDropped("/home/me/ride.gpx"), at: 0) == [.open("/home/me/ride.gpx")])
        #expect(c.handle(.keyDown(.letter("o"), .control), at: 0) == [])
        c.keys = KeyBindings.all + [KeyBinding(keys: [.letter("o")], modifiers: .control, command: .custom("open"), label: "Ctrl+O", help: "open")]
        #expect(c.handle(.keyDown(.letter("o"), .control), at: 0) == [.command(.custom("open"), .letter("o"))])
        #expect(c.handle(.keyDown(.letter("o"), []), at: 0) == [])
        #expect(c.handle(.keyDown(.letter("c"), []), at: 0) == [.command(.trackColors, .letter("c"))])
        #expect(c.handle(.keyDown(.letter("c"), .control), at: 0) == [.command(.copyPosition, .letter("c"))])
        #expect(c.handle(.keyDown(.letter("c"), .alt), at: 0) == [])
    }

    /// The list's buttons: Hide/Show toggles, ✕ closes, the name flies to the file (showing
    /// it if hidden); names of other layers' buttons are not the tracks layer's.
    @Test func theListsButtonsHideCloseAndGoTo() {
        var layer = TracksLayer()
        layer.add(file("a.gpx", points: [(46, 7), (46.1, 7.1)]))
        layer.add(file("b.gpx", points: [(47, 8), (47.1, 8.1)]))
        let a = layer.files[0].id, b = layer.files[1].id
        let context = InputContext(camera: Camera(center: Coordinate(latitude: 46, longitude: 7), zoom: 5, viewportSize: size),
                                   time: 0, lastFrame: DrawList(), facts: SessionFacts(), pinsBusy: false)
        func press<T: Hashable & Sendable>(_ id: T) -> [LayerAction]? { layer.press(ButtonID(id), context: context) }
        var result = press(TracksLayer.ListButton.toggle(a))
        #expect(result == [.changed] && layer.files[0].hidden)
        result = press(TracksLayer.ListButton.go(a))
        #expect(result == [.show(layer.files[0].bounds!)] && !layer.files[0].hidden)
        result = press(TracksLayer.ListButton.close(b))
        #expect(result == [.changed] && layer.files.map(\.name) == ["a.gpx"])
        result = press(TracksLayer.ListButton.close(b))
        #expect(result == nil)
        result = press(SourcesLayer.Button.toggle)
        #expect(result == nil && layer.files.count == 1)
    }
}
