import FoundationEssentials
import Glibc
import MapCore
import MapData
import MapGeometry
import MapRender
import MapTiles
import Platform

// Past the readers: a hostile track file read as the window reads it, then drawn as `render`
// and the window draw it — coloured by speed and by elevation, with its legend, its
// statistics callout, its profile and the list of files, in metres and in feet. Any trap on
// the way (an Int of a height of 1e20, an abs of Int.min) kills the run. The first byte picks
// the file's kind and what is shown; the rest is the file.
func fuzzTrackRender(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard count > 1 else { return 0 }
    let choice = Int(start.load(as: UInt8.self))
    let ext = ["gpx", "kml", "geojson", "csv"][choice % 4]
    let path = "/tmp/meridian-fuzz-render-\(getpid()).\(ext)"
    guard FileIO.writeBytes(UnsafeRawBufferPointer(start: start + 1, count: count - 1), to: path) else { return 0 }
    defer { unlink(path) }
    guard let (file, _) = try? TrackFile.read(URL(fileURLWithPath: path), color: TrackStyle.palette[0]), let bounds = file.bounds else { return 0 }
    let size = ScreenSize(width: 320, height: 240)
    var scene = Scene()
    let stack = TileStack(map: DebugGridSource(), background: Color(hex: 0xE8E6E1))
    scene.showTiles(from: stack)
    scene.tracks.add(file)
    scene.tracks.setDetails(file.lines.map(TrackDetails.init), forFile: file.id)
    scene.tracks.showsList = choice & 4 != 0
    var session = MapSession(scene: scene, camera: Camera(center: WebMercator.unproject(bounds.center), zoom: 10, viewportSize: size))
    session.imperialUnits = choice & 8 != 0
    session.show(bounds, animated: false, at: 0)
    if choice & 16 != 0, let first = file.lines.first?.track.points, first.count > 0 {
        _ = session.scene.tracks.select(at: session.camera.screenPoint(for: Coordinate(latitude: first.latitude[0], longitude: first.longitude[0])),
                                        camera: session.camera)
    }
    if choice & 32 != 0 { _ = session.scene.tracks.toggleProfile() }
    guard let renderer = try? OffscreenRenderer(pixelWidth: Int(saturating: size.width), pixelHeight: Int(saturating: size.height), pixelRatio: 1) else { return 0 }
    for mode in [TrackColorMode.speed, .elevation] {
        _ = session.scene.tracks.setColorMode(mode)
        _ = try? renderer.render(&session, stack: stack, at: 0, timeout: 5)
    }
    return 0
}
