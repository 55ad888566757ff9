import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// The place on a track the user clicked: the callout there shows the track's statistics.
public struct TrackSelection: Sendable, Equatable {
    public var fileID: Int
    /// The line's index in its file, and the point's in the line.
    public var line: Int
    public var point: Int

    public init(fileID: Int, line: Int, point: Int) {
        self.fileID = fileID
        self.line = line
        self.point = point
    }
}

extension TracksLayer {
    /// The shown line drawn nearest `p`, within `radius` points of its edge, and its point
    /// nearest `p`; nil when no line is that near.
    public func hit(at p: ScreenPoint, camera: Camera, radius: Double = 6) -> TrackSelection? {
        let world = camera.mapPoint(for: p)
        let perPoint = 1 / camera.scale
        var best: (distance: Double, selection: TrackSelection)?
        for file in files where !file.hidden {
            for (li, line) in file.lines.enumerated() {
                let reach = (radius + line.style.reach) * perPoint
                let area = MapRect(x: world.x - reach, y: world.y - reach, width: 2 * reach, height: 2 * reach)
                guard line.geometry.bounds.intersects(area) else { continue }
                let pts = line.geometry.points
                // The edges as drawn (simplified to half a pixel), then the point nearest.
                for run in line.geometry.runs(in: area, tolerance: 0.5 * perPoint) {
                    for (a, b) in zip(run, run.dropFirst()) {
                        let d = Simplify.segmentDistanceSquared(world, pts[a], pts[b]).squareRoot()
                        guard d <= reach, d < (best?.distance ?? .infinity) else { continue }
                        var nearest = a
                        for k in a...b where (pts[k] - world).length < (pts[nearest] - world).length { nearest = k }
                        best = (d, TrackSelection(fileID: file.id, line: li, point: nearest))
                    }
                }
            }
        }
        return best?.selection
    }

    /// A click at `p`: selects the track there, or clears the selection; true when it changed.
    @discardableResult
    public mutating func select(at p: ScreenPoint, camera: Camera) -> Bool {
        let new = hit(at: p, camera: camera)
        guard new != selection else { return false }
        selection = new
        return true
    }

    /// The statistics and profiles of a file's lines, worked out after it was opened.
    public mutating func setDetails(_ details: [TrackDetails], forFile id: Int) {
        guard let i = files.firstIndex(where: { $0.id == id }) else { return }
        for (k, d) in details.enumerated() where k < files[i].lines.count { files[i].lines[k].apply(d) }
        // Speeds arrived: a ramp by speed may fit now, or fit otherwise.
        if colorMode != .plain { setColorMode(colorMode) }
    }

    /// The selected line and its file, while both are shown.
    public var selectedLine: (file: TrackFile, line: TrackLine, point: Int)? {
        guard let s = selection, let file = files.first(where: { $0.id == s.fileID }), !file.hidden,
              file.lines.indices.contains(s.line) else { return nil }
        let line = file.lines[s.line]
        guard line.geometry.points.indices.contains(s.point) else { return nil }
        return (file, line, s.point)
    }

    /// The callout's text: the track's name, then its statistics (or that they are coming),
    /// in miles and feet when `imperial`.
    public func calloutText(_ file: TrackFile, _ line: TrackLine, imperial: Bool = false) -> String {
        let name = file.title(of: line)
        // TRANSLATORS: in a track's callout while its statistics are being worked out.
        let body = line.statistics.map { $0.summary(imperial: imperial) } ?? [tr("measuring…")]
        return ([name] + body).joined(separator: "\n")
    }

    /// A dot on the track where it was clicked, and above it a plate with the track's name
    /// and statistics (moved inside the window when the point is near an edge).
    func composeCallout(into list: inout DrawList, context: LayerContext) {
        guard let (file, line, point) = selectedLine else { return }
        let at = context.camera.screenPoint(for: line.geometry.points[point])
        context.placeRound(SpriteKey(LocationSprite.dot(line.style.color)), center: at, radius: 9, opacity: 1, into: &list)
        let key = SpriteKey.text(calloutText(file, line, imperial: context.facts.imperialUnits), .callout)
        guard let s = context.sprites.size(of: key) else { list.want(key); return }
        let view = context.viewRect
        let x = min(max(at.x - s.width / 2, 10), view.width - s.width - 10)
        var y = at.y - 16 - s.height
        if y < 10 { y = at.y + 16 }
        let text = ScreenRect(x: x.rounded(), y: y.rounded(), width: s.width, height: s.height)
        let plate = ScreenRect(x: text.x - 8, y: text.y - 6, width: text.width + 16, height: text.height + 12)
        list.commands.append(.fillRect(plate.outset(1), Color(hex: 0x000000, alpha: 0.18)))
        list.commands.append(.fillRect(plate, Color(hex: 0xFFFFFF, alpha: 0.96)))
        list.commands.append(.fillRect(ScreenRect(x: plate.x, y: plate.y, width: 3, height: plate.height), line.style.color))
        list.commands.append(.sprite(key, destination: text, opacity: 1))
    }
}

/// What is worked out for a line after it is shown: its speeds, statistics and elevation
/// profile.
public struct TrackDetails: Sendable {
    public var speed: [Float]
    public var statistics: TrackStatistics
    public var profile: TrackProfile?

    public init(_ line: TrackLine) {
        // Metres along the track, measured once for all three.
        let along = TrackStatistics.distancesAlong(line.track)
        speed = TrackSpeeds.compute(line.track, along: along)
        statistics = TrackStatistics(line.track, along: along)
        profile = TrackProfile(line.track, speed: speed, along: along)
    }
}
