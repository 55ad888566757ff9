import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// Lines, shapes and named points from opened files (GPX, KML, GeoJSON, CSV).
///
/// Lines and shapes are drawn into the map's tile pictures by the tile workers (a `LineOverlay`), so they are exactly attached to the map in every frame of a pan or a zoom
/// animation, and a frame costs the same whether a track has a hundred points, a million or
/// none. Waypoints are read-only pins with their names, composed per frame like pins.
public struct TracksLayer: MapLayer {
    public var files: [TrackFile] = []
    /// Changes whenever what the tiles show changes (a file opened, closed, hidden,
    /// recoloured): the window then draws the tiles anew, showing the old pictures until the
    /// new ones arrive.
    public private(set) var revision = 0
    /// When the last change of `revision` touched only a region (the trail grew): what the
    /// tiles need not draw again outside it.
    public internal(set) var lastChange: TileChange?
    /// The live position's trail among `files`, once it has a line.
    public internal(set) var trailID: Int?
    /// What the lines' colours show, and the ramp for it over the shown lines (nil when
    /// plain, or when no line has the values).
    public private(set) var colorMode = TrackColorMode.plain
    public private(set) var ramp: TrackColorRamp?
    /// The track clicked, whose statistics the callout shows.
    public var selection: TrackSelection?
    /// The elevation profile panel along the bottom (key E), and the point of its track
    /// the pointer is over (on the graph or on the track).
    public internal(set) var showsProfile = false
    public internal(set) var profileHover: Int?
    /// The list of open files, top right (key T): each can be hidden, shown or closed.
    public var showsList = false

    /// Waypoint names are left out beyond this many waypoints on screen.
    static let nameBudget = 150

    public init(files: [TrackFile] = []) {
        self.files = files
        revision = files.isEmpty ? 0 : 1
    }

    public var levels: [LayerLevel] { [.overlay, .callout, .chrome] }

    /// Place labels keep clear of waypoint pins and their names.
    public func labelExclusions(_ context: LayerContext) -> [ScreenRect] {
        let size = Pin.imageSize
        return visibleWaypoints(context).map { tip, _, name in
            let nameWidth = name.map { LabelPlacer.estimatedSize($0, .place).width } ?? 0
            return ScreenRect(x: tip.x - size.width / 2, y: tip.y - size.height, width: size.width + nameWidth, height: size.height)
        } + [legendFrames(context)?.plate, listPlate(context)].compactMap { $0 }
    }

