import FoundationEssentials
import MapGeometry
import Platform

/// Measuring (key M): each click adds a point; the line between them is drawn, each stretch
/// says its length and the last point the total, great-circle distances in the scale bar's
/// units. Backspace takes the last point back, Esc ends; Ctrl+S keeps the line as a track.
public struct MeasureLayer: MapLayer {
    public private(set) var isActive = false
    public private(set) var points: [Coordinate] = []
    /// Changes with every point added or taken back (the line is painted into the tiles).
    public private(set) var revision = 0

    public init() {}

    public var levels: [LayerLevel] { [.callout, .chrome] }

    public static let ink = Color(hex: 0x5856D6)
    // TRANSLATORS: the hint while measuring (key M); Backspace, Esc and Ctrl+S are keys.
    static let hintKey: SpriteKey = .text(tr("Measuring: click points · Backspace undoes · Esc ends · Ctrl+S keeps as a track"), .notice)

    public mutating func start() { isActive = true; points = []; revision += 1 }
    public mutating func end() { isActive = false; points = []; revision += 1 }
    public mutating func add(_ c: Coordinate) { if isActive, c.isValid { points.append(c); revision += 1 } }
    public mutating func removeLast() { if !points.isEmpty { points.removeLast(); revision += 1 } }

    /// The great-circle length of each stretch, in metres.
    public var segments: [Double] {
        zip(points, points.dropFirst()).map { TrackStatistics.distance($0.latitude, $0.longitude, $1.latitude, $1.longitude) }
    }

    public var total: Double { segments.reduce(0, +) }

    /// The line as a track (to save, and to paint into the tiles).
    public var track: Track { Self.track(of: points) }

    /// A measured line's points as a track.
    public static func track(of points: [Coordinate]) -> Track {
        var p = TrackPoints()
        for c in points { p.append(latitude: c.latitude, longitude: c.longitude, elevation: .nan, time: .nan) }
        // TRANSLATORS: the name of a line measured with key M (and kept as a track).
        return Track(kind: .route, name: tr("Measured line"), segments: points.count >= 2 ? [0..<points.count] : [], points: p)
    }

    /// The measured line goes into the tiles, as tracks do.
    public var tileContent: TileContent? {
        let line = isActive && points.count >= 2 ? track : nil
        return TileContent(revision: revision) {
            line.map { LineOverlay(lines: [TrackLine(track: $0, geometry: TrackGeometry($0, threads: 1), style: TrackStyle(color: Self.ink, width: 3))]) }
        }
    }

    /// Key M starts or ends measuring.
    public mutating func perform(_ command: KeyBinding.Command, key: Key, context: InputContext) -> [LayerAction]? {
        guard command == .measure else { return nil }
        if isActive { end() } else { start() }
        return [.changed]
    }

    /// While measuring: Esc ends, Backspace takes the last point back, Ctrl+S keeps the line.
    public mutating func take(_ event: InputEvent, context: InputContext) -> [LayerAction]? {
        guard isActive, case let .keyDown(key, mods) = event else { return nil }
        // Ctrl+S is the measuring's own key (its hint says so), whatever else the app binds to it.
        if key == .letter("s"), mods == .control {
            guard points.count >= 2 else { return [.notice(tr("Click two points or more to measure a line worth keeping"))] }
            return [.effect(.keepMeasuredLine(points))]
        }
        switch KeyBindings.command(for: key, mods, in: context.keys) {
        case .cancel?: end()
        case .deletePin?: removeLast()
        default: return nil
        }
        return [.changed]
    }

    /// A click while measuring: a point there.
    public mutating func click(at p: ScreenPoint, context: InputContext) -> [LayerAction]? {
        guard isActive else { return nil }
        add(context.camera.coordinate(for: p))
        return [.changed]
    }

    public func compose(at level: LayerLevel, into list: inout DrawList, context: LayerContext) {
        guard isActive else { return }
        let cam = context.camera
        func text(_ metres: Double) -> String { TrackStatistics.distanceText(metres, imperial: context.facts.imperialUnits) }
        if level == .chrome {
            guard let s = context.sprites.size(of: Self.hintKey) else { list.want(Self.hintKey); return }
            let v = cam.viewportSize
            let r = ScreenRect(x: (v.width - s.width - 20) / 2, y: v.height - context.bottomInset - 40 - s.height, width: s.width + 20, height: s.height + 10)
            list.darkPlate(r, text: Self.hintKey, size: s)
            return
        }
        let screen = points.map { cam.screenPoint(for: $0) }
        for p in screen { context.placeRound(.locationDot(Self.ink), center: p, radius: 6, opacity: 1, into: &list) }
        var labels: [(String, ScreenPoint)] = zip(screen, screen.dropFirst()).enumerated().map { i, pair in
            (text(segments[i]), ScreenPoint(x: (pair.0.x + pair.1.x) / 2, y: (pair.0.y + pair.1.y) / 2))
        }
        // TRANSLATORS: the whole measured line's length; %@ is a distance ("4.27 km").
        if points.count >= 3, let last = screen.last { labels.append((tr("Total %@", text(total)), ScreenPoint(x: last.x, y: last.y - 22))) }
        for (string, at) in labels {
            let key = SpriteKey.text(string, .chrome)
            guard let s = context.sprites.size(of: key) else { list.want(key); continue }
            let r = ScreenRect(x: at.x - s.width / 2 - 5, y: at.y - s.height / 2 - 3, width: s.width + 10, height: s.height + 6)
            guard r.intersects(context.viewRect) else { continue }
            list.commands.append(.fillRect(r.outset(1), Self.ink))
            list.commands.append(.fillRect(r, Color(hex: 0xFFFFFF)))
            list.commands.append(.sprite(key, destination: ScreenRect(x: r.x + 5, y: r.y + 3, width: s.width, height: s.height), opacity: 1))
        }
    }
}
