import FoundationEssentials
import Glibc
import MapGeometry

/// Lines, shapes and named points from opened files (GPX, KML, GeoJSON, CSV).
///
/// Lines and shapes are drawn into the map's tile pictures by the tile workers (MapGraphics'
/// `TrackOverlay`), so they are exactly attached to the map in every frame of a pan or a zoom
/// animation, and a frame costs the same whether a track has a hundred points, a million or
/// none. Waypoints are read-only pins with their names, composed per frame like pins.
public struct TracksLayer: MapLayer {
    public var files: [TrackFile] = []
    /// Changes whenever what the tiles show changes (a file opened, closed, hidden,
    /// recoloured): the window then draws the tiles anew, showing the old pictures until the
    /// new ones arrive.
    public private(set) var revision = 0

    /// Waypoint names are left out beyond this many waypoints on screen.
    static let nameBudget = 150

    public init(files: [TrackFile] = []) {
        self.files = files
        revision = files.isEmpty ? 0 : 1
    }

    public var levels: [LayerLevel] { [.overlay] }

    /// Place labels keep clear of waypoint pins and their names.
    public func labelExclusions(_ context: LayerContext) -> [ScreenRect] {
        let size = Pin.imageSize
        return visibleWaypoints(context).map { tip, _, name in
            let nameWidth = name.map { LabelPlacer.estimatedSize($0, .place).width } ?? 0
            return ScreenRect(x: tip.x - size.width / 2, y: tip.y - size.height, width: size.width + nameWidth, height: size.height)
        }
    }

    /// The shown waypoints on screen: pin tip, colour, name.
    private func visibleWaypoints(_ context: LayerContext) -> [(ScreenPoint, Color, String?)] {
        let cam = context.camera
        let size = Pin.imageSize
        var shown: [(ScreenPoint, Color, String?)] = []
        for file in files where !file.hidden && !file.waypoints.isEmpty {
            let color = file.lines.first?.style.color ?? file.color
            for w in file.waypoints {
                let tip = cam.screenPoint(for: Coordinate(latitude: w.latitude, longitude: w.longitude))
                let rect = ScreenRect(x: tip.x - size.width / 2, y: tip.y - size.height, width: size.width + 200, height: size.height)
                guard rect.intersects(context.viewRect) else { continue }
                shown.append((tip, color, w.name))
            }
        }
        return shown
    }

    /// The shown files' lines and shapes, what the tiles draw.
    public var shownLines: [TrackLine] { files.filter { !$0.hidden }.flatMap(\.lines) }
    public var shownAreas: [AreaShape] { files.filter { !$0.hidden }.flatMap(\.areas) }

    /// Whether anything is drawn into the tiles.
    public var hasTiledContent: Bool { files.contains { !$0.hidden && (!$0.lines.isEmpty || !$0.areas.isEmpty) } }

    public mutating func add(_ file: TrackFile) {
        files.append(file)
        revision += 1
    }

    public mutating func close(at index: Int) {
        guard files.indices.contains(index) else { return }
        files.remove(at: index)
        revision += 1
    }

    public mutating func setHidden(_ hidden: Bool, at index: Int) {
        guard files.indices.contains(index), files[index].hidden != hidden else { return }
        files[index].hidden = hidden
        revision += 1
    }

    public func compose(at level: LayerLevel, into list: inout DrawList, context: LayerContext) {
        composeWaypoints(into: &list, context: context)
    }

    /// Waypoints north to south (the southern pin in front), each file in its colour, names
    /// to the right of the pin's head while there are few enough to read.
    private func composeWaypoints(into list: inout DrawList, context: LayerContext) {
        let size = Pin.imageSize
        var shown = visibleWaypoints(context)
        shown.sort { $0.0.y < $1.0.y }
        let names = shown.count <= Self.nameBudget
        for (tip, color, name) in shown {
            context.place(.pin(color), rect: ScreenRect(x: tip.x - size.width / 2, y: tip.y - size.height, width: size.width, height: size.height),
                          opacity: 1, into: &list)
            guard names, let name, !name.isEmpty else { continue }
            let key = SpriteKey.text(name, .place)
            if let s = context.sprites.size(of: key) {
                // Beside the head, vertically centred on it.
                let head = tip.y - size.height + size.width / 2
                list.commands.append(.sprite(key, destination: ScreenRect(x: tip.x + size.width / 2 + 1, y: head - s.height / 2,
                                                                          width: s.width, height: s.height), opacity: 1))
            } else {
                list.want(key)
            }
        }
    }
}