    /// The shown waypoints on screen: pin tip, colour, name.
    private func visibleWaypoints(_ context: LayerContext) -> [(ScreenPoint, Color, String?)] {
        let cam = context.camera
        let size = Pin.imageSize
        var shown: [(ScreenPoint, Color, String?)] = []
        for file in files where !file.hidden && !file.waypoints.isEmpty {
            let color = file.shownColor
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
        changed()
    }

    public mutating func close(at index: Int) {
        guard files.indices.contains(index) else { return }
        files.remove(at: index)
        changed()
    }

    public mutating func setHidden(_ hidden: Bool, at index: Int) {
        guard files.indices.contains(index), files[index].hidden != hidden else { return }
        files[index].hidden = hidden
        changed()
    }

    /// Colours the lines by `mode`; false (and plain) when no shown line has its values.
    @discardableResult
    public mutating func setColorMode(_ mode: TrackColorMode) -> Bool {
        let fitted = TrackColorRamp.fitting(mode, lines: shownLines)
        let ok = mode == .plain || fitted != nil
        let newMode = ok ? mode : .plain
        if newMode != colorMode || fitted != ramp {
            colorMode = newMode
            ramp = fitted
            lastChange = nil
            revision += 1
        }
        return ok
    }

    /// The next mode the shown lines have values for, after the current one (key C).
    public mutating func cycleColorMode() -> TrackColorMode {
        let all = TrackColorMode.allCases
        var k = all.firstIndex(of: colorMode)!
        repeat {
            k = (k + 1) % all.count
            if setColorMode(all[k]) { return all[k] }
        } while all[k] != colorMode
        return colorMode
    }

    /// Anything shown changed: the tiles are drawn anew, and the ramp fits what is shown.
    /// Lines and shapes go into the tiles.
    public var tileContent: TileContent? {
        let layer = self
        return TileContent(revision: revision, change: lastChange) {
            layer.hasTiledContent ? LineOverlay(lines: layer.shownLines, areas: layer.shownAreas, ramp: layer.ramp) : nil
        }
    }

    mutating func changed() {
        lastChange = nil
        revision += 1
        if colorMode != .plain { setColorMode(colorMode) }
    }

    public func compose(at level: LayerLevel, into list: inout DrawList, context: LayerContext) {
        switch level {
        case .chrome:
            composeLegend(into: &list, context: context)
            composeProfile(into: &list, context: context)
            composeList(into: &list, context: context)
        case .callout:
            composeProfileMarker(into: &list, context: context)
            composeCallout(into: &list, context: context)
        default: composeWaypoints(into: &list, context: context)
        }
    }

    /// The colour mode's legend, bottom left above the scale bar: its name, the ramp, and
    /// the values at its ends.
    private func composeLegend(into list: inout DrawList, context: LayerContext) {
        guard let ramp else { return }
        guard let frames = legendFrames(context) else {
            for key in legendKeys(ramp, imperial: context.facts.imperialUnits) where context.sprites.size(of: key) == nil { list.want(key) }
            return
        }
        list.commands.append(.fillRect(frames.plate, Color(hex: 0xFFFFFF, alpha: 0.85)))
        for (key, rect) in frames.parts { list.commands.append(.sprite(key, destination: rect, opacity: 1)) }
    }

    private func legendKeys(_ ramp: TrackColorRamp, imperial: Bool) -> [SpriteKey] {
        [.text(ramp.mode.title, .chrome), SpriteKey(TrackLegendSprite.ramp),
         .text(ramp.label(ramp.low, imperial: imperial), .chrome), .text(ramp.label(ramp.high, imperial: imperial), .chrome)]
    }

    public static let legendRampSize = ScreenSize(width: 120, height: 8)

    /// The legend's plate and parts, when all its sprites are ready (else they are asked for).
    private func legendFrames(_ context: LayerContext) -> (plate: ScreenRect, parts: [(SpriteKey, ScreenRect)])? {
        guard let ramp else { return nil }
        let keys = legendKeys(ramp, imperial: context.facts.imperialUnits)
        let sizes = keys.map { context.sprites.size(of: $0) }
        guard sizes.allSatisfy({ $0 != nil }) else { return nil }
        let title = sizes[0]!, low = sizes[2]!, high = sizes[3]!, bar = Self.legendRampSize
        let width = max(bar.width, low.width + high.width + 8, title.width)
        let height = title.height + 4 + bar.height + 2 + max(low.height, high.height)
        // Above the scale bar's plate (bottom left, ~30 points high).
        let x = 10.0, y = context.camera.viewportSize.height - context.bottomInset - 44 - height
        let plate = ScreenRect(x: x - 4, y: y - 4, width: width + 8, height: height + 8)
        let barY = y + title.height + 4
        return (plate, [
            (keys[0], ScreenRect(x: x, y: y, width: title.width, height: title.height)),
            (keys[1], ScreenRect(x: x, y: barY, width: bar.width, height: bar.height)),
            (keys[2], ScreenRect(x: x, y: barY + bar.height + 2, width: low.width, height: low.height)),
            (keys[3], ScreenRect(x: x + bar.width - high.width, y: barY + bar.height + 2, width: high.width, height: high.height)),
        ])
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

/// The colour ramp of the legend, drawn left (low) to right (high) at
/// `TracksLayer.legendRampSize`.
public enum TrackLegendSprite: SpriteSpec {
    case ramp
}
