import FoundationEssentials
import Glibc
import MapGeometry
import Platform

/// The elevation profile panel (key E): the selected track's elevation over distance (and
/// speed, when it has times) along the bottom of the window. The pointer over the graph
/// shows that place on the map; over the track, that place on the graph.
extension TracksLayer {
    public static let profileHeight = 150.0

    /// The line the panel shows: the selected one, else the first shown line with a profile.
    public var profileLine: (file: TrackFile, line: TrackLine, profile: TrackProfile)? {
        if let (file, line, _) = selectedLine, let p = line.profile { return (file, line, p) }
        for file in files where !file.hidden {
            for line in file.lines { if let p = line.profile { return (file, line, p) } }
        }
        return nil
    }

    public func bottomInset(_ context: LayerContext) -> Double {
        showsProfile && profileLine != nil ? Self.profileHeight : 0
    }

    /// Key E: shows or hides the panel; false when no shown track has elevations (then it
    /// stays hidden).
    @discardableResult
    public mutating func toggleProfile() -> Bool {
        if showsProfile { showsProfile = false; profileHover = nil; return true }
        guard profileLine != nil else { return false }
        showsProfile = true
        return true
    }

    /// The panel and, inside it, the graph (room left for the heights, below for distances).
    public static func profileFrames(viewport: ScreenSize) -> (panel: ScreenRect, graph: ScreenRect) {
        let panel = ScreenRect(x: 0, y: viewport.height - profileHeight, width: viewport.width, height: profileHeight)
        let graph = ScreenRect(x: panel.x + 64, y: panel.y + 30, width: max(panel.width - 64 - 24, 10), height: panel.height - 30 - 26)
        return (panel, graph)
    }

    /// The pointer moved to `p` (nil: it left the window). Over the graph it picks the point
    /// of that column; over the profile's track on the map, that point. True when it changed.
    @discardableResult
    public mutating func hover(at p: ScreenPoint?, camera: Camera) -> Bool {
        var new: Int?
        if let p, showsProfile, let (file, line, profile) = profileLine {
            let (panel, graph) = Self.profileFrames(viewport: camera.viewportSize)
            if panel.contains(p) {
                if p.x >= graph.x - 4, p.x <= graph.maxX + 4 {
                    let f = min(max((p.x - graph.x) / graph.width, 0), 1)
                    new = profile.point[Int(saturating: (f * Double(TrackProfile.columns - 1)).rounded())]
                }
            } else if let hit = hit(at: p, camera: camera), hit.fileID == file.id,
                      file.lines.indices.contains(hit.line), file.lines[hit.line].geometry === line.geometry {
                new = hit.point
            }
        }
        guard new != profileHover else { return false }
        profileHover = new
        return true
    }

    /// The panel: its plate, the graph (one sprite), and where the pointer is, a line across
    /// the graph and what the track is like there.
    func composeProfile(into list: inout DrawList, context: LayerContext) {
        guard showsProfile, let (file, line, profile) = profileLine else { return }
        let (panel, graph) = Self.profileFrames(viewport: context.camera.viewportSize)
        list.commands.append(.fillRect(ScreenRect(x: panel.x, y: panel.y - 1, width: panel.width, height: 1), Color(hex: 0x000000, alpha: 0.2)))
        list.commands.append(.fillRect(panel, Color(hex: 0xFFFFFF)))
        let title = file.title(of: line)
        let dashed = profile.dashed(for: colorMode).mode
        let key = SpriteKey(TrackProfileSprite(profile: profile, width: Int(saturating: panel.width.rounded()), height: Int(saturating: panel.height),
                                               color: line.style.color, title: title, imperial: context.facts.imperialUnits, dashed: dashed))
        context.place(key, rect: panel, opacity: 1, into: &list)
        guard let point = profileHover else { return }
        let column = profile.column(ofPoint: point)
        let x = graph.x + graph.width * Double(column) / Double(TrackProfile.columns - 1)
        list.commands.append(.fillRect(ScreenRect(x: x - 0.75, y: graph.y, width: 1.5, height: graph.height), Color(hex: 0x222222, alpha: 0.8)))
        let (lo, hi) = profile.elevationScale
        let e = Double(profile.elevation[column])
        if e.isFinite {
            let y = graph.maxY - (e - lo) / (hi - lo) * graph.height
            context.placeRound(SpriteKey(LocationSprite.dot(line.style.color)), center: ScreenPoint(x: x, y: y), radius: 7, opacity: 1, into: &list)
        }
        // "12.3 km · 1,234 m · 24.0 km/h", top right of the panel.
        var parts = [TrackStatistics.distanceText(profile.distance * Double(column) / Double(TrackProfile.columns - 1), imperial: context.facts.imperialUnits)]
        if e.isFinite { parts.append(TrackStatistics.heightText(e, imperial: context.facts.imperialUnits)) }
        if !profile.speed.isEmpty, profile.speed[column].isFinite {
            parts.append(TrackStatistics.speedText(Double(profile.speed[column]), imperial: context.facts.imperialUnits))
        }
        // "142 bpm · 88 rpm · 230 W" where the track has them.
        for (values, mode) in [(profile.heartRate, TrackColorMode.heartRate), (profile.cadence, .cadence), (profile.power, .power)]
        where !values.isEmpty && values[column].isFinite {
            parts.append(TrackColorRamp.sensorText(Double(values[column]), mode))
        }
        let readout = SpriteKey.text(parts.joined(separator: " · "), .chrome)
        if let s = context.sprites.size(of: readout) {
            list.commands.append(.sprite(readout, destination: ScreenRect(x: panel.maxX - s.width - 16, y: panel.y + 8, width: s.width, height: s.height), opacity: 1))
        } else {
            list.want(readout)
        }
    }

    /// Where the pointer is on the graph, on the map: a dot on the track.
    func composeProfileMarker(into list: inout DrawList, context: LayerContext) {
        guard showsProfile, let point = profileHover, let (_, line, _) = profileLine, line.geometry.points.indices.contains(point) else { return }
        let at = context.camera.screenPoint(for: line.geometry.points[point])
        context.placeRound(SpriteKey(LocationSprite.dot(line.style.color)), center: at, radius: 9, opacity: 1, into: &list)
    }
}

/// The profile panel's picture: title, heights and distances, the elevation filled under
/// its line, speed as a thin line on its own scale. Drawn in MapGraphics.
public struct TrackProfileSprite: SpriteSpec {
    public let profile: TrackProfile
    public let width: Int, height: Int
    public let color: Color
    public let title: String
    public let imperial: Bool
    /// What the dashed line shows: speed, or the sensor the tracks are coloured by.
    public var dashed: TrackColorMode = .speed
}

extension TrackProfile {
    /// The heights at the graph's bottom and top: the track's, with a margin.
    public var elevationScale: (low: Double, high: Double) {
        let pad = max((highest - lowest) * 0.08, 5)
        return (lowest - pad, highest + pad)
    }
}
